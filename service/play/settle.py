"""What follows moves, whoever made them: the automatic moves they lead to, the game row's cache of
the log (status, finished_at), the turn clocks and the mails, all in the caller's transaction. Also
the seat's own turn settings (taking the seat back from the seat-keeper, auto-play), and the
decisions of the game or its host (a forfeit, more time), which are events of the log like moves.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from rules.base import extend_decision, forfeit_decision
from service.eventlog.models import EventOrigin, OutboxMail, SeatKeeper, TurnClock
from service.eventlog.store import Table
from service.i18n import say
from service.mail.drafting import draft_mail, drafted, mailed_seats, mails_after_move, player_url
from service.mail.kinds import MailKind
from service.play.ahead import note, untold
from service.play.automatic import play_automatic, play_until_chosen
from service.play.clocks import open_clocks
from service.play.decisions import decided, player_back
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


def take_seat_back(rt: Runtime, game_id: str, seat: int) -> bool:
    """The player takes their seat back from the seat-keeper; False if it was not kept for them."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        if table.seats[seat].keeper != SeatKeeper.STAND_IN:
            return False, []
        now = rt.clock.now()
        project(session, player_back(session, table, seat, now), now)
        return True, []

    return rt.in_game(game_id, change)


def set_auto_play(rt: Runtime, game_id: str, seat: int, on: bool) -> None:
    """Turn auto-play of the seat's forced moves on or off; a forced move owed now is played at once."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        record = table.seats[seat]
        record.auto_play = on
        session.add(record)
        if not table.active:
            return None, []
        return None, finish_moves(rt, session, table, table, rt.clock.now())[1]

    rt.in_game(game_id, change)


def host_decision_mails(rt: Runtime, table: Table, skip: frozenset[int] = frozenset()) -> list[OutboxMail]:
    """The host's decision (the table's last event) told to every player but `skip`, in words."""
    event = table.events[-1]
    mails = []
    for seat in mailed_seats(table):
        line = table.rules.describe(event, seat.seat, table.names)
        if seat.seat in skip or line is None:
            continue
        context = {"link": player_url(rt, table, seat.seat), "line": say(line)}
        mails.append(draft_mail(rt, table, MailKind.HOST_DECISION, seat.seat, context))
    return drafted(*mails)


def extend_deadline(
    rt: Runtime, session: Session, table: Table, seat: int, days: int
) -> tuple[Table, list[OutboxMail]]:
    """The host gives `seat` a fresh clock of `days` days for the move it owes (an event of the
    log): the seat is told its new deadline, the others what the host did."""
    now = rt.clock.now()
    table = settle(session, decided(session, table, extend_decision(seat, days), EventOrigin.HOST, now), now)
    clock = next((row for row in open_clocks(session, table.game_id) if row.seat == seat), None)
    if clock is None or clock.due_at is None:  # no time limit, or the seat-keeper plays the seat
        return table, host_decision_mails(rt, table)
    clock.timed_out_at = None  # out of time no more: its new deadline may time out again
    session.add(clock)
    return table, [
        *host_decision_mails(rt, table, skip=frozenset({seat})),
        *drafted(_extended_mail(rt, table, clock)),
    ]


def _extended_mail(rt: Runtime, table: Table, clock: TurnClock) -> OutboxMail | None:
    assert clock.due_at is not None
    link = {"link": player_url(rt, table, clock.seat)}
    return draft_mail(rt, table, MailKind.DEADLINE_EXTENDED, clock.seat, link, clock.due_at)


def forfeit(
    rt: Runtime, session: Session, table: Table, seat: int, origin: EventOrigin
) -> tuple[Table, list[OutboxMail]]:
    """The seat forfeits (by the game on a timeout, or by the host's decision): the forfeit is
    appended to the log, the game ends and the other side wins; everyone is told."""
    now = rt.clock.now()
    table = settle(session, decided(session, table, forfeit_decision(seat), origin, now), now)
    result = table.result
    assert result is not None
    winners = [table.names[w] for w in result["winners"]]
    mails = (
        draft_mail(
            rt,
            table,
            MailKind.FORFEIT,
            other.seat,
            {
                "link": player_url(rt, table, other.seat),
                "name": table.names[seat],
                "winners": winners,
                "by_host": origin == EventOrigin.HOST,
            },
        )
        for other in mailed_seats(table)
    )
    return table, drafted(*mails)
