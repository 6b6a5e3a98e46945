"""Club talk by reply: a member's reply to a club mail (a season's start, the weekly digest), sent to
the reply address signed for them (`play+<token>@MAIL_DOMAIN`, made by `readers.club_reply_address`),
goes to the club's talk, its text read as a seat's reply is (quoted history, signature, our footer
and an unmarked quote of our mails dropped) and kept as talk from the page is (cleaned, guarded,
rated).

Nothing here is ever answered, so no mail loop can start and no stranger is mailed: a robot's mail,
a From the mail exchanger found forged, an address too old, a sender who is not that member (or no
longer one), a mail with no words left, or words the talk refuses, are logged, counted (an inbound
row "ignored") and change nothing. Good words are not answered either: they show on the club's page
and in the next weekly digest, as table talk shows on the table and in its next mail."""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from sqlmodel import Session, col, func, select

from service.clubs.club_talk import say_to_club
from service.clubs.log import Club, ClubNotFound, ClubRefused, Member, Standing, read_club
from service.eventlog.models import InboundMail, InboundStatus, OutboxMail
from service.links import ClubReplyLink, LinkError, day_number
from service.replies.answering import SENT_LINES_MAILS, sent_lines, without_lines_sent
from service.replies.intake import (
    claimed,
    from_forged,
    headers_only,
    query_safe,
    released,
    settled,
    unreadable,
)
from service.replies.reply_text import ReplyMail, read_reply_mail, reply_tokens
from service.runtime import Runtime

log = logging.getLogger(__name__)
# Club replies dropped by this process, by reason (each also kept as an inbound row "ignored",
# except the same mail delivered again, which has its row already).
DROPPED: Counter[str] = Counter()


@dataclass(frozen=True)
class ClubReplyOutcome:
    status: InboundStatus  # TALKED, or IGNORED
    why: str = ""  # why it was dropped


def club_reply_link(rt: Runtime, addresses: list[str]) -> ClubReplyLink | None:
    """The link of the first club reply address among `addresses` whose signature verifies (its age
    is read later), or None: the listener hands such a mail here, any other to the seats' replies."""
    return _verified(rt, reply_tokens(addresses))


def _verified(rt: Runtime, tokens: Sequence[str]) -> ClubReplyLink | None:
    for token in tokens:
        with suppress(LinkError):
            return rt.signer.read_club_reply(token)
    return None


def receive_club_reply(rt: Runtime, raw: bytes, recipients: list[str]) -> ClubReplyOutcome:
    """Read one mail at a club reply address, once per Message-ID: its words said to the club, or
    dropped with the reason; never answered."""
    problem = unreadable(raw)
    mail = read_reply_mail(raw if problem is None else headers_only(raw), recipients)
    message_id = query_safe(mail.message_id) or f"<{hashlib.sha256(raw).hexdigest()}@inbound>"
    row = InboundMail(message_id=message_id, received_at=rt.clock.now(), status=InboundStatus.RECEIVED)
    row_id = claimed(rt.engine, row)
    if row_id is None:
        return _dropped(message_id, "the same mail again")
    try:
        why = _said(rt, raw, mail, readable=problem is None)
    except BaseException:  # released, so that the sender's server may deliver it again
        released(rt.engine, row_id)
        raise
    settled(rt.engine, row_id, InboundStatus.IGNORED if why else InboundStatus.TALKED)
    return _dropped(message_id, why) if why else ClubReplyOutcome(InboundStatus.TALKED)


def _said(rt: Runtime, raw: bytes, mail: ReplyMail, readable: bool) -> str:
    """Say the reply's words to the club; "" once said, else why not (and nothing changed)."""
    link = _verified(rt, mail.tokens)
    if link is None:
        return "forged"
    if day_number(rt.clock.now()) - link.issued_day > rt.settings["REPLY_ADDRESS_MAX_AGE_DAYS"]:
        return "expired"
    if mail.automatic or mail.out_of_office:
        return "sent by a robot"
    if not readable:
        return "too large or too deeply nested to read"
    if from_forged(raw, rt.settings["INBOUND_AUTHSERV_ID"]):
        return "its From failed the sender checks"
    try:
        club = read_club(rt, link.club_id)
    except ClubNotFound:
        return "no such club"
    member = club.members[link.member] if link.member < len(club.members) else None
    if member is None or member.standing != Standing.MEMBER:
        return "not a member of the club"
    if mail.sender != member.email:
        return "from another address than the member's"
    text = without_lines_sent(mail.text, _lines_we_sent(rt, club, member))
    if not text:
        return "no words"
    try:
        say_to_club(rt, club.club_id, member.email, text)
    except ClubRefused as refusal:
        return f"refused: {refusal.message[0]}"
    return ""


def _lines_we_sent(rt: Runtime, club: Club, member: Member) -> set[str]:
    """The lines of the club's recent mails to the member, which a reply may quote without marks."""
    with Session(rt.engine) as session:
        bodies = session.exec(
            select(OutboxMail.text_body)
            .where(
                col(OutboxMail.thread_id) == f"<club.{club.club_id}@{rt.settings['MAIL_DOMAIN']}>",
                func.lower(OutboxMail.to_email) == member.email,
            )
            .order_by(col(OutboxMail.id).desc())
            .limit(SENT_LINES_MAILS)
        ).all()
    return sent_lines(bodies)


def _dropped(message_id: str, why: str) -> ClubReplyOutcome:
    DROPPED[why] += 1
    log.warning("club reply %s dropped: %s", message_id, why)
    return ClubReplyOutcome(InboundStatus.IGNORED, why)
