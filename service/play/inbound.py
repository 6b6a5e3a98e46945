"""A move by reply: a mail received at a seat's reply address goes the way of a move posted from the
page (a pending command, the worker, the events), and its outcome is mailed back in the same thread.

Every inbound mail, from an SMTP or LMTP listener, an IMAP mailbox or the local outbox's reply box,
is handed to `receive_reply`. It is read once per Message-ID; a robot's mail (auto-reply, bounce,
list) is never answered, so two robots cannot loop; a forged address gets no answer at all; and every
answer goes to the seat's own address, never to whoever the From header names.
"""

from __future__ import annotations

import hashlib
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask_babel import force_locale
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from rules.base import N_, Message
from service.eventlog.models import EventRecord, InboundMail, InboundStatus, OutboxMail, SeatKeeper
from service.eventlog.store import GameNotFound, Table
from service.links import LinkError, ReplyLink, day_number
from service.localtime import as_utc
from service.mail.drafting import draft_mail, mail_language, new_message_id, player_url
from service.mail.intake import from_forged, headers_only, query_safe, unreadable
from service.mail.kinds import MailKind
from service.mail.replies import ReplyMail, read_reply_mail
from service.play.ahead import AheadRefused, set_queue
from service.play.moves import MoveStatus, submit_move
from service.play.reply_moves import AheadReading, read_ahead, read_move
from service.play.talk import TalkRefused, cleaned, say_at_table, talk_with_move
from service.runtime import Runtime

MAX_REPLIES_PER_HOUR = 20  # per seat: a person answers a few times, a runaway script does not


@dataclass(frozen=True)
class InboundOutcome:
    status: InboundStatus
    command_id: int | None = None


def receive_reply(rt: Runtime, raw: bytes, recipients: list[str] | None = None) -> InboundOutcome:
    """Read one received mail and act on it: a move submitted, or a refusal mailed to the seat, or
    nothing at all (a robot's mail, a forged address, the same mail again, over the seat's rate).
    A mail too large or too deeply nested to read is still recorded, and answered from its headers."""
    problem = unreadable(raw)
    mail = read_reply_mail(raw if problem is None else headers_only(raw), recipients)
    message_id = query_safe(mail.message_id) or f"<{hashlib.sha256(raw).hexdigest()}@inbound>"
    link = _verified_link(rt, mail)
    if mail.automatic or link is None:
        _record(rt, message_id, link, InboundStatus.IGNORED)
        return InboundOutcome(InboundStatus.IGNORED)
    claimed = _claim(rt, message_id, link)
    if claimed is None:  # this mail was read before
        return InboundOutcome(InboundStatus.IGNORED)
    if from_forged(raw, rt.settings["INBOUND_AUTHSERV_ID"]):
        problem = (
            N_(
                "A reply in your name failed your mail provider's sender checks, so it was not read. "
                "If you sent it, reply again from your usual mail program, or use your link."
            ),
            {},
        )
    try:
        outcome = _answer(rt, mail, message_id, link, problem)
    except BaseException:  # released, so that the sender's server may deliver it again
        _release(rt, claimed)
        raise
    _settle(rt, claimed, outcome)
    return outcome


def _verified_link(rt: Runtime, mail: ReplyMail) -> ReplyLink | None:
    """The reply link of the first reply address that verifies (a forged one is never answered)."""
    for token in mail.tokens:
        try:
            return rt.signer.read_reply(token)
        except LinkError:
            continue
    return None


def _claim(rt: Runtime, message_id: str, link: ReplyLink) -> int | None:
    """Record the mail as received (once per Message-ID); None if it was received before."""
    row = InboundMail(
        message_id=message_id,
        game_id=link.game_id,
        seat=link.seat,
        received_at=rt.clock.now(),
        status=InboundStatus.RECEIVED,
    )
    with Session(rt.engine, expire_on_commit=False) as session:
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            return None
    return row.id


def _record(rt: Runtime, message_id: str, link: ReplyLink | None, status: InboundStatus) -> None:
    """Keep an ignored mail's Message-ID, so a resend is not read either."""
    with Session(rt.engine) as session:
        session.add(
            InboundMail(
                message_id=message_id,
                game_id=link.game_id if link else None,
                seat=link.seat if link else None,
                received_at=rt.clock.now(),
                status=status,
            )
        )
        with suppress(IntegrityError):  # read before: already kept
            session.commit()


def _release(rt: Runtime, row_id: int) -> None:
    """Forget a mail whose reading failed midway (its effects are idempotent: a move is stored once
    per seat and step), so that it is read again when delivered again."""
    with suppress(Exception), Session(rt.engine) as session:  # the database may be what failed
        row = session.get(InboundMail, row_id)
        if row is not None and row.status == InboundStatus.RECEIVED:
            session.delete(row)
            session.commit()


def _settle(rt: Runtime, row_id: int, outcome: InboundOutcome) -> None:
    with Session(rt.engine) as session:
        row = session.get(InboundMail, row_id)
        assert row is not None
        row.status, row.command_id = outcome.status, outcome.command_id
        session.add(row)
        session.commit()


def _replies_last_hour(rt: Runtime, link: ReplyLink) -> int:
    since = rt.clock.now() - timedelta(hours=1)
    with Session(rt.engine) as session:
        query = select(func.count()).where(
            col(InboundMail.game_id) == link.game_id,
            col(InboundMail.seat) == link.seat,
            col(InboundMail.received_at) >= since,
        )
        return int(session.exec(query).one())


def _answer(
    rt: Runtime, mail: ReplyMail, message_id: str, link: ReplyLink, problem: Message | None = None
) -> InboundOutcome:
    """Check the reply against its seat and act on it; every answer is mailed to the seat. A
    `problem` (too large to read, its From found forged) refuses it once it is known to be the
    seat's."""
    if _replies_last_hour(rt, link) > MAX_REPLIES_PER_HOUR:
        return InboundOutcome(InboundStatus.LIMITED)
    try:
        table = rt.read_table(link.game_id)
    except GameNotFound:
        return InboundOutcome(InboundStatus.IGNORED)
    if not 0 <= link.seat < len(table.seats) or table.seats[link.seat].keeper == SeatKeeper.BOT:
        return InboundOutcome(InboundStatus.IGNORED)
    seat = table.seats[link.seat]
    if seat.key_version != link.key_version:
        replaced = N_(
            "This reply address was replaced by a newer one, so the reply was not read. "
            "Reply to the latest mail, or use your link."
        )
        return _refuse(rt, link, message_id, (replaced, {}), with_choices=False)
    if _expired(rt, link):
        expired = N_(
            "This reply address is more than %(days)s days old, so the reply was not read. "
            "Reply to the latest mail about the game, or use your link."
        )
        days = rt.settings["REPLY_ADDRESS_MAX_AGE_DAYS"]
        return _refuse(rt, link, message_id, (expired, {"days": days}), with_choices=False)
    if mail.sender != seat.email.strip().lower() and not table.record.replies_from_any:
        # The stranger's address is not repeated: whoever sent it chose what it says.
        stranger = N_(
            "A reply came from another address than this seat's, so it was not read. Reply from %(email)s."
        )
        return _refuse(rt, link, message_id, (stranger, {"email": seat.email}), with_choices=False)
    if problem is not None:
        return _refuse(rt, link, message_id, problem, with_choices=False)
    ahead = read_ahead(table, link.seat, mail.text)
    if ahead.plays or ahead.unread:
        return _choose_ahead(rt, link, message_id, ahead)
    reading = read_move(table, link.seat, mail.text)
    if reading.action is None and link.seat not in table.rules.to_act(table.state) and mail.text.strip():
        return _talk(rt, link, message_id, mail.text)
    if reading.action is None:
        several = N_("Your reply names more than one of your legal moves.")
        none = N_("No legal move was found in your reply.")
        return _refuse(rt, link, message_id, (several if reading.matches > 1 else none, {}))
    outcome = submit_move(rt, link.game_id, link.seat, link.seq, reading.action)
    moved = outcome.status in (MoveStatus.ACCEPTED, MoveStatus.PENDING)
    with suppress(TalkRefused):  # the move stands whatever its words to the table
        talk_with_move(rt, link.game_id, link.seat, outcome.status, cleaned(after_first_line(mail.text)))
    said = outcome.message or (N_("The move was refused."), {})
    _mail_outcome(rt, link, message_id, said, with_choices=not moved)
    status = InboundStatus.MOVED if outcome.command_id is not None else InboundStatus.REFUSED
    return InboundOutcome(status, outcome.command_id)


def _expired(rt: Runtime, link: ReplyLink) -> bool:
    """Whether the reply address is older than REPLY_ADDRESS_MAX_AGE_DAYS; an address made before
    they carried their day is as old as the step of the game its mail told of."""
    today = day_number(rt.clock.now())
    issued = link.issued_day if link.issued_day is not None else _day_of_step(rt, link)
    return issued is not None and today - issued > rt.settings["REPLY_ADDRESS_MAX_AGE_DAYS"]


def _day_of_step(rt: Runtime, link: ReplyLink) -> int | None:
    with Session(rt.engine) as session:
        query = select(EventRecord.created_at).where(
            col(EventRecord.game_id) == link.game_id, col(EventRecord.seq) == link.seq
        )
        made = session.exec(query).first()
    return None if made is None else day_number(as_utc(made))


def _choose_ahead(rt: Runtime, link: ReplyLink, message_id: str, ahead: AheadReading) -> InboundOutcome:
    """A reply choosing plays ahead: stored as the seat's whole queue, or refused with the reason
    (nothing stored) when a line cannot be read or the rules refuse a play."""
    if ahead.unread:
        unread = N_("No play you may choose ahead was found in: %(lines)s")
        return _refuse(rt, link, message_id, (unread, {"lines": " / ".join(ahead.unread)}), False)
    try:
        set_queue(rt, link.game_id, link.seat, ahead.plays)
    except AheadRefused as refusal:
        return _refuse(rt, link, message_id, refusal.message, with_choices=False)
    _mail_outcome(rt, link, message_id, (N_("Your plays chosen ahead are saved."), {}), False)
    return InboundOutcome(InboundStatus.AHEAD)


def after_first_line(text: str) -> str:
    """A reply's text after the line naming its move: its words to the table ("" if none)."""
    lines = text.strip().splitlines()
    return "\n".join(lines[1:]).strip()


def _talk(rt: Runtime, link: ReplyLink, message_id: str, text: str) -> InboundOutcome:
    """A reply from a seat that owes no move: its text is said to the table."""
    try:
        say_at_table(rt, link.game_id, link.seat, text)
    except TalkRefused as refusal:
        return _refuse(rt, link, message_id, refusal.message, with_choices=False)
    _mail_outcome(rt, link, message_id, (N_("Your message was added to the table talk."), {}), False)
    return InboundOutcome(InboundStatus.TALKED)


def _refuse(
    rt: Runtime, link: ReplyLink, message_id: str, reason: Message, with_choices: bool = True
) -> InboundOutcome:
    _mail_outcome(rt, link, message_id, reason, with_choices)
    return InboundOutcome(InboundStatus.REFUSED)


def _mail_outcome(rt: Runtime, link: ReplyLink, message_id: str, said: Message, with_choices: bool) -> None:
    """The answer to a reply, to the seat's own address, in the thread of the reply it answers, with
    the seat's legal moves now as a reply may write them (when it owes one and the answer refuses)."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        choices: list[str] = []
        if with_choices and link.seat in table.rules.to_act(table.state):
            with force_locale(mail_language(table, link.seat)):
                choices = read_move(table, link.seat, "").choices
        context: dict[str, Any] = {
            "outcome": said,
            "choices": choices,
            "link": player_url(rt, table, link.seat),
        }
        mail = draft_mail(rt, table, MailKind.REPLY_OUTCOME, link.seat, context)
        if mail is None:
            return None, []
        mail.thread_id = message_id  # In-Reply-To: the player's own mail
        mail.message_id = new_message_id(rt, table.game_id)
        return None, [mail]

    rt.in_game(link.game_id, change)
