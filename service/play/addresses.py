"""A seat's address corrected (by the host, or by the player from their page when mail to them does
not arrive): the player keeps their seat, the seat's old links stop working (a link mailed to a
wrong address may be in someone else's hands) and a new one is mailed to the new address. The seat
is reachable again: its bounce records were about the old address and link version. The host's own
address is corrected the same way, from the host page."""

from __future__ import annotations

from sqlmodel import Session

from rules.messages import N_, IllegalAction
from service.eventlog.models import OutboxMail, SeatKeeper
from service.eventlog.store import Table
from service.mail.drafting import draft_mail, drafted, host_url, player_url
from service.mail.kinds import MailKind
from service.runtime import Runtime


def correct_address(rt: Runtime, game_id: str, seat: int, email: str) -> None:
    """Give a seat a new address and mail its new link there; IllegalAction if there is no such
    seat, or the seat-keeper's (it has no address)."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        if not 0 <= seat < len(table.seats):
            raise IllegalAction(N_("This game has no such seat."))
        record = table.seats[seat]
        if record.keeper == SeatKeeper.BOT:
            raise IllegalAction(N_("This seat is played by the seat-keeper: it has no link."))
        record.email = email.strip()
        record.key_version += 1  # the table's seat row itself: its links are signed anew
        record.unreachable_at, record.unreachable_reason = None, ""
        session.add(record)
        link = {"link": player_url(rt, table, seat)}
        return None, drafted(draft_mail(rt, table, MailKind.LINK_REISSUED, seat, link))

    rt.in_game(game_id, change)


def correct_host_address(rt: Runtime, game_id: str, email: str) -> None:
    """Give the host a new address (mail to theirs did not arrive) and mail a new link to the host
    page there: the old host links stop working, as when the host replaces their link."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        record = table.record
        record.host_email = email.strip()
        record.host_key_version += 1  # the table's game row: its host links are signed anew
        record.host_unreachable_at, record.host_unreachable_reason = None, ""
        session.add(record)
        link = {"link": host_url(rt, table)}
        return None, drafted(draft_mail(rt, table, MailKind.HOST_LINK_REISSUED, None, link))

    rt.in_game(game_id, change)
