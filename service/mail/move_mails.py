"""The mails a move causes, written in the move's transaction without their bodies: each row holds
its headers and the facts its bodies are drafted from (`MailFacts`: the game's version, the
reader's deadline, what became of their plays chosen ahead). The worker that sends the row drafts
them after the commit (`drafted_rows`), from the game's table at that version, in the reader's
language, and stores them in the transaction that leases the row: the move's transaction (and the
game's lock) holds only what must be atomic, and drafting, most of a move's work, is the mailer's.
A row kept in the local outbox (no SMTP) is drafted by the same task. A worker lost before drafting
leaves a row the sweep queues again, as it does an unsent one: nothing is lost.

Which rows are written, for whom and of which kind, is decided in the transaction, as before, by
the readers' settings (`drafting.wants_mail`); only the words wait.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import force_locale
from sqlalchemy import bindparam, update
from sqlmodel import Session, col, select

from rules.messages import Message, stored_message
from service.catalog import entry
from service.eventlog.models import EventOrigin, OutboxMail, SeatKeeper
from service.eventlog.store import Table
from service.mail.drafting import (
    drafted,
    drafted_bodies,
    due_before_digest,
    host_url,
    hosts,
    mail_language,
    mailed_seats,
    player_url,
    replay_url,
    undrafted_mail,
    wants_mail,
)
from service.mail.kinds import MailKind
from service.runtime import Runtime


@dataclass(frozen=True)
class MailFacts:
    """What a move's mail is drafted from besides the game: the game's version it is about, the
    reader's deadline (a "your move" in a timed game) and what became of their plays chosen ahead."""

    version: int
    due: datetime | None = None
    ahead: tuple[Message, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "due": self.due.isoformat() if self.due else None,
            "ahead": [list(message) for message in self.ahead],
        }

    @classmethod
    def of_json(cls, value: Mapping[str, Any]) -> MailFacts:
        due = datetime.fromisoformat(value["due"]) if value.get("due") else None
        ahead = tuple(stored_message(message) for message in value.get("ahead", ()))
        return cls(value["version"], due, ahead)


def mails_after_move(
    rt: Runtime,
    before: Table,
    after: Table,
    dues: Mapping[int, datetime],
    ahead: Mapping[int, Sequence[Message]] | None = None,
) -> list[OutboxMail]:
    """The mails that the moves from `before` to `after` cause, at most one per person, undrafted:
    game over to everyone; else "your move" (with its deadline in a timed game: `dues`, by seat) to
    each seat that now owes a move and did not already (or that moved meanwhile), "played for you"
    to a seat auto-play moved for, and a report to everyone when the game's report events happened
    (or when `ahead` tells the seat what became of its plays chosen ahead). A seat the seat-keeper
    plays for is never asked to move."""
    if after.result is not None:
        return game_over_mails(rt, after)
    new = range(before.version, after.version)
    auto_played = {after.actors[i] for i in new if after.origins[i] == EventOrigin.AUTO}
    owing = newly_owing(before, after)
    reported = bool({after.events[i]["type"] for i in new} & entry(after.record.game).report_events)
    mails: list[OutboxMail | None] = []
    for seat in mailed_seats(after):
        told = tuple((ahead or {}).get(seat.seat, ()))
        if seat.seat in owing and seat.keeper == SeatKeeper.PLAYER:
            kind = MailKind.YOUR_TURN
        elif seat.seat in auto_played:
            kind = MailKind.AUTO_PLAYED
        elif reported or told:
            kind = MailKind.REPORT
        else:
            continue
        due = dues.get(seat.seat) if kind == MailKind.YOUR_TURN else None
        mails.append(undrafted(rt, after, kind, seat.seat, MailFacts(after.version, due, told)))
    return drafted(*mails)


def newly_owing(before: Table, after: Table) -> set[int]:
    """The seats that owe a move after the moves from `before` to `after` and did not before (or
    that moved meanwhile): each is asked for it once."""
    moved = {after.actors[i] for i in range(before.version, after.version)}
    waiting_before = before.rules.to_act(before.state)
    return {s for s in after.rules.to_act(after.state) if s not in waiting_before or s in moved}


def game_over_mails(rt: Runtime, table: Table) -> list[OutboxMail]:
    """Game over to every player (with their replay) and to a host who does not play (with the host
    page and the game's history), undrafted."""
    facts = MailFacts(table.version)
    players = mailed_seats(table)
    readers: list[int | None] = [seat.seat for seat in players]
    if not any(hosts(table, seat.seat) for seat in players):
        readers.append(None)
    return drafted(*(undrafted(rt, table, MailKind.GAME_OVER, reader, facts) for reader in readers))


def undrafted(
    rt: Runtime, table: Table, kind: MailKind, seat: int | None, facts: MailFacts
) -> OutboxMail | None:
    """A move's mail to a seat (or the host) as its row is written in the move's transaction: its
    headers and its facts, no bodies; None when the reader's settings turn this kind off."""
    if not wants_mail(table, seat, kind, due_before_digest(rt, table, seat, facts.due)):
        return None
    language = mail_language(table, seat)
    with force_locale(language):
        mail = undrafted_mail(rt, table, kind, seat, language)
    mail.draft = facts.as_json()
    return mail


# --------------------------------------------------------------------------- drafted when sent


def drafted_rows(rt: Runtime, mail_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The bodies of the rows among `mail_ids` that wait for theirs, drafted now, as `store_drafts`
    stores them (the worker that sends a batch drafts it before leasing it; a row kept in the local
    outbox, never sent, is drafted by the same task)."""
    waiting = rt.read_riding_out(  # on the task's one connection for reads
        lambda session: session.exec(_UNDRAFTED, params={"mail_ids": list(mail_ids)}).all()
    )
    games = {game_id: rt.read_table(game_id) for game_id in {mail.game_id for mail in waiting} if game_id}
    return [drafted_row(rt, games[str(mail.game_id)], mail) for mail in waiting]


def drafted_row(rt: Runtime, game: Table, mail: OutboxMail) -> dict[str, Any]:
    """A written row's bodies drafted from its facts and its game (as read now: at their version)."""
    assert mail.draft is not None
    facts = MailFacts.of_json(mail.draft)
    table = game.at(facts.version)
    context = move_mail_context(rt, table, mail, facts)
    with force_locale(mail.language):
        text_body, html_body = drafted_bodies(rt, table, mail, context, facts.due)
    return {"mail_id": mail.id, "text_body": text_body, "html_body": html_body}


def store_drafts(session: Session, drafts: Sequence[dict[str, Any]]) -> None:
    """In `session`'s transaction, the bodies drafted (`drafted_rows`) stored with their rows, but
    not over those another worker stored first (a row is drafted once)."""
    if drafts:
        session.connection().execute(_STORE_DRAFT, list(drafts))


def move_mail_context(rt: Runtime, table: Table, mail: OutboxMail, facts: MailFacts) -> dict[str, Any]:
    """The values of a move's mail besides the game's (`drafting.drafted_bodies`): the reader's
    link, and for game over the replay and the winners (a host who does not play gets the host page
    and the game's history)."""
    if mail.kind != MailKind.GAME_OVER:
        assert mail.seat is not None
        return {"link": player_url(rt, table, mail.seat), "ahead": facts.ahead}
    assert table.result is not None, "game over is drafted at the version that ended the game"
    winners = [table.names[winner] for winner in table.result["winners"]]
    if mail.seat is None:
        history = rt.link(f"/game/{table.game_id}/history")
        return {"link": host_url(rt, table), "replay": history, "lines": [], "winners": winners}
    link, replay = player_url(rt, table, mail.seat), replay_url(rt, table, mail.seat)
    return {"link": link, "replay": replay, "winners": winners}


_STORE_DRAFT = (
    update(OutboxMail)
    .where(col(OutboxMail.id) == bindparam("mail_id"), col(OutboxMail.draft).is_not(None))
    .values(text_body=bindparam("text_body"), html_body=bindparam("html_body"), draft=None)
)
_UNDRAFTED = select(OutboxMail).where(
    col(OutboxMail.id).in_(bindparam("mail_ids", expanding=True)), col(OutboxMail.draft).is_not(None)
)
