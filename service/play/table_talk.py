"""Table talk: a seat's short messages to the table, each kept with the step of the game it was
written at, so that "nice trick!" still makes sense a week later.

Ruling: there are no private messages between seats during play (Duālis partners must not signal
their hands); a message is public to every seat and onlooker, or a private note to oneself that
nobody else is shown. Messages are append-only: nobody edits or deletes one; the host may hide an
abusive one, which leaves its trace.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, col, func, select

from rules.messages import N_, Message
from service.eventlog.models import OutboxMail, TableTalk
from service.eventlog.store import Table
from service.mail.own_secrets import CUT, without_secrets
from service.runtime import Runtime

MAX_TALK = 500  # characters: a remark, not a letter
MAX_TALK_PER_HOUR = 30  # per seat
# Control and invisible characters (bidirectional overrides included); a newline stays.
UNSEEN = re.compile(r"[\x00-\x09\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


class TalkRefused(ValueError):
    """A message that cannot be kept; `message` says why, for the writer."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid)
        self.message: Message = (msgid, dict(params))


def cleaned(text: object) -> str:
    """A message as kept: normalised, control and invisible characters dropped, trimmed; TalkRefused
    when nothing is left or it is too long."""
    if not isinstance(text, str):
        raise TalkRefused(N_("A message is text."))
    kept = UNSEEN.sub("", unicodedata.normalize("NFC", text.replace("\r\n", "\n"))).strip()
    if not kept:
        raise TalkRefused(N_("Write a message first."))
    if len(kept) > MAX_TALK:
        raise TalkRefused(N_("A message has at most %(most)s characters."), most=MAX_TALK)
    return kept


@dataclass(frozen=True)
class Word:
    """Words to the table as they will be kept (cleaned), and whether only their writer sees them."""

    text: str
    private: bool = False


def add_talk(session: Session, table: Table, seat: int, text: str, private: bool, rt: Runtime) -> None:
    """Keep a seat's message at the game's current step, in the caller's transaction (flushed, so the
    mails drafted in it read it). TalkRefused over the seat's hourly rate, or when nothing is left
    once the service's own links and addresses are cut from it."""
    text, private = guarded(rt, text, private)
    now = rt.clock.now()
    recent = session.exec(
        select(func.count()).where(
            col(TableTalk.game_id) == table.game_id,
            col(TableTalk.seat) == seat,
            col(TableTalk.created_at) > now - timedelta(hours=1),
        )
    ).one()
    if recent >= MAX_TALK_PER_HOUR:
        raise TalkRefused(N_("That is many messages for an hour; wait a while before the next."))
    session.add(
        TableTalk(
            game_id=table.game_id, seat=seat, step=table.version, text=text, private=private, created_at=now
        )
    )
    session.flush()


def keep_word(session: Session, table: Table, seat: int, word: Word, rt: Runtime) -> bool:
    """Keep the words sent with a move at the move's step (`table`: the game just after it), in the
    move's transaction, so the mails it causes carry them; False when they cannot be kept (the move
    stands whatever its words to the table)."""
    try:
        add_talk(session, table, seat, word.text, word.private, rt)
    except TalkRefused:
        return False
    return True


def guarded(rt: Runtime, text: str, private: bool) -> tuple[str, bool]:
    """A message as it may be kept: the service's own secrets (signed links, reply addresses) cut,
    whoever wrote them and however (a quoted mail, a paste); private to its writer if what is left
    might still hold part of one. TalkRefused when nothing else is left."""
    checked = without_secrets(text, rt.settings["BASE_URL"], rt.signer.signs)
    if checked.found and not checked.text.replace(CUT, "").strip():
        raise TalkRefused(N_("A message may not hold your game's private links or reply addresses."))
    return checked.text, private or checked.doubtful


def say_at_table(rt: Runtime, game_id: str, seat: int, text: object, private: bool = False) -> None:
    """A seat says something without moving (TalkRefused for a bad message)."""
    kept = cleaned(text)

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        add_talk(session, table, seat, kept, private, rt)
        return None, []

    rt.in_game(game_id, change)


def hide_talk(rt: Runtime, game_id: str, talk_id: int) -> bool:
    """The host hides a message (its trace stays); False if the game has no such message."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        row = session.get(TableTalk, talk_id)
        if row is None or row.game_id != game_id:
            return False, []
        row.hidden_at = row.hidden_at or rt.clock.now()
        session.add(row)
        return True, []

    return rt.in_game(game_id, change)
