"""Replays and game histories, written once for every game, with nothing shown too early.

* A game's log is folded once per version and the state after every event kept (`Replay`, cached
  per process and extended when the game moves on), so a step costs one view, never a fold.
* Who sees what (`Viewer`): through a player's link during the game, that seat sees at each step
  what it knew then and may still look at now (`view(..., as_of=now)`: its own hand, public information,
  collected tricks only as the table's history option allows); a spectator sees public information
  only; once the game is over the players, and anyone with the public replay link if the host
  allows it, see every card face up (`open_view`). A replay ends at the game's current version.
* Each step reads as a line (`describe`, with `as_of=now` in a replay) and belongs to a chapter (a round or
  war) and maybe a part (a trick), by the rules' `heading`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from flask_babel import gettext as _

from rules import get_game
from rules.game import Event, Heading, ScoreSheet
from rules.messages import N_, Message
from rules.table import SEAT_KEPT
from service.eventlog.models import EventOrigin, GameStatus
from service.eventlog.store import FoldCache, Table
from service.i18n import say
from service.localtime import as_utc
from service.replay.fairness import Rerun, commitment, game_commitment, preimage, rerun, seed_of

# ------------------------------------------------------------------------------------ viewers


@dataclass(frozen=True)
class Viewer:
    """Who looks at a replay: a seat (what it knew at each step), a spectator (seat None: public
    information) or everyone (face up: a finished game)."""

    seat: int | None = None
    face_up: bool = False

    @property
    def kind(self) -> str:
        return "face_up" if self.face_up else "spectator" if self.seat is None else "seat"


SPECTATOR = Viewer()
FACE_UP = Viewer(face_up=True)


def finished(table: Table) -> bool:
    """Whether the game is over (a cancelled game never is: its cards stay hidden)."""
    return table.status == GameStatus.FINISHED


def player_viewer(table: Table, seat: int) -> Viewer:
    """What a player's link shows: that seat's knowledge during the game, every card once it is over."""
    return FACE_UP if finished(table) else Viewer(seat)


def public_refusal(table: Table) -> str | None:
    """Why the public replay link does not open (None: it does, face up)."""
    if table.status == GameStatus.CANCELLED:
        return _("This game was cancelled before its end, so its cards stay hidden: it has no public replay.")
    if not finished(table):
        return _("This game is still being played: its public replay opens once it is over.")
    if not table.record.public_replay:
        return _("The host has not opened this game's replay to the public.")
    return None


# ------------------------------------------------------------------------------ the folded log


@dataclass(frozen=True)
class Step:
    """One event of the log as a replay step (numbered like the event, from 1)."""

    number: int
    heading: Heading
    actor: int | None
    origin: str
    time: datetime
    starts_move: bool  # the first event of a move (the others are what the move caused)


@dataclass(frozen=True)
class Group:
    """Consecutive steps of one chapter and part (a trick), for the step list."""

    part: int | None
    title: Message | None
    steps: tuple[int, ...]


@dataclass(frozen=True)
class Chapter:
    """A round or war of the replay (0: the start), with its first step and its groups of steps."""

    number: int
    title: Message
    first: int
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class Replay:
    """A game's log folded once: the state after every event, the steps, and each move's action."""

    game: str
    options: dict[str, Any]
    seats: int
    events: tuple[Event, ...]
    states: tuple[Any, ...]
    steps: tuple[Step, ...]
    actions: dict[int, dict[str, Any]]  # by the step where the move begins (for the fairness check)

    @property
    def version(self) -> int:
        return len(self.events)

    @cached_property
    def chapters(self) -> tuple[Chapter, ...]:
        """The steps grouped by chapter, then by part (runs of steps under the same heading)."""
        runs: list[tuple[Heading, list[int]]] = []
        for step in self.steps:
            heading = step.heading
            if runs and (runs[-1][0].chapter, runs[-1][0].part) == (heading.chapter, heading.part):
                runs[-1][1].append(step.number)
            else:
                runs.append((heading, [step.number]))
        chapters: list[Chapter] = []
        for heading, numbers in runs:
            group = Group(heading.part, heading.part_title, tuple(numbers))
            if chapters and chapters[-1].number == heading.chapter:
                chapters[-1] = replace(chapters[-1], groups=(*chapters[-1].groups, group))
            else:
                chapters.append(Chapter(heading.chapter, heading.title, numbers[0], (group,)))
        return tuple(chapters)

    @cached_property
    def rerun(self) -> Rerun:
        """The log checked against the rules re-run from its seed (once per version)."""
        actors = [step.actor for step in self.steps]
        return rerun(
            get_game(self.game), self.options, self.seats, self.events, actors, self.actions, self.states
        )

    def extended(self, table: Table) -> Replay:
        """This replay carried on to the table's version (the log only ever grows)."""
        rules = table.rules
        states = list(self.states)
        steps = list(self.steps)
        actions = dict(self.actions)
        state = states[-1] if states else None
        for index in range(self.version, table.version):
            event = table.events[index]
            state = rules.apply(state, event)
            states.append(state)
            heading = rules.heading(state, event)
            number = index + 1
            steps.append(
                Step(
                    number,
                    heading,
                    table.actors[index],
                    table.origins[index],
                    table.times[index],
                    table.starts_move(index),
                )
            )
            action = table.actions[index]
            if action is not None:  # the first event of a move carries its action
                actions[number] = action
        return replace(self, events=table.events, states=tuple(states), steps=tuple(steps), actions=actions)

    def upto(self, version: int) -> Replay:
        """This replay as it stood at an earlier version."""
        actions = {seq: action for seq, action in self.actions.items() if seq <= version}
        return replace(
            self,
            events=self.events[:version],
            states=self.states[:version],
            steps=self.steps[:version],
            actions=actions,
        )


def replay_of(cache: FoldCache[Replay], table: Table) -> Replay:
    """The table's replay: from the cache, or folded on from the cached one (or from nothing)."""
    cached = cache.get(table.game_id)
    if cached is not None and cached.version >= table.version:
        return cached if cached.version == table.version else cached.upto(table.version)
    if cached is None:
        record = table.record
        cached = Replay(record.game, dict(record.options), len(table.seats), (), (), (), {})
    replay = cached.extended(table)
    cache.put(table.game_id, replay)
    return replay


# --------------------------------------------------------------------------------- one step


@dataclass(frozen=True)
class StepPage:
    """What one viewer sees at one step: the step, its line and note, and the table then."""

    step: Step
    total: int
    viewer: Viewer
    line: str | None
    note: str | None
    view: dict[str, Any]
    to_act: list[int]
    result: dict[str, Any] | None


def origin_note(step: Step, viewer: Viewer) -> str | None:
    """A mark on a move not made by hand. A forced move played by the player's setting is marked
    only for that player and in face-up replays: to others it would tell that the seat had no
    other choice, which can say something about its hand."""
    if not step.starts_move:
        return None
    if step.origin == EventOrigin.BOT:
        return _("played by the seat-keeper")
    if step.origin == EventOrigin.AUTO and viewer.seat == step.actor and not viewer.face_up:
        return _("played for you: it was your only legal move")
    if step.origin == EventOrigin.AUTO and viewer.face_up:
        return _("played automatically: it was the only legal move")
    return None


def seat_kept_line(event: Event, names: list[str]) -> Message:
    """The words for a seat handed over without the host: to the seat-keeper when its player ran out
    of time, or back to the player (by "take my seat back", or by their own move)."""
    player = names[event["seat"]]
    if event["by_keeper"]:
        return N_("%(player)s ran out of time: the seat-keeper stands in until they return."), {
            "player": player
        }
    return N_("%(player)s took their seat back from the seat-keeper."), {"player": player}


def step_line(table: Table, replay: Replay, viewer: Viewer, number: int) -> str | None:
    """The line in words of step `number` as `viewer` may read it (None: it shows them nothing)."""
    event = replay.events[number - 1]
    if event["type"] == SEAT_KEPT and replay.steps[number - 1].origin != EventOrigin.HOST:
        line: Message | None = seat_kept_line(event, table.names)
    elif viewer.face_up:
        line = table.rules.describe(event, None, table.names)
    else:
        line = table.rules.describe(event, viewer.seat, table.names, as_of=replay.states[-1])
    return say(line) if line else None


def step_page(table: Table, replay: Replay, viewer: Viewer, number: int) -> StepPage:
    """The step `number` (1 to the replay's version) as `viewer` may see it."""
    rules = table.rules
    state, step = replay.states[number - 1], replay.steps[number - 1]
    view = (
        rules.open_view(state) if viewer.face_up else rules.view(state, viewer.seat, as_of=replay.states[-1])
    )
    return StepPage(
        step,
        replay.version,
        viewer,
        step_line(table, replay, viewer, number),
        origin_note(step, viewer),
        view,
        sorted(rules.to_act(state)),
        rules.result(state),
    )


@dataclass(frozen=True)
class RecentLine:
    """One of the latest steps as the player page lists it, with its mark if not made by hand."""

    number: int
    line: str
    note: str | None


def recent_lines(table: Table, replay: Replay, viewer: Viewer, count: int) -> list[RecentLine]:
    """The latest `count` steps that tell `viewer` something, oldest first (the player page's
    "recent moves": the replay's own lines, so collected tricks stay face down there too)."""
    recent: list[RecentLine] = []
    for number in range(replay.version, 0, -1):
        line = step_line(table, replay, viewer, number)
        if line is not None:
            recent.append(RecentLine(number, line, origin_note(replay.steps[number - 1], viewer)))
            if len(recent) == count:
                break
    return recent[::-1]


def lines_since_last_move(table: Table, replay: Replay, seat: int, limit: int = 60) -> list[str]:
    """What this seat may know of everything after the last move it made by hand, in words, as its
    replay tells it (mails, the digest): that move itself is left out, what it caused (a trick won, a
    new deal) is told, each line with its origin mark; a trick collected face down by now stays face
    down here too (the seat-keeper may have played many tricks since the seat's last move by hand)."""
    viewer = Viewer(seat)
    start = 0
    for step in reversed(replay.steps):
        if step.starts_move and step.actor == seat and step.origin == EventOrigin.PLAYER:
            start = step.number  # the move's first step: tell only what follows it
            break
    lines = []
    for number in range(start + 1, replay.version + 1):
        line = step_line(table, replay, viewer, number)
        if line is not None:
            note = origin_note(replay.steps[number - 1], viewer)
            lines.append(f"{line} ({note})" if note else line)
    return lines[-limit:]


def time_text(moment: datetime) -> str:
    """A stored time as the JSON twins give it: ISO 8601 in UTC."""
    return as_utc(moment).astimezone(UTC).isoformat()


# ------------------------------------------------------------------------- fairness, history


@dataclass(frozen=True)
class Fairness:
    """The commitment to the seed; once the game is over the seed, salt and both checks."""

    commitment: str
    revealed: bool
    seed: int | None = None
    salt: str | None = None
    preimage: str | None = None
    digest: str | None = None
    rerun: Rerun | None = None

    @property
    def hash_ok(self) -> bool:
        return self.digest == self.commitment


def fairness(table: Table, replay: Replay) -> Fairness:
    """The commitment, and the seed revealed and checked once the game is over."""
    shown = game_commitment(table)
    if not finished(table):
        return Fairness(shown, revealed=False)
    seed, salt = seed_of(replay.events), table.record.seed_salt
    text = preimage(salt, seed)
    return Fairness(shown, True, seed, salt, text, commitment(salt, seed), replay.rerun)


@dataclass(frozen=True)
class History:
    """A game's history page: the score sheet, chapters with their start times, dates, result."""

    sheet: ScoreSheet
    chapters: tuple[Chapter, ...]
    started: datetime
    last_move: datetime
    result: dict[str, Any] | None


def history(table: Table, replay: Replay) -> History:
    """The history of the game so far (public information only)."""
    rules = table.rules
    return History(
        rules.score_sheet(replay.states[-1]),
        replay.chapters,
        replay.steps[0].time,
        replay.steps[-1].time,
        rules.result(replay.states[-1]),
    )


# ------------------------------------------------------------------------------------- JSON


def step_json(table: Table, page: StepPage, replay: Replay, fair: Fairness) -> dict[str, Any]:
    """A step as the JSON twin of the replay page shows it."""
    heading = page.step.heading
    return {
        "game": table.record.game,
        "game_id": table.game_id,
        "step": page.step.number,
        "steps": page.total,
        "viewer": {"kind": page.viewer.kind, "seat": page.viewer.seat},
        "players": table.names,
        "chapter": {"number": heading.chapter, "title": say(heading.title)},
        "part": None
        if heading.part is None or heading.part_title is None
        else {"number": heading.part, "title": say(heading.part_title)},
        "line": page.line,
        "actor": page.step.actor,
        "note": page.note,
        "time": time_text(page.step.time),
        "view": page.view,
        "to_act": page.to_act,
        "result": page.result,
        "chapters": chapters_json(replay),
        "fairness": fairness_json(fair),
    }


def chapters_json(replay: Replay) -> list[dict[str, Any]]:
    """Each chapter's number, title and first step."""
    return [{"number": c.number, "title": say(c.title), "first_step": c.first} for c in replay.chapters]


def fairness_json(fair: Fairness) -> dict[str, Any]:
    """The commitment, and once revealed the seed, salt and checks."""
    out: dict[str, Any] = {"scheme": "sha256", "commitment": fair.commitment, "revealed": fair.revealed}
    if fair.revealed and fair.rerun is not None:
        out |= {
            "seed": fair.seed,
            "salt": fair.salt,
            "preimage": fair.preimage,
            "digest": fair.digest,
            "hash_ok": fair.hash_ok,
            "rerun_ok": fair.rerun.ok,
            "moves_rerun": fair.rerun.moves,
            "first_difference": fair.rerun.difference,
        }
    return out


def history_json(table: Table, past: History, replay: Replay, fair: Fairness) -> dict[str, Any]:
    """The history page's JSON twin."""
    sheet = past.sheet
    titles = {c.number: say(c.title) for c in past.chapters}
    firsts = {c.number: c.first for c in past.chapters}
    return {
        "game": table.record.game,
        "game_id": table.game_id,
        "status": table.status,
        "players": table.names,
        "started": time_text(past.started),
        "last_move": time_text(past.last_move),
        "result": past.result,
        "columns": [list(column) for column in sheet.columns],
        "rows": [
            {
                "chapter": row.chapter,
                "title": titles.get(row.chapter),
                "first_step": firsts.get(row.chapter),
                "cells": [say(cell) for cell in row.cells],
                "winners": list(row.winners),
            }
            for row in sheet.rows
        ],
        "standing": [say(cell) for cell in sheet.standing],
        "chapters": chapters_json(replay),
        "fairness": fairness_json(fair),
    }
