"""A finished game's record to keep: its whole log with the seed and salt as JSON (the format
`pbem-record`, version 1, described in docs/record-format.md) and a readable text record (the score
sheet and every step in words, in the reader's language, from the replay's own lines).

A record read back is checked like the fairness check checks a game: the salt and seed give the
commitment, and the rules re-run from the seed give exactly the logged events; a record that does not
verify is refused with the first step that differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from rules import GAMES, get_game
from rules.game import Event
from rules.messages import N_
from service.eventlog.models import EventOrigin, GameStatus
from service.eventlog.store import Table, status_of
from service.i18n import say
from service.replay.fairness import commitment, rerun, seed_of
from service.replay.steps import FACE_UP, Replay, origin_note, step_line, time_text

FORMAT = "pbem-record"
VERSION = 1
MAX_RECORD_BYTES = 2 * 1024 * 1024  # the longest games' records are about 100 kB
MAX_NAME = 100
# What a damaged record may make the rules raise while its log is folded or re-run.
DAMAGE = (KeyError, TypeError, ValueError, IndexError, AttributeError)


class RecordRefused(ValueError):
    """A record that cannot be loaded: malformed, or not the game its seed gives. `msgid` and
    `params` say why in the reader's language; `step` is the first step that differs, if one does."""

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid % params if params else msgid)
        self.msgid, self.params = msgid, params
        self.step: int | None = params.get("step")


# ------------------------------------------------------------------------------- writing


def record_json(table: Table) -> dict[str, Any]:
    """The finished game's record: its rules, options, players (names only), seed, salt, and every
    event with who made it, how, when, and the action on the first event of each move."""
    seed, salt = seed_of(table.events), table.record.seed_salt
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": table.record.game,
        "game_id": table.game_id,
        "options": table.record.options,
        "players": table.names,
        "seed": seed,
        "salt": salt,
        "commitment": commitment(salt, seed),
        "result": table.result,
        "events": [
            {
                "seq": index + 1,
                "event": event,
                "seat": table.actors[index],
                "origin": table.origins[index],
                "time": time_text(table.times[index]),
                "action": table.actions[index],
            }
            for index, event in enumerate(table.events)
        ],
    }


def text_record(table: Table, replay: Replay, title: str) -> str:
    """The record in words for a reader: the players and result, the score sheet, the seed, and
    every step (face up) under its chapter and part, each with its mark if not made by hand."""
    rules = table.rules
    names = table.names
    sheet = rules.score_sheet(replay.states[-1])
    lines = [title, "=" * len(title), ""]
    lines.append(_("Players: %(names)s", names=", ".join(names)))
    lines.append(result_text(table.result or {}, names))
    lines.append(_("Seed %(seed)s, salt %(salt)s", seed=seed_of(table.events), salt=table.record.seed_salt))
    lines += ["", _("Score sheet"), "-" * len(_("Score sheet"))]
    columns = [" & ".join(names[seat] for seat in column) for column in sheet.columns]
    titles = {chapter.number: say(chapter.title) for chapter in replay.chapters}
    for row in sheet.rows:
        cells = (
            f"{column}: {say(cell)}{' ★' if n in row.winners else ''}"
            for n, (column, cell) in enumerate(zip(columns, row.cells, strict=True))
        )
        lines.append(f"{titles.get(row.chapter, row.chapter)} — {' · '.join(cells)}")
    standing = (f"{column}: {say(cell)}" for column, cell in zip(columns, sheet.standing, strict=True))
    lines += [
        _("Standing: %(cells)s", cells=" · ".join(standing)),
        "",
        _("Every step"),
        "-" * len(_("Every step")),
    ]
    for chapter in replay.chapters:
        lines += ["", f"## {say(chapter.title)}"]
        for group in chapter.groups:
            if group.title is not None:
                lines.append(f"### {say(group.title)}")
            for number in group.steps:
                line = step_line(table, replay, FACE_UP, number)
                if line is not None:
                    note = origin_note(replay.steps[number - 1], FACE_UP)
                    lines.append(f"{number}. {line}" + (f" ({note})" if note else ""))
    return "\n".join(lines) + "\n"


def result_text(result: dict[str, Any], names: list[str]) -> str:
    """The result in words: a draw, or the winners (and who forfeited)."""
    winners = [names[seat] for seat in result.get("winners", [])]
    if len(winners) == len(names):
        text = _("Result: a draw.")
    else:
        text = ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners), names=", ".join(winners))
    if "forfeit" in result:
        text += " " + _("%(name)s forfeited.", name=names[result["forfeit"]])
    return text


# ------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class GameLog:
    """A record read back: what a game's row, seats and log are made from."""

    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    salt: str
    events: tuple[Event, ...]
    actors: tuple[int | None, ...]
    origins: tuple[str, ...]
    times: tuple[datetime, ...]
    actions: tuple[dict[str, Any] | None, ...]


def read_record(raw: bytes) -> GameLog:
    """The record in `raw` checked and verified; RecordRefused with the reason otherwise."""
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordRefused(
            N_("This file is larger than a game record can be (%(limit)s MB)."),
            limit=MAX_RECORD_BYTES // 2**20,
        )
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        raise RecordRefused(N_("This file is not a game record: it is not JSON.")) from None
    log = parse(data)
    verify(log, data)
    return log


def parse(data: object) -> GameLog:
    """The record's parts, each of the right shape; RecordRefused naming the first that is not."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordRefused(N_("This file is not a game record (its format is not pbem-record)."))
    if data.get("version") != VERSION:
        raise RecordRefused(
            N_("This record's format version is not one this service reads (%(version)s)."), version=VERSION
        )
    game, options, players, salt = (
        data.get("game"),
        data.get("options"),
        data.get("players"),
        data.get("salt"),
    )
    if game not in GAMES:
        raise RecordRefused(N_("This record is of a game this service does not know."))
    if not isinstance(options, dict):
        raise RecordRefused(N_("This record's options are damaged."))
    if not isinstance(players, list) or not all(
        isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in players
    ):
        raise RecordRefused(N_("This record's players are damaged."))
    if not isinstance(salt, str) or not 0 < len(salt) <= 64:
        raise RecordRefused(N_("This record's salt is damaged."))
    entries = data.get("events")
    if not isinstance(entries, list) or not entries:
        raise RecordRefused(N_("This record has no events."))
    events: list[Event] = []
    actors: list[int | None] = []
    origins: list[str] = []
    times: list[datetime] = []
    actions: list[dict[str, Any] | None] = []
    for number, entry in enumerate(entries, start=1):
        event, actor, origin, time, action = _entry(entry, number, len(players))
        events.append(event)
        actors.append(actor)
        origins.append(origin)
        times.append(time)
        actions.append(action)
    return GameLog(
        str(game),
        options,
        tuple(players),
        salt,
        tuple(events),
        tuple(actors),
        tuple(origins),
        tuple(times),
        tuple(actions),
    )


def _entry(
    entry: object, number: int, seats: int
) -> tuple[Event, int | None, str, datetime, dict[str, Any] | None]:
    """One logged event of the record; RecordRefused naming its step if it is damaged."""
    damaged = RecordRefused(N_("Step %(step)s of this record is damaged."), step=number)
    if not isinstance(entry, dict) or entry.get("seq") != number:
        raise damaged
    event, actor, origin, action = (
        entry.get("event"),
        entry.get("seat"),
        entry.get("origin"),
        entry.get("action"),
    )
    if (
        not isinstance(event, dict)
        or not isinstance(event.get("type"), str)
        or not isinstance(event.get("v"), int)
    ):
        raise damaged
    if actor is not None and (
        not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < seats
    ):
        raise damaged
    if origin not in tuple(EventOrigin) or not (action is None or isinstance(action, dict)):
        raise damaged
    try:
        time = datetime.fromisoformat(str(entry.get("time")))
    except ValueError:
        raise damaged from None
    return event, actor, str(origin), time if time.tzinfo else time.replace(tzinfo=UTC), action


def verify(log: GameLog, data: dict[str, Any]) -> None:
    """The record is a finished game its seed gives: the salt and seed give its commitment, every
    event folds, the rules re-run from the seed give exactly the logged events, and the game is
    over (not cancelled). RecordRefused with the first step that differs otherwise."""
    rules = get_game(log.game)
    seats = len(log.players)
    if seats not in rules.seat_counts:
        raise RecordRefused(N_("This record has a number of players its game is not played by."))
    try:
        seed = seed_of(log.events)
    except (KeyError, TypeError, ValueError):
        raise RecordRefused(N_("Step %(step)s of this record is damaged."), step=1) from None
    if data.get("seed") != seed or data.get("commitment") != commitment(log.salt, seed):
        raise RecordRefused(N_("This record's seed and salt do not give its commitment."))
    states: list[Any] = []
    state = None
    for number, event in enumerate(log.events, start=1):
        try:
            state = rules.apply(state, event)
        except DAMAGE:
            raise RecordRefused(
                N_("Step %(step)s does not follow from the steps before it."), step=number
            ) from None
        states.append(state)
    starts = {number: action for number, action in enumerate(log.actions, start=1) if action is not None}
    try:
        checked = rerun(rules, log.options, seats, log.events, log.actors, starts, states)
    except DAMAGE:  # options the rules refuse to start with
        raise RecordRefused(N_("Step %(step)s does not follow from the steps before it."), step=1) from None
    if checked.difference is not None:
        raise RecordRefused(
            N_("This record does not verify: step %(step)s differs from what the rules give from its seed."),
            step=checked.difference,
        )
    if status_of(rules, state) != GameStatus.FINISHED:
        raise RecordRefused(N_("This record is not of a finished game."))
