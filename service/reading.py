"""The reader's context: what a page, a JSON answer, a mail, the replay or the digest is given about a
game, built here and nowhere else.

Every part comes from the rules' reader-facing functions (`view`, with `as_of` for a replay, `open_view`,
`legal_actions`), the replay's own step lines and the game's record: plain values, never the loaded
`Table`, a `Replay`, a state or the events, so a card a reader may not see cannot reach a template
even by mistake (tests/reading_guard.py checks every rendering). Views and mail drafting add only what
is not the game's (links, forms, settings, clocks) to what these functions return.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _

from rules.messages import N_
from rules.table import BOT_LEVELS, KEEPER
from service.catalog import entry
from service.eventlog.models import GameStatus, SeatKeeper
from service.eventlog.store import Table
from service.i18n import say
from service.localtime import as_utc, browser_may_localise, zone_name
from service.move_words import move_in_words, move_label_and_words
from service.replay.fairness import game_commitment
from service.replay.pace import pace_json, table_pace
from service.replay.steps import (
    Replay,
    Viewer,
    fairness,
    history,
    history_json,
    lines_since_last_move,
    player_viewer,
    recent_lines,
    replay_of,
    step_json,
    step_page,
)
from service.replay.talk_shown import TalkLine, since_last_move, talk_json, talk_lines
from service.runtime import Runtime

RECENT_LINES = 8  # the latest moves on the player page; the replay has them all
MAIL_LINES = 60  # the most "since your last move" lines a mail or the digest carries
SEAT_TALK = 30  # the latest table talk on the player page and its JSON twin


# ------------------------------------------------------------------------------ the game's record


@dataclass(frozen=True)
class SeatReading:
    """A seat as pages and mails name it."""

    seat: int
    name: str
    keeper: SeatKeeper
    level: str = KEEPER  # the level of the bot that plays it, while a bot does
    # Since when mail to the seat does not arrive (service/mail/unreachable.py). The server's words
    # may name the address, so only the seat's own page and the host's are given them (unreachable_reason).
    unreachable_since: datetime | None = None

    @property
    def bot_words(self) -> str | None:
        """The level of the bot playing the seat in words (a msgid, for gettext), None for the
        seat-keeper itself, whose seats the pages have always named so."""
        return None if self.level == KEEPER else BOT_LEVELS[self.level]


@dataclass(frozen=True)
class TableReading:
    """A game as pages and mails read it: its record's public fields and its seats; no state, no log."""

    game_id: str
    game: str
    status: GameStatus
    options: dict[str, Any]
    host_name: str
    host_notify: bool
    public_replay: bool
    seats: tuple[SeatReading, ...]
    version: int
    move_days: int  # 0: no time limit
    weekend_pause: bool
    timezone: str  # the game's

    @property
    def active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def reader_language(table: Table, seat: int | None) -> str:
    """The language a reader chose: a seat's own, else the table's (the host's choice at creation);
    "" when neither was chosen (a page then follows the browser, a mail is in English)."""
    own = table.seats[seat].language if seat is not None else ""
    return own or table.record.language


def table_reading(table: Table) -> TableReading:
    """What a page or mail may read of a loaded game's record."""
    record = table.record
    return TableReading(
        game_id=table.game_id,
        game=record.game,
        status=table.status,
        options=dict(record.options),
        host_name=record.host_name,
        host_notify=record.host_notify,
        public_replay=record.public_replay,
        seats=tuple(
            SeatReading(
                seat.seat,
                seat.name,
                SeatKeeper(seat.keeper),
                seat.bot_level or KEEPER,
                as_utc(seat.unreachable_at) if seat.unreachable_at else None,
            )
            for seat in table.seats
        ),
        version=table.version,
        move_days=record.move_days,
        weekend_pause=record.weekend_pause,
        timezone=record.timezone,
    )


def game_title(table: Table) -> str:
    """How mails and pages name a game: the game with the options it plays with, and its players
    ("Duālis · Iso, High-Low, short — Ann, Bo, Cy"). It is also the subject of every mail about the
    game, the same on each, so that every mail client threads them."""
    game = entry(table.record.game).variant_title(table.record.options)
    return _("%(game)s — %(players)s", game=game, players=", ".join(table.names))


def game_context(table: Table) -> dict[str, Any]:
    """What every page about a game reads: its title, its record and its catalogue entry."""
    return {"title": game_title(table), "table": table_reading(table), "entry": entry(table.record.game)}


# ------------------------------------------------------------------------------ a seat's table


def seat_summary(table: Table, seat: int | None) -> dict[str, Any]:
    """The game as a seat (None: the host or an onlooker) sees it now, for its page and JSON twin:
    the rules' view and the seat's legal actions, nothing more."""
    rules = table.rules
    return {
        "game": table.record.game,
        "game_id": table.game_id,
        "status": table.status,
        "seat": seat,
        "seq": table.version,
        "players": table.names,
        "view": rules.view(table.state, seat),
        "legal_actions": rules.legal_actions(table.state, seat) if seat is not None and table.active else [],
        "to_act": sorted(rules.to_act(table.state)) if table.active else [],
        "result": table.result,
    }


def seat_talk(rt: Runtime, table: Table, seat: int | None, limit: int | None = SEAT_TALK) -> list[TalkLine]:
    """The latest table talk a seat may see (every public message and its own notes; for seat None,
    the host, every public message), the latest `limit` of them (None: all)."""
    with rt.reading() as session:
        lines = talk_lines(session, table, replay_of(rt.replays, table), seat)
    return lines if limit is None else lines[-limit:]


def seat_page_context(rt: Runtime, table: Table, seat: int, summary: dict[str, Any]) -> dict[str, Any]:
    """The game's part of a seat's page: `summary` (its `seat_summary`, as the caller settled it),
    the latest moves, what happened since its last move, the deal's commitment and the table talk."""
    replay = replay_of(rt.replays, table)
    return {
        **game_context(table),
        "page": summary,
        "recent": recent_lines(table, replay, player_viewer(table, seat), RECENT_LINES),
        "since": lines_since_last_move(table, replay, seat) if table.active else [],
        "commitment": game_commitment(table),
        "talk": seat_talk(rt, table, seat),
        "pace": table_pace(table, replay, rt.clock.now()),
        "deciding": deciding_chapter(table, replay),
        "unreachable_reason": unreachable_reason(table, seat),
    }


def unreachable_reason(table: Table, seat: int) -> str:
    """The mail server's words about a seat's address that does not take mail ("" while it does):
    for the seat's own page and JSON twin and the host's page alone, as they may name the address."""
    record = table.seats[seat]
    return record.unreachable_reason if record.unreachable_at else ""


def deciding_chapter(table: Table, replay: Replay) -> dict[str, Any] | None:
    """For a game that ended in play: the last round or war on its score sheet, the one that decided
    it (its title, each column's names and cell, the columns that won it, the final standing). None
    while it runs, and for a game that never scored a round."""
    if table.active or table.result is None:
        return None
    sheet = table.rules.score_sheet(table.state)
    if not sheet.rows:
        return None
    row = sheet.rows[-1]
    title = next((chapter.title for chapter in replay.chapters if chapter.number == row.chapter), None)
    return {
        "title": title,
        "columns": [" & ".join(table.names[seat] for seat in column) for column in sheet.columns],
        "cells": list(row.cells),
        "winners": list(row.winners),
        "standing": list(sheet.standing),
    }


def seat_json(rt: Runtime, table: Table, seat: int, summary: dict[str, Any]) -> dict[str, Any]:
    """The game's part of a seat's JSON twin: `summary` (as for its page), the table talk and
    whose mail does not arrive."""
    pace = table_pace(table, replay_of(rt.replays, table), rt.clock.now())
    return {
        **summary,
        "talk": seat_talk_json(rt, table, seat),
        "pace": pace_json(pace),
        **mail_arrival_json(table_reading(table), seat, unreachable_reason(table, seat)),
    }


def mail_arrival_json(table: TableReading, seat: int, reason: str) -> dict[str, Any]:
    """Mail that does not arrive, as a seat's JSON twin gives it (what its page says): its own
    address's state with the server's words, and the other seats whose mail does not arrive, by
    name only (their server's words may name their address)."""
    own = table.seats[seat]
    since = own.unreachable_since
    return {
        "my_mail": {
            "arriving": since is None,
            "since": since.isoformat() if since else None,
            "reason": reason,
            "message": _(
                "Mail to your address is not arriving (%(reason)s), so the game sends you no mail. Give "
                "an address that works: you keep your seat, and your new link is mailed there.",
                reason=reason,
            )
            if since
            else None,
        },
        "mail_not_arriving": [
            {
                "seat": other.seat,
                "name": other.name,
                "since": other.unreachable_since.isoformat(),
                "message": _("Mail to %(name)s is not arriving.", name=other.name),
            }
            for other in table.seats
            if other.unreachable_since is not None and other.seat != seat
        ],
    }


def seat_talk_json(rt: Runtime, table: Table, seat: int) -> list[dict[str, Any]]:
    """The latest table talk a seat may see, as the JSON twin gives it."""
    return talk_json(seat_talk(rt, table, seat), say)


def onlooker_context(table: Table) -> dict[str, Any]:
    """The game's part of a page for who has no seat (the host, the overview): public information."""
    return {**game_context(table), "page": seat_summary(table, None)}


# ------------------------------------------------------------------------------ mails and the digest


def since_lines(rt: Runtime, table: Table, seat: int) -> list[str]:
    """The seat's "since your last move" lines for mails and the digest (the replay's own lines)."""
    return lines_since_last_move(table, replay_of(rt.replays, table), seat, MAIL_LINES)


def talk_since(rt: Runtime, table: Table, seat: int) -> list[str]:
    """What the others said at the table since the seat's last move, in words ("Ann said …")."""
    with rt.reading() as session:  # in a move's unit of work, the words sent with it too
        lines = talk_lines(
            session,
            table,
            replay_of(rt.replays, table),
            seat,
            after_step=since_last_move(table, seat),
            others_only=True,
        )
    return [
        _("%(name)s said (%(where)s): %(text)s", name=line.name, where=say(line.where), text=line.text)
        for line in lines
        if line.text is not None
    ]


@dataclass(frozen=True)
class MoveChoice:
    """A legal move of a seat as its mail offers it: the move in the reader's words ("Moon 3 Blue
    coin"), the line a reply writes for it (what the reply reader reads back as exactly this move,
    "Moon 3 Blue coin (M3B)") and the action itself."""

    label: str
    reply: str
    action: dict[str, Any]


@dataclass(frozen=True)
class MoveGroup:
    """The legal moves of one kind, grouped as the page groups them, under the group's name."""

    name: str
    moves: list[MoveChoice]


# The page's groups of legal moves by the key an action of the group holds, in the order they are
# tried (translated when a name is needed: a mail names every legal move's group).
GROUP_NAMES = {
    "card": N_("Play a card"),
    "trump": N_("Choose the trump colour"),
    "set": N_("Set two cards face down"),
    "target": N_("Aim your Benevolence"),
    "cancel": N_("Answer the Benevolence"),
}


def move_group_name(action: dict[str, Any]) -> str:
    """The name of the page's group a legal action belongs to (its keys say which it is)."""
    if action.get("coin"):
        return _("Play a card with a coin")
    if action.get("fold"):
        return _("Fold this round")
    key = next((key for key in GROUP_NAMES if key in action), None)
    return _(GROUP_NAMES[key]) if key else _("Your move")


def seat_moves(table: Table, seat: int) -> list[MoveGroup]:
    """The seat's legal moves grouped as its page groups them, in the reader's words (none while it
    owes no move): what its mails offer with one tap each."""
    if not table.active or seat not in table.rules.to_act(table.state):
        return []
    groups: dict[str, list[MoveChoice]] = {}
    for action in table.rules.legal_actions(table.state, seat):
        choice = MoveChoice(*move_label_and_words(table, seat, action), action)
        groups.setdefault(move_group_name(action), []).append(choice)
    return [MoveGroup(name, moves) for name, moves in groups.items()]


@dataclass(frozen=True)
class AheadByReply:
    """How a seat's mail says to choose its coming play ahead by reply: the situations it may choose
    for now, by name, one line written as a reply would write it, and every play it may choose, one
    group per situation (`ahead_plays`)."""

    situations: list[str]
    example: str
    plays: list[MoveGroup]


def ahead_by_reply(table: Table, seat: int) -> AheadByReply | None:
    """What the seat's mail says of choosing ahead by reply (None while it has nothing to choose)."""
    plays = ahead_plays(table, seat)
    if not plays:
        return None
    names = [group.name for group in plays]
    # "<situation>: <play>" is what the reply reader looks for (service/replies/move_reader.py).
    example = f"{names[0]}: {plays[0].moves[0].label}" if plays[0].moves else f"{names[0]}:"
    return AheadByReply(names, example, plays)


def ahead_plays(table: Table, seat: int) -> list[MoveGroup]:
    """The plays the seat may choose ahead now, one group per situation under its name, each play in
    the reader's words with the line a reply writes for it ("<situation>: <play>", which the reply
    reader reads back as exactly that play) and, as its action, the play as the queue stores it
    ({"situation": ..., "action": ...})."""
    rules, state = table.rules, table.state
    groups = []
    for situation in rules.ahead.situations(state, seat):
        name = say(rules.ahead.situation_name(situation))
        plays = [
            MoveChoice(
                say(label),
                f"{name}: {move_in_words(table, seat, action)}",
                {"situation": situation, "action": action},
            )
            for action, label in rules.ahead.choices(state, seat, situation)
        ]
        groups.append(MoveGroup(name, plays))
    return groups


def seat_table(table: Table, seat: int) -> dict[str, Any]:
    """A seat's table for its mails, as its page's first screen draws it: the page's summary (the
    rules' view for that seat and its legal actions) and its moves in words, grouped."""
    return {"page": seat_summary(table, seat), "moves": seat_moves(table, seat)}


def mail_context(rt: Runtime, table: Table, seat: int | None) -> dict[str, Any]:
    """The game's part of a mail to a seat (or the host, seat None): the game named, its record, and
    for a seat what happened and was said since its last move, and how to choose ahead by reply."""
    return {
        "title": game_title(table),
        "game_name": entry(table.record.game).title,
        "table": table_reading(table),
        "names": table.names,
        "seat": seat,
        "lines": since_lines(rt, table, seat) if seat is not None else [],
        "talk": talk_since(rt, table, seat) if seat is not None else [],
        "ahead_by_reply": ahead_by_reply(table, seat) if seat is not None else None,
    }


# ------------------------------------------------------------------------------ the replay


def replay_step_context(
    rt: Runtime, table: Table, viewer: Viewer, step: int, you: int | None
) -> dict[str, Any]:
    """The game's part of the replay page at one step, as `viewer` may see it (`you`: the seat whose
    link opened it), with the messages written at that step that the viewer may read."""
    replay = replay_of(rt.replays, table)
    page = step_page(table, replay, viewer, step)
    with rt.reading() as session:
        talk = talk_lines(session, table, replay, viewer.seat, at_step=step)
    return {
        **_replay_context(table, replay, you),
        "step": page,
        "talk": talk,
        # What the game's own table partial reads, as on the player page.
        "page": {
            "game": table.record.game,
            "players": table.names,
            "view": page.view,
            "result": page.result,
            "to_act": page.to_act,
        },
        "viewer": None if viewer.face_up else viewer.seat,
    }


def replay_step_json(rt: Runtime, table: Table, viewer: Viewer, step: int) -> dict[str, Any]:
    """The replay page's JSON twin at one step."""
    replay = replay_of(rt.replays, table)
    page = step_page(table, replay, viewer, step)
    with rt.reading() as session:
        talk = talk_lines(session, table, replay, viewer.seat, at_step=step)
    return {**step_json(table, page, replay, fairness(table, replay)), "talk": talk_json(talk, say)}


def history_context(rt: Runtime, table: Table, you: int | None) -> dict[str, Any]:
    """The game's part of the history page: the score sheet, players, dates and chapters."""
    replay = replay_of(rt.replays, table)
    return {
        **_replay_context(table, replay, you),
        "past": history(table, replay),
        "pace": table_pace(table, replay, rt.clock.now()),
    }


def history_reading_json(rt: Runtime, table: Table) -> dict[str, Any]:
    """The history page's JSON twin."""
    replay = replay_of(rt.replays, table)
    pace = pace_json(table_pace(table, replay, rt.clock.now()))
    return {**history_json(table, history(table, replay), replay, fairness(table, replay)), "pace": pace}


def replay_version(rt: Runtime, table: Table) -> int:
    """The last step of the game's replay."""
    return replay_of(rt.replays, table).version


def _replay_context(table: Table, replay: Replay, you: int | None) -> dict[str, Any]:
    """What the replay and history pages both read: the game, its steps and chapters, the deal's
    fairness and the reader's time zone."""
    return {
        "title": game_title(table),
        "table": table_reading(table),
        "steps": replay.steps,
        "chapters": replay.chapters,
        "fair": fairness(table, replay),
        "say": say,
        "zone": zone_name(table, you),
        "localise": browser_may_localise(table, you),
    }
