"""Turn clocks in the database: one row per owed move, derived from the log and the seat's vacations
and written in the same transaction as the events that make a seat owe, so that the beat task finds
what is due with one indexed query. Rebuilding them for a game (`sync_clocks`) is always safe: rows
keep what happened to them (reminded, timed out, more days from the host) under the same key.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import tuple_
from sqlmodel import Session, col, or_, select

from service.eventlog.models import SeatKeeper, TurnClock, Vacation
from service.eventlog.store import Table
from service.play.automatic import automatic_origin
from service.play.deadlines import Interval, deadline, owed_moves
from service.play.time_control import TimeControl


def vacations(session: Session, game_id: str) -> list[Vacation]:
    """Every vacation declared in a game, earliest first."""
    query = select(Vacation).where(Vacation.game_id == game_id).order_by(col(Vacation.starts_at))
    return list(session.exec(query).all())


def away_by_seat(session: Session, game_id: str) -> dict[int, list[Interval]]:
    """Each seat's vacations as (start, end) intervals."""
    away: dict[int, list[Interval]] = defaultdict(list)
    for vacation in vacations(session, game_id):
        away[vacation.seat].append((vacation.starts_at, vacation.ends_at))
    return away


def open_clocks(session: Session, game_id: str) -> list[TurnClock]:
    """The game's clocks of moves still owed, in seat order."""
    query = select(TurnClock).where(TurnClock.game_id == game_id, col(TurnClock.settled_at).is_(None))
    return list(session.exec(query.order_by(col(TurnClock.seat))).all())


def dues(session: Session, game_id: str) -> dict[int, datetime]:
    """The deadline of each move owed now in a timed game, by seat."""
    return {row.seat: row.due_at for row in open_clocks(session, game_id) if row.due_at is not None}


def sync_clocks(session: Session, table: Table, now: datetime) -> list[TurnClock]:
    """Bring the game's clock rows in line with its log: a row for each owed move (its reminder and
    deadline computed afresh), and the rows of moves no longer owed settled. Returns the open rows."""
    owed = owed_moves(table.owing, table.times) if table.active else {}
    keys = [(owe.seat, owe.since_seq) for owe in owed.values()]
    query = select(TurnClock).where(TurnClock.game_id == table.game_id)
    if keys:
        query = query.where(
            or_(
                col(TurnClock.settled_at).is_(None),
                tuple_(col(TurnClock.seat), col(TurnClock.owed_since_seq)).in_(keys),
            )
        )
    else:
        query = query.where(col(TurnClock.settled_at).is_(None))
    rows = {(row.seat, row.owed_since_seq): row for row in session.exec(query).all()}
    control = TimeControl.of(table.record)
    away = away_by_seat(session, table.game_id) if control.timed else {}
    current = []
    for owe in owed.values():
        row = rows.pop((owe.seat, owe.since_seq), None) or TurnClock(
            game_id=table.game_id, seat=owe.seat, owed_since_seq=owe.since_seq, owed_since=owe.since
        )
        row.settled_at = None
        row.automatic = automatic_origin(table, owe.seat) is not None
        row.granted_at, row.granted_days = owe.granted_at, owe.granted_days  # a cache of the log
        if control.timed and table.seats[owe.seat].keeper == SeatKeeper.PLAYER:
            if owe.granted_at is None:
                due = deadline(control, owe.since, away.get(owe.seat, ()))
            else:
                due = deadline(control, owe.granted_at, away.get(owe.seat, ()), owe.granted_days)
            row.remind_at, row.due_at = due.remind_at, due.due_at
        else:
            row.remind_at = row.due_at = None
        session.add(row)
        current.append(row)
    for row in rows.values():
        if row.settled_at is None:
            row.settled_at = now
            session.add(row)
    session.flush()
    return current


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
