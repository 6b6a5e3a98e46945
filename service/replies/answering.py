"""A move by reply: a mail received at a seat's reply address goes the way of a move posted from the
page (a pending command, the worker, the events), and its outcome is mailed back in the same thread.

Every inbound mail, from an SMTP or LMTP listener, an IMAP mailbox or the local outbox's reply box,
is handed to `receive_reply`. It is read once per Message-ID; a robot's mail (auto-reply, bounce,
list) is never answered, so two robots cannot loop; a forged address gets no answer at all; and every
answer goes to the seat's own address, never to whoever the From header names.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta
from difflib import SequenceMatcher
from typing import Any

from flask_babel import force_locale
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from rules.messages import N_, Message
from service.eventlog.models import EventRecord, InboundMail, InboundStatus, OutboxMail, SeatKeeper, TableTalk
from service.eventlog.store import GameNotFound, Table
from service.links import LinkError, ReplyLink, day_number
from service.localtime import as_utc
from service.mail.drafting import draft_mail, mail_language, new_message_id, player_url
from service.mail.kinds import MailKind
from service.play.ahead import AheadRefused, set_queue
from service.play.moves import MoveStatus, submit_move
from service.play.table_talk import TalkRefused, Word, cleaned, say_at_table
from service.replies.intake import (
    claimed,
    from_forged,
    headers_only,
    query_safe,
    released,
    settled,
    unreadable,
)
from service.replies.move_reader import (
    AheadReading,
    ReplyReading,
    move_in_words,
    read_ahead,
    read_move,
    read_reply,
    reads_as_own_move,
)
from service.replies.reply_text import ReplyMail, read_reply_mail
from service.runtime import Runtime

NEAR_REPEAT = 0.9  # how alike two messages are (difflib's ratio) to be the same said again
REPEAT_LENGTH = 20  # characters: a shorter message said again is a person's, not a robot's
SENT_LINES_MAILS = 20  # our latest mails to a seat whose lines a reply may quote unmarked
QUOTED_RUN = 3  # lines of our mail in a row that are a quote of it, not a line copied on purpose


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
        released(rt.engine, claimed)
        raise
    settled(rt.engine, claimed, outcome.status, outcome.command_id)
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
    return claimed(rt.engine, row)


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
    if _replies_last_hour(rt, link) > rt.settings["REPLIES_PER_SEAT_HOUR"]:  # a runaway script
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
            "This reply address is too old to be read, so the reply was not read. "
            "Reply to the latest mail about the game, or use your link."
        )
        return _refuse(rt, link, message_id, (expired, {}), with_choices=False)
    if mail.sender != seat.email.strip().lower() and not table.record.replies_from_any:
        # The stranger's address is not repeated: whoever sent it chose what it says.
        stranger = N_(
            "A reply came from another address than this seat's, so it was not read. Reply from %(email)s."
        )
        return _refuse(rt, link, message_id, (stranger, {"email": seat.email}), with_choices=False)
    if problem is not None:
        return _refuse(rt, link, message_id, problem, with_choices=False)
    text = _without_our_lines(rt, table.game_id, link.seat, mail.text)
    ahead = read_ahead(table, link.seat, text)
    if ahead.plays or ahead.unread:
        return _choose_ahead(rt, link, message_id, ahead)
    reading = read_reply(table, link.seat, text)
    if reading.action is None and reading.matches > 1:
        several = N_("Your reply names more than one of your legal moves.")
        return _refuse(rt, link, message_id, (several, {}))
    if reading.action is None and mail.out_of_office:  # an auto-responder: never posted, never answered
        return InboundOutcome(InboundStatus.IGNORED)
    if reading.action is None and not reading.talk:
        return _refuse(rt, link, message_id, (N_("No legal move was found in your reply."), {}))
    if reading.action is None:
        return _talk(rt, link, message_id, table, reading.talk)
    return _move(rt, link, message_id, table, reading)


def _move(
    rt: Runtime, link: ReplyLink, message_id: str, table: Table, reading: ReplyReading
) -> InboundOutcome:
    """Submit the move a reply names, keep its other lines as talk once the move is taken, and answer
    naming the move and quoting the talk kept."""
    assert reading.action is not None
    said_talk = _talk_of_reply(table, link.seat, reading.talk)
    outcome = submit_move(rt, link.game_id, link.seat, link.seq, reading.action, word=said_talk)
    moved = outcome.status in (MoveStatus.ACCEPTED, MoveStatus.PENDING)
    kept = said_talk if moved else None
    said = outcome.message or (N_("The move was refused."), {})
    played = reading.action if moved else None
    _mail_outcome(rt, link, message_id, said, with_choices=not moved, played=played, talk=kept)
    stored = outcome.command_id is not None and outcome.status != MoveStatus.EARLIER_PENDING
    status = InboundStatus.MOVED if stored else InboundStatus.REFUSED
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


def _talk_of_reply(table: Table, seat: int, text: str) -> Word | None:
    """A reply's words as talk, secrets cut (by the talk itself); kept private when they read as a
    move of the seat (a card it holds or played: a repeated reply must not show a face-down card).
    None when nothing is left."""
    try:
        words = cleaned(text)
    except TalkRefused:
        return None
    return Word(words, private=reads_as_own_move(table, seat, words))


def _without_our_lines(rt: Runtime, game_id: str, seat: int, text: str) -> str:
    """A reply's text without a run of lines from our own recent mails to the seat (see
    `without_lines_sent`)."""
    return without_lines_sent(text, _lines_we_sent(rt, game_id, seat))


def without_lines_sent(text: str, sent: set[str]) -> str:
    """A reply's text without a run of lines from our mails (`sent`, by `sent_lines`): a quote
    without marks or header (a hand listed in it is neither a move nor talk). A line or two copied
    from our mail stay: a mail's example of a reply ("Opening lead: Star 9 Blue") is meant to be
    sent back."""
    kept: list[str] = []
    run: list[str] = []  # our mail's lines (and blank ones) read in a row
    for line in text.splitlines():
        if not line.strip() or _line_key(line) in sent:
            run.append(line)
            continue
        kept += _unless_quoted(run)
        run = []
        kept.append(line)
    kept += _unless_quoted(run)
    return re.sub(r"\n\s*\n(\s*\n)+", "\n\n", "\n".join(kept)).strip()


def _unless_quoted(run: list[str]) -> list[str]:
    """A run of our mail's lines: none when it is a quote, all when copied on purpose."""
    return run if len([line for line in run if line.strip()]) < QUOTED_RUN else []


def _line_key(line: str) -> str:
    return " ".join(line.split()).lower()


def _lines_we_sent(rt: Runtime, game_id: str, seat: int) -> set[str]:
    """The lines of our recent mails to the seat: a reply quoting one without "> " marks quotes these."""
    with Session(rt.engine) as session:
        bodies = session.exec(
            select(OutboxMail.text_body)
            .where(col(OutboxMail.game_id) == game_id, col(OutboxMail.seat) == seat)
            .order_by(col(OutboxMail.id).desc())
            .limit(SENT_LINES_MAILS)
        ).all()
    return sent_lines(bodies)


def sent_lines(bodies: Sequence[str]) -> set[str]:
    """The lines of these mails of ours (longer than a word or two), as `without_lines_sent` knows them."""
    return {key for body in bodies for key in map(_line_key, body.splitlines()) if len(key) >= 8}


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


def _talk(rt: Runtime, link: ReplyLink, message_id: str, table: Table, text: str) -> InboundOutcome:
    """A reply that names no move: its words go to the table (whether or not the seat owes a move,
    and then the answer says the table still waits), unless they repeat the seat's last words (an
    auto-responder: held back, unanswered), or read as a move (kept private to the writer)."""
    said = _talk_of_reply(table, link.seat, text)
    if said is None:
        return _refuse(rt, link, message_id, (N_("No legal move was found in your reply."), {}))
    if _repeats_recent_talk(rt, link, said.text):
        return InboundOutcome(InboundStatus.IGNORED)
    try:
        say_at_table(rt, link.game_id, link.seat, said.text, private=said.private)
    except TalkRefused as refusal:
        return _refuse(rt, link, message_id, refusal.message, with_choices=False)
    owes = link.seat in table.rules.to_act(table.state)
    if owes:
        told = N_("No move was read in your reply, so the table still waits for yours.")
    elif said.private:
        told = N_("Your reply reads as a move, so its words were kept as a note only you see.")
    else:
        told = N_("Your message was added to the table talk.")
    _mail_outcome(rt, link, message_id, (told, {}), with_choices=owes, talk=said)
    return InboundOutcome(InboundStatus.TALKED)


def _repeats_recent_talk(rt: Runtime, link: ReplyLink, text: str) -> bool:
    """Whether the seat said nearly the same in the last day (the first is enough)."""
    since = rt.clock.now() - timedelta(days=1)
    with Session(rt.engine) as session:
        recent = session.exec(
            select(TableTalk.text).where(
                col(TableTalk.game_id) == link.game_id,
                col(TableTalk.seat) == link.seat,
                col(TableTalk.created_at) >= since,
            )
        ).all()
    key = _line_key(text)
    if len(key) < REPEAT_LENGTH:
        return False  # "ok" twice is a person
    return any(SequenceMatcher(None, key, _line_key(old)).ratio() >= NEAR_REPEAT for old in recent)


def _refuse(
    rt: Runtime, link: ReplyLink, message_id: str, reason: Message, with_choices: bool = True
) -> InboundOutcome:
    _mail_outcome(rt, link, message_id, reason, with_choices)
    return InboundOutcome(InboundStatus.REFUSED)


def _mail_outcome(
    rt: Runtime,
    link: ReplyLink,
    message_id: str,
    said: Message,
    with_choices: bool,
    played: dict[str, Any] | None = None,
    talk: Word | None = None,
) -> None:
    """The answer to a reply, to the seat's own address, in the thread of the reply it answers, with
    the seat's legal moves now as a reply may write them (when it owes one and the answer refuses),
    the move played in the reader's words, and the talk kept, quoted."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        choices: list[str] = []
        notes: list[Message] = []
        with force_locale(mail_language(table, link.seat)):
            if with_choices and link.seat in table.rules.to_act(table.state):
                choices = read_move(table, link.seat, "").choices
            if played is not None:
                notes.append((N_("Played: %(move)s"), {"move": move_in_words(table, link.seat, played)}))
        if talk is not None:
            private = N_("Kept as a note only you see: “%(talk)s”")
            public = N_("Said to the table: “%(talk)s”")
            notes.append((private if talk.private else public, {"talk": talk.text}))
        context: dict[str, Any] = {
            "outcome": said,
            "notes": notes,
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
