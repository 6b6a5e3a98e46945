"""The decisions of the game or its host that end a game or give a seat more time, carried out with
their mails: a forfeit (on a timeout, or declared by the host), more time for an owed move, and the
host's decisions told to the players in words."""

from __future__ import annotations

from rules.table import extend_decision, forfeit_decision
from service.eventlog.models import EventOrigin, OutboxMail, TurnClock
from service.eventlog.store import Table
from service.i18n import say
from service.mail.drafting import draft_mail, drafted, mailed_seats, player_url
from service.mail.kinds import MailKind
from service.play.clocks import open_clocks
from service.play.master import Master
from service.runtime import Runtime


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


def extend_deadline(master: Master, seat: int, days: int) -> None:
    """The host gives `seat` a fresh clock of `days` days for the move it owes (an event of the
    log): the seat is told its new deadline, the others what the host did."""
    master.decide(extend_decision(seat, days), EventOrigin.HOST)
    rt, table = master.rt, master.settle()
    clock = next((row for row in open_clocks(master.session, table.game_id) if row.seat == seat), None)
    if clock is None or clock.due_at is None:  # no time limit, or the seat-keeper plays the seat
        master.tell(host_decision_mails(rt, table))
        return
    clock.timed_out_at = None  # out of time no more: its new deadline may time out again
    master.session.add(clock)
    master.tell(
        [*host_decision_mails(rt, table, skip=frozenset({seat})), *drafted(_extended_mail(rt, table, clock))]
    )


def _extended_mail(rt: Runtime, table: Table, clock: TurnClock) -> OutboxMail | None:
    assert clock.due_at is not None
    link = {"link": player_url(rt, table, clock.seat)}
    return draft_mail(rt, table, MailKind.DEADLINE_EXTENDED, clock.seat, link, clock.due_at)


def forfeit(master: Master, seat: int, origin: EventOrigin) -> None:
    """The seat forfeits (by the game on a timeout, or by the host's decision): the forfeit is
    appended to the log, the game ends and the other side wins; everyone is told."""
    master.decide(forfeit_decision(seat), origin)
    rt, table = master.rt, master.settle()
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
    master.tell(drafted(*mails))
