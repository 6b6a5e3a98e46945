"""The master of a step's second half, whoever made its move or decision: what follows it
(`automatic.follow`, pure) appended step by step, the projections of the log brought in line
(service/play/projections.py) and each step handed to the mail policy, all in the caller's
transaction (the unit of work of `Runtime.in_game`, which locks, loads and commits).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from service.channels.notices import notices_after
from service.eventlog.models import OutboxMail
from service.eventlog.store import Table, append_move
from service.mail.drafting import mails_after_move
from service.play.ahead import Queued, chosen_rows, note, settle_queue, untold
from service.play.automatic import Step, follow
from service.play.projections import project, project_seats
from service.runtime import Runtime, searching_now


def settle(session: Session, table: Table, now: datetime) -> Table:
    """Play the automatic moves the game now waits on and bring the projections of the log in line;
    the table after (the caller writes the mails)."""
    return settled_with_dues(session, table, now)[0]


def settled_with_dues(session: Session, table: Table, now: datetime) -> tuple[Table, dict[int, datetime]]:
    """`settle`, with the deadline of each move owed afterwards by seat (from the clocks just
    written, not read back)."""
    for step in _follow(session, table, now):
        table = _append_step(session, table, step, now)
    return in_line(session, table, now)


def in_line(session: Session, table: Table, now: datetime) -> tuple[Table, dict[int, datetime]]:
    """The projections of the log (the game row, the clocks) brought in line with the table; the
    table and the deadline of each move owed by seat."""
    return table, project(session, table, now)


def finish_moves(
    rt: Runtime, session: Session, before: Table, after: Table, now: datetime
) -> tuple[Table, list[OutboxMail]]:
    """After moves appended in this transaction (from `before` to `after`): append what follows them
    (`automatic.follow`, step by step), bring the projections in line after each step and write the
    mails each step causes. Returns the table after all and the mails (added to the session).

    A play chosen ahead begins a step of its own: the mails of the moves before it are written as
    the game stood then, to every seat but its own, as they would be before a quick move by hand, so
    that no other seat can tell the play was chosen ahead."""
    mails: list[OutboxMail] = []
    for step in _follow(session, after, now):
        after, due = in_line(session, _append_step(session, after, step, now), now)
        mails += step_mails(rt, session, before, after, due, skip=step.chosen_next)
        before = after
    return after, mails


def _follow(session: Session, table: Table, now: datetime) -> list[Step]:
    """What follows the table now, from its plays chosen ahead still waiting."""
    queue = [Queued.of(row) for row in chosen_rows(session, table.game_id)]
    return follow(table, queue, now, searching_now())


def _append_step(session: Session, table: Table, step: Step, now: datetime) -> Table:
    """A step's moves appended (the seat rows following each decision about the table) and what
    became of its plays chosen ahead written; the table after."""
    for move in step.moves:
        after = append_move(session, table, move.seat, move.action, move.events, move.origin, now)
        if move.seat is None:
            project_seats(session, after, table.version)
        table = after
    settle_queue(session, table.game_id, step.settled, now)
    return table


def step_mails(
    rt: Runtime,
    session: Session,
    before: Table,
    after: Table,
    due: dict[int, datetime],
    skip: int | None = None,
) -> list[OutboxMail]:
    """The mails the moves from `before` to `after` cause (none to the seat `skip`), each seat told
    what became of its plays chosen ahead meanwhile; added to the session."""
    notes = {seat: rows for seat, rows in untold(session, after).items() if seat != skip}
    told = {seat: [note(after, row) for row in rows] for seat, rows in notes.items()}
    mails = mails_after_move(rt, before, after, due, told)
    if skip is not None:  # (the host's mails have no seat)
        mails = [mail for mail in mails if mail.seat != skip]
    mails += notices_after(rt, session, before, after, due)
    session.add_all(mails)
    mailed = {mail.seat for mail in mails}
    for seat, rows in notes.items():
        if seat in mailed or after.result is not None:
            for row in rows:
                row.told = True
                session.add(row)
    return mails
