"""The rows that only repeat what a game's log says, written by this module alone, in the
transaction of the step that appended the events: the game row's cache (status, finished_at and
the version loading trusts), who plays each seat (`seats.keeper`, `seats.bot_level`) and the turn
clocks (one row per owed move, with its reminder and deadline from the time control and the seat's
vacations). `rebuild` writes them all again from the log alone (`pbem rebuild`).

A seat's row changes the moment its event is appended (`project_seats`), so the rest of the step
reads who plays it from the row; the game row and the clocks follow at the step's end (`project`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, tuple_
from sqlmodel import Session, col, or_, select

from rules.table import KEEPER, SEAT_KEPT, SEAT_REPLACED
from service.eventlog.models import SeatKeeper, SeatRecord, TurnClock
from service.eventlog.store import Table
from service.play.automatic import automatic_origin
from service.play.clocks import away_by_seat, open_clocks
from service.play.deadlines import deadline, owed_moves
from service.play.time_control import TimeControl

# Who plays a seat: SeatKeeper's kind, and the bot's level (None: the seat-keeper itself).
Control = tuple[str, str | None]


def control_after(control: Control, event: dict[str, Any]) -> Control:
    """Who plays the event's seat after a SeatKept or SeatReplaced (any other event changes
    nothing). A bot's seat from the start stays a bot's until it is given to a player."""
    keeper, _ = control
    if event["type"] == SEAT_REPLACED:
        return SeatKeeper.PLAYER, None
    if event["type"] != SEAT_KEPT:
        return control
    level = event.get("level", KEEPER) if event["by_keeper"] else KEEPER
    if keeper != SeatKeeper.BOT:
        keeper = SeatKeeper.STAND_IN if event["by_keeper"] else SeatKeeper.PLAYER
    return keeper, None if level == KEEPER else level


def _control_of(start: Control, events: Iterable[dict[str, Any]], seat: int) -> Control:
    """Who plays `seat` after `events`, from `start`."""
    control = start
    for event in events:
        if event["type"] in (SEAT_KEPT, SEAT_REPLACED) and event["seat"] == seat:
            control = control_after(control, event)
    return control


def project_seats(session: Session, table: Table, since: int) -> None:
    """The seat rows brought in line with the events after the version `since` (just appended)."""
    new = table.events[since:]
    for record in table.seats:
        _write_control(session, record, _control_of((record.keeper, record.bot_level), new, record.seat))


def _write_control(session: Session, record: SeatRecord, control: Control) -> bool:
    """Whether the row had to change."""
    if (record.keeper, record.bot_level) == control:
        return False
    record.keeper, record.bot_level = control
    session.add(record)
    return True


def project(session: Session, table: Table, now: datetime) -> dict[int, datetime]:
    """The game row and the clocks brought in line with the table at the end of a step; the deadline
    of each move owed, by seat (from the clocks just written, not read back)."""
    _project_record(session, table)
    clocks = sync_clocks(session, table, now)
    return {row.seat: row.due_at for row in clocks if row.due_at is not None}


def rebuild(session: Session, table: Table, now: datetime) -> bool:
    """Every projected row of the game written again from its log alone (`table` loaded without a
    cache); whether one of the seat or game rows had to change. A bot's seat from the start is a fact
    of the game's creation, as its name: the row keeps it until the log gives the seat a player."""
    changed = False
    for record in table.seats:
        bot = record.keeper == SeatKeeper.BOT
        start: Control = (SeatKeeper.BOT, record.bot_level) if bot else (SeatKeeper.PLAYER, None)
        changed |= _write_control(session, record, _control_of(start, table.events, record.seat))
    changed |= _project_record(session, table)
    sync_clocks(session, table, now)
    return changed


def _project_record(session: Session, table: Table) -> bool:
    """The game row's cache of the log (status, finished_at, version); whether it had to change."""
    record = table.record
    now = (table.status, _utc(table.finished_at), table.version)
    if (record.status, _utc(record.finished_at), record.version) == now:
        return False
    record.status, record.finished_at, record.version = table.status, table.finished_at, table.version
    session.add(record)
    return True


def _utc(moment: datetime | None) -> datetime | None:
    """A stored time as aware UTC (SQLite gives back naive UTC times)."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


# Built once: every move brings its game's clocks in line.
_OPEN_OR_OWED_CLOCKS = select(TurnClock).where(
    col(TurnClock.game_id) == bindparam("game_id"),
    or_(
        col(TurnClock.settled_at).is_(None),
        tuple_(col(TurnClock.seat), col(TurnClock.owed_since_seq)).in_(bindparam("keys", expanding=True)),
    ),
)


def sync_clocks(session: Session, table: Table, now: datetime) -> list[TurnClock]:
    """Bring the game's clock rows in line with its log: a row for each owed move (its reminder and
    deadline computed afresh), and the rows of moves no longer owed settled. Rows keep what the beat
    did with them (reminded, timed out) under the same key. Returns the open rows."""
    owed = owed_moves(table.owing, table.times) if table.active else {}
    keys = [(owe.seat, owe.since_seq) for owe in owed.values()]
    found = (
        session.exec(_OPEN_OR_OWED_CLOCKS, params={"game_id": table.game_id, "keys": keys}).all()
        if keys
        else open_clocks(session, table.game_id)
    )
    rows = {(row.seat, row.owed_since_seq): row for row in found}
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
