"""Plays chosen ahead of the turn ("queued plays"): a seat that owes no move yet chooses its coming
play for each situation the rules name ("if Stars are led"), and the play is made in the transaction
that makes the seat owe it, as the player's own move (origin player: the log cannot tell), if it
fits then; otherwise it is dropped and the seat's next mail says why.

A queue is the seat's secret: it is read only for that seat's page, JSON and mails. Choosing again
replaces the whole queue; a move by hand, a new player in the seat or the end of the game drops it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, or_, select

from rules import IllegalAction
from rules.ahead import THEN
from rules.game import Owed
from rules.messages import N_, Message, is_message, stored_message
from rules.shapes import Action
from service.eventlog.models import AheadPlay, AheadStatus, OutboxMail
from service.eventlog.store import Table
from service.i18n import say
from service.runtime import Runtime

# The most plays a seat may choose ahead at once: one per situation, for the coming trick and the
# one after (Double Side Play offers up to ten).
MAX_AHEAD = 10


@dataclass(frozen=True)
class Chosen:
    """One play chosen ahead, as the seat sees it."""

    situation: str
    action: Action


@dataclass(frozen=True)
class Queued:
    """A play chosen ahead still waiting, as a step reads it (a snapshot of its row)."""

    id: int
    seat: int
    key_version: int
    situation: str
    play_number: int | None
    action: Action

    @classmethod
    def of(cls, row: AheadPlay) -> Queued:
        assert row.id is not None
        return cls(row.id, row.seat, row.key_version, row.situation, row.play_number, row.action)


@dataclass(frozen=True)
class Settled:
    """What became of a play chosen ahead in a step: made as the event numbered `seq`, or dropped
    (`seq` None) with the rules' `reason` if any; `told` when its seat need not hear of it (another
    player's, or a play already past)."""

    id: int
    seq: int | None = None
    reason: Message | None = None
    told: bool = False


class AheadRefused(Exception):
    """A queue the rules refuse now: the message names what is wrong (nothing is stored)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message[0])
        self.message = message


def chosen_rows(session: Session, game_id: str, seat: int | None = None) -> list[AheadPlay]:
    """The plays chosen ahead still waiting in a game (of one seat, or every seat), oldest first."""
    return [
        row
        for row in _open_rows(session, game_id)
        if row.status == AheadStatus.CHOSEN and (seat is None or row.seat == seat)
    ]


_OPEN_ROWS = (  # built once: a page and a move read them
    select(AheadPlay)
    .where(
        col(AheadPlay.game_id) == bindparam("game_id"),
        or_(col(AheadPlay.status) == AheadStatus.CHOSEN, col(AheadPlay.told).is_(False)),
    )
    .order_by(col(AheadPlay.id))
)


def _open_rows(session: Session, game_id: str) -> list[AheadPlay]:
    """The game's rows a unit of work may change or tell of (still chosen, or settled and not yet
    told), read once per session: a move asks for them at each of its steps (replaced, answering,
    made, told), and these rows change only through this module, in place or by `_added`."""
    key = ("ahead", game_id)
    if key not in session.info:
        session.info[key] = list(session.exec(_OPEN_ROWS, params={"game_id": game_id}).all())
    rows: list[AheadPlay] = session.info[key]
    return rows


def _added(session: Session, row: AheadPlay) -> None:
    """A new row stored, and kept with the rows this session has read."""
    session.add(row)
    _open_rows(session, row.game_id).append(row)


def checked_queue(table: Table, seat: int, plays: Sequence[Mapping[str, Any]]) -> list[Chosen]:
    """The plays as the rules accept them for the seat's coming play; AheadRefused otherwise."""
    if len(plays) > MAX_AHEAD:
        raise AheadRefused((N_("At most %(count)s plays can be chosen ahead."), {"count": MAX_AHEAD}))
    situations = [play["situation"] for play in plays]
    if len(set(situations)) != len(situations):
        raise AheadRefused((N_("Choose one play per situation."), {}))
    try:
        chosen = [
            Chosen(
                play["situation"],
                table.rules.ahead.check(table.state, seat, play["situation"], play["action"]),
            )
            for play in plays
        ]
        table.rules.ahead.check_queue(table.state, seat, {play.situation: play.action for play in chosen})
    except IllegalAction as refusal:
        raise AheadRefused((refusal.msgid, refusal.params)) from refusal
    return chosen


def drop(rows: Sequence[AheadPlay], now: datetime, session: Session) -> None:
    """Drop plays chosen ahead without a word to the seat (replaced, cancelled, or another player)."""
    for row in rows:
        row.status, row.settled_at, row.told = AheadStatus.DROPPED, now, True
        session.add(row)


def set_queue(rt: Runtime, game_id: str, seat: int, plays: Sequence[Mapping[str, Any]]) -> list[Chosen]:
    """Replace the seat's queue by these plays (none: cancel it); AheadRefused, and nothing changed,
    if the rules refuse one of them. The queue as stored."""

    def change(session: Session, table: Table) -> tuple[list[Chosen], list[OutboxMail]]:
        chosen = checked_queue(table, seat, plays)
        now = rt.clock.now()
        drop(chosen_rows(session, game_id, seat), now, session)
        key_version = table.seats[seat].key_version
        for play in chosen:
            situation, number = table.rules.ahead.target(table.state, seat, play.situation)
            _added(
                session,
                AheadPlay(
                    game_id=game_id,
                    seat=seat,
                    key_version=key_version,
                    situation=situation,
                    play_number=number,
                    action=play.action,
                    chosen_at=now,
                ),
            )
        return chosen, []

    return rt.in_game(game_id, change)


def queue_of(rt: Runtime, table: Table, seat: int) -> list[Chosen]:
    """The seat's plays chosen ahead still waiting (for its own page and JSON only)."""
    with rt.reading() as session:
        rows = chosen_rows(session, table.game_id, seat)
    key_version = table.seats[seat].key_version
    queue = []
    for row in rows:
        situation = situation_now(table, row)
        if situation is not None and row.key_version == key_version:
            queue.append(Chosen(situation, row.action))
    return queue


def situation_now(table: Table, row: AheadPlay | Queued) -> str | None:
    """A chosen play's situation as its seat's situations name it now (None once its play passed)."""
    return table.rules.ahead.now(table.state, row.seat, row.situation, row.play_number)


@dataclass(frozen=True)
class AheadRow:
    """One situation of the seat's coming play on its page: its words, the plays it may choose
    (the action as JSON, with its words) and the one chosen (its JSON, "" for none). A row for the
    play after the coming one (`later`) is named as the coming play's would be: the page sets the
    two apart."""

    situation: str
    name: str
    choices: list[tuple[str, str]]
    chosen: str
    later: bool


def ahead_panel(rt: Runtime, table: Table, seat: int) -> list[AheadRow]:
    """The seat's "choose ahead" panel, in the reader's words (empty when nothing can be chosen)."""
    rules, state = table.rules, table.state
    chosen = {play.situation: play.action for play in queue_of(rt, table, seat)}
    return [
        AheadRow(
            situation,
            say(rules.ahead.situation_name(situation.removeprefix(THEN))),
            [(as_json(action), say(label)) for action, label in rules.ahead.choices(state, seat, situation)],
            as_json(chosen[situation]) if situation in chosen else "",
            situation.startswith(THEN),
        )
        for situation in rules.ahead.situations(state, seat)
    ]


def as_json(action: Action) -> str:
    """An action as the page's form carries it."""
    return json.dumps(action, sort_keys=True)


def answers_now(table: Table, row: AheadPlay | Queued) -> bool:
    """Whether a chosen play answers the play its seat owes now (its seat's player still chose it)."""
    return row.key_version == table.seats[row.seat].key_version and table.rules.ahead.answers_owed(
        table.state, row.seat, row.situation, row.play_number
    )


def answering_seats(table: Table, queue: Sequence[Queued], owed: Sequence[Owed]) -> set[int]:
    """The seats the game waits on (`owed`, as the rules said it) whose player chose ahead a play
    that answers now."""
    waiting = {move.seat for move in owed}
    return {row.seat for row in queue if row.seat in waiting and answers_now(table, row)}


def chosen_play(
    table: Table, queue: Sequence[Queued], owed: Sequence[Owed]
) -> tuple[tuple[int, Action, int] | None, list[Settled]]:
    """The first play chosen ahead that answers a play a seat owes now (`owed`, in seat order), to
    be made as the player's own move: its seat, action and row (None when none is made), and the
    chosen plays used up meanwhile, dropped (those that answer but do not fit with the rules'
    reason; those of another player of the seat, or of a play already made, without a word)."""
    settled: list[Settled] = []
    for move in owed:
        rows = [row for row in queue if row.seat == move.seat]
        if move.situation is None or not rows:
            continue
        made, dropped = _answer(table, move.seat, move.situation, rows)
        settled += dropped
        if made is not None:
            return (move.seat, *made), settled
    return None, settled


def _answer(
    table: Table, seat: int, situation: str, rows: list[Queued]
) -> tuple[tuple[Action, int] | None, list[Settled]]:
    """The seat's chosen plays that answer its owed play in `situation` used up: the fitting one's
    action and row (None if none fits), and those dropped."""
    key_version = table.seats[seat].key_version
    dropped = {
        row.id: Settled(row.id, told=True)
        for row in rows
        if row.key_version != key_version or situation_now(table, row) is None
    }
    answering = [row for row in rows if answers_now(table, row)]
    if not answering:
        return None, list(dropped.values())
    made = table.rules.ahead.play(table.state, seat, {row.situation: row.action for row in answering})
    used = next((row for row in answering if row.situation == situation), answering[0])
    dropped |= {row.id: Settled(row.id, told=True) for row in answering if row is not used}
    if is_message(made):
        dropped[used.id] = Settled(used.id, reason=made)  # type: ignore[arg-type]
        return None, list(dropped.values())
    dropped.pop(used.id, None)
    action: Action = made  # type: ignore[assignment]
    return (action, used.id), list(dropped.values())


def replaced(table: Table, queue: Sequence[Queued], seat: int) -> list[Settled]:
    """The seat's chosen plays that a move made for it otherwise (forced, under auto-play) replaces:
    those for a later play (the trick after) stay."""
    return [
        Settled(row.id, told=True)
        for row in queue
        if row.seat == seat and (row.play_number is None or situation_now(table, row) is None)
    ]


def settle_queue(session: Session, game_id: str, settled: Sequence[Settled], now: datetime) -> None:
    """What became of the chosen plays in a step written on their rows."""
    rows = {row.id: row for row in _open_rows(session, game_id)}
    for outcome in settled:
        row = rows[outcome.id]
        row.status = AheadStatus.PLAYED if outcome.seq is not None else AheadStatus.DROPPED
        row.seq, row.settled_at, row.told = outcome.seq, now, outcome.told
        row.reason = list(outcome.reason) if outcome.reason is not None else None
        session.add(row)


def drop_replaced(session: Session, after: Table, seat: int, now: datetime) -> None:
    """A move made for the seat otherwise (by hand, or forced under auto-play) replaces the plays it
    chose ahead for it; those chosen for a later play (the trick after) stay."""
    rows = chosen_rows(session, after.game_id, seat)
    drop([row for row in rows if row.play_number is None or situation_now(after, row) is None], now, session)


def untold(session: Session, table: Table) -> dict[int, list[AheadPlay]]:
    """The seats' plays chosen ahead made or dropped that no mail has told them of yet, by seat."""
    notes: dict[int, list[AheadPlay]] = {}
    for row in _open_rows(session, table.game_id):
        if row.status != AheadStatus.CHOSEN and not row.told:
            notes.setdefault(row.seat, []).append(row)
    return notes


def note(table: Table, row: AheadPlay) -> Message:
    """What became of a play chosen ahead, in words for its seat."""
    if row.status == AheadStatus.PLAYED and row.seq is not None:
        line = table.rules.describe(table.events[row.seq - 1], row.seat, table.names)
        return N_("Your play chosen ahead was made: %(line)s"), {"line": line or ""}
    reason = stored_message(row.reason) if row.reason else (N_("it no longer fitted"), {})
    if reason[0].endswith((".", "!", "?")):  # a sentence of the rules brings its own full stop
        return N_("Your play chosen ahead was not made: %(reason)s"), {"reason": reason}
    return N_("Your play chosen ahead was not made: %(reason)s."), {"reason": reason}
