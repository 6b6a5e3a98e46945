"""Turn clocks as pages and the beat read them: one row per owed move, derived from the log and the
seat's vacations and written by service/play/projections.py in the same transaction as the events
that make a seat owe, so that the beat task finds what is due with one indexed query.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from service.eventlog.models import TurnClock, Vacation
from service.eventlog.store import Table
from service.play.deadlines import Interval

# Built once: every page and JSON read of a seat reads both.
_VACATIONS = (
    select(Vacation).where(col(Vacation.game_id) == bindparam("game_id")).order_by(col(Vacation.starts_at))
)
_OPEN_CLOCKS = (
    select(TurnClock)
    .where(col(TurnClock.game_id) == bindparam("game_id"), col(TurnClock.settled_at).is_(None))
    .order_by(col(TurnClock.seat))
)


def vacations(session: Session, game_id: str) -> list[Vacation]:
    """Every vacation declared in a game, earliest first."""
    return list(session.exec(_VACATIONS, params={"game_id": game_id}).all())


def away_by_seat(session: Session, game_id: str) -> dict[int, list[Interval]]:
    """Each seat's vacations as (start, end) intervals."""
    away: dict[int, list[Interval]] = defaultdict(list)
    for vacation in vacations(session, game_id):
        away[vacation.seat].append((vacation.starts_at, vacation.ends_at))
    return away


def open_clocks(session: Session, game_id: str) -> list[TurnClock]:
    """The game's clocks of moves still owed, in seat order."""
    return list(session.exec(_OPEN_CLOCKS, params={"game_id": game_id}).all())


def dues(session: Session, game_id: str) -> dict[int, datetime]:
    """The deadline of each move owed now in a timed game, by seat."""
    return {row.seat: row.due_at for row in open_clocks(session, game_id) if row.due_at is not None}


@dataclass(frozen=True)
class Waiting:
    """A seat the game waits on, as pages show it."""

    seat: int
    name: str
    since: datetime | None
    due: datetime | None
    keeper: str
    away_until: datetime | None  # on vacation now, until then
    timed_out: bool  # out of time, waiting for the host's decision

    def as_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "name": self.name,
            "since": self.since.isoformat() if self.since else None,
            "due": self.due.isoformat() if self.due else None,
            "kept_by": self.keeper,
            "away_until": self.away_until.isoformat() if self.away_until else None,
            "timed_out": self.timed_out,
        }


def waiting_on(
    session: Session, table: Table, now: datetime, taken: list[Vacation] | None = None
) -> list[Waiting]:
    """Each seat the game waits on, with its deadline and whether it is away now (`taken`: the
    game's vacations, when the caller has read them already)."""
    if not table.active:
        return []
    clocks = {row.seat: row for row in open_clocks(session, table.game_id)}
    if taken is None:
        taken = vacations(session, table.game_id)
    away_now = {
        vacation.seat: vacation.ends_at for vacation in taken if vacation.starts_at <= now < vacation.ends_at
    }
    waiting = []
    for seat in sorted(table.rules.to_act(table.state)):
        clock = clocks.get(seat)
        waiting.append(
            Waiting(
                seat,
                table.names[seat],
                clock.owed_since if clock else None,
                clock.due_at if clock else None,
                table.seats[seat].keeper,
                away_now.get(seat),
                bool(clock and clock.timed_out_at),
            )
        )
    return waiting
