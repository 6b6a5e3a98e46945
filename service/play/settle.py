"""What follows moves, whoever made them: the automatic moves they lead to, the projections of the
log (service/play/projections.py) and the mails each step causes, all in the caller's transaction.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from service.eventlog.models import OutboxMail
from service.eventlog.store import Table
from service.mail.drafting import mails_after_move
from service.play.ahead import note, untold
from service.play.automatic import play_automatic, play_until_chosen
from service.play.projections import project
from service.runtime import Runtime


def settle(session: Session, table: Table, now: datetime) -> Table:
    """Play the automatic moves the game now waits on, bring the game row's cache of the log (its
    status) and the clocks in line; the table after."""
    return settled_with_dues(session, table, now)[0]


def settled_with_dues(session: Session, table: Table, now: datetime) -> tuple[Table, dict[int, datetime]]:
    """`settle`, with the deadline of each move owed afterwards by seat (from the clocks just
    written, not read back)."""
    return in_line(session, play_automatic(session, table, now), now)


def in_line(session: Session, table: Table, now: datetime) -> tuple[Table, dict[int, datetime]]:
    """The projections of the log (the game row, the clocks) brought in line with the table; the
    table and the deadline of each move owed by seat."""
    return table, project(session, table, now)


def finish_moves(
    rt: Runtime, session: Session, before: Table, after: Table, now: datetime
) -> tuple[Table, list[OutboxMail]]:
    """After moves appended in this transaction (from `before` to `after`): settle the game and write
    the mails everything since `before` causes. Returns the settled table and the mails (added to
    the session).

    A play chosen ahead is a step of its own: the mails of the moves before it are written as the
    game stood then, to every seat but its own, as they would be before a quick move by hand, so
    that no other seat can tell the play was chosen ahead."""
    mails: list[OutboxMail] = []
    settled, chosen = play_until_chosen(session, after, now)
    while chosen is not None:
        seat = chosen.actors[settled.version]
        mails += step_mails(rt, session, before, *in_line(session, settled, now), skip=seat)
        before = settled
        settled, chosen = play_until_chosen(session, chosen, now)
    after, due = in_line(session, settled, now)
    return after, mails + step_mails(rt, session, before, after, due)


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
    session.add_all(mails)
    mailed = {mail.seat for mail in mails}
    for seat, rows in notes.items():
        if seat in mailed or after.result is not None:
            for row in rows:
                row.told = True
                session.add(row)
    return mails
