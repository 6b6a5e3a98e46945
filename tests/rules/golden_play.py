"""Golden playthroughs (as OpenSpiel keeps them): one fixed seed's whole game per case, with what every
observer (each seat and a spectator) was shown at every step, written to tests/rules/golden/ and compared
by test_golden.py, so that a change of the rules' code that changes anything a player sees fails.
Each record is gzipped JSON lines (`zcat tests/rules/golden/dualis.json.gz | sed -n 5p` is step 4):
a head line, then one line per step holding only what changed since the step before (`change`).

Regenerate them deliberately, after a change of the rules meant to change what players see:

    .venv/bin/python -m tests.rules.golden_play --write
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rules import get_game
from rules.game import Event, Game

GOLDEN = Path(__file__).parent / "golden"
OFFERED = "offered:"
DROPPED = "-"  # in a stored change of a dict: the keys it no longer has
CHAINED = ("views", "ahead")  # stored as each observer's change since the step before
ABSENT = object()  # a key a dict did not have, in `change`
NAMES = ["Ann", "Bo", "Cy", "Di"]


@dataclass(frozen=True)
class Case:
    """One golden playthrough: a game, its seats and options, and the seed of its deal and moves."""

    name: str
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 7


CASES = (
    Case("dualis", "dualis", 4),
    Case("dualis_3_short_high_low_iso", "dualis", 3, {"short": True, "high_low": True, "iso": True}),
    Case("dualis_open_history", "dualis", 4, {"short": True, "open_history": True}),
    Case("double_side", "double_side", 3),
    Case("double_side_4_trump", "double_side", 4, {"trump": True}),
    Case("dupli", "dupli", 3),
    Case("red_black", "red_black", 2),
)


def plain(value: object) -> Any:
    """A value as JSON gives it back (tuples become lists)."""
    return json.loads(json.dumps(value))


def played(case: Case) -> tuple[list[Event], list[Any]]:
    """The case's log and the state after each of its events: random legal moves from the seed."""
    rules: Game[Any] = get_game(case.game)
    rng = random.Random(case.seed)
    events = rules.start(case.seed, case.seats, case.options)
    states: list[Any] = []
    state: Any = None
    for event in events:
        state = rules.apply(state, event)
        states.append(state)
    while rules.result(state) is None:
        seat = rng.choice(sorted(rules.to_act(state)))
        for event in rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))):
            state = rules.apply(state, event)
            events.append(event)
            states.append(state)
    return events, states


def ahead(rules: Game[Any], state: Any, seat: int) -> dict[str, Any]:
    """What a seat may choose ahead at a state: each situation's plays (under "offered:" and the
    situation), the situation it owes and the number of its coming play."""
    offered = {
        OFFERED + situation: [
            [action, label] for action, label in rules.ahead.choices(state, seat, situation)
        ]
        for situation in rules.ahead.situations(state, seat)
    }
    return {**offered, "owed": rules.ahead.owed(state, seat), "coming": rules.ahead.coming_play(state, seat)}


def step(rules: Game[Any], case: Case, event: Event, state: Any, now: Any | None) -> dict[str, Any]:
    """Everything shown at one step: the event, its heading, each observer's line and view, what each
    seat may choose ahead, and (for a step up to `now`) each observer's replay of it seen from `now`."""
    observers: list[int | None] = [None, *range(case.seats)]
    shown: dict[str, Any] = {
        "event": event,
        "heading": asdict(rules.heading(state, event)),
        "lines": [rules.describe(event, seat, NAMES) for seat in observers],
        "views": [rules.view(state, seat) for seat in observers],
        "ahead": [ahead(rules, state, seat) for seat in range(case.seats)],
    }
    if now is not None:
        shown["replay_lines"] = [rules.describe(event, seat, NAMES, as_of=now) for seat in observers]
        shown["replays"] = [rules.view(state, seat, as_of=now) for seat in observers]
    return plain(shown)


def playthrough(case: Case) -> dict[str, Any]:
    """The case's golden record: its steps (replays seen from the middle of the game up to it) and the
    finished game's result, open view and score sheet."""
    rules: Game[Any] = get_game(case.game)
    events, states = played(case)
    middle = len(states) // 2
    steps = [
        step(rules, case, event, state, states[middle] if number <= middle else None)
        for number, (event, state) in enumerate(zip(events, states, strict=True))
    ]
    end = states[-1]
    return plain(
        {
            "case": asdict(case),
            "steps": steps,
            "result": rules.result(end),
            "open_view": rules.open_view(end),
            "score_sheet": asdict(rules.score_sheet(end)),
        }
    )


def path_of(case: Case) -> Path:
    """Where a case's golden record is kept."""
    return GOLDEN / f"{case.name}.json.gz"


def change(before: object, after: object) -> dict[str, Any]:
    """How `after` differs from `before`: {"=": value} replaces it; between dicts {"d": {key: change}}
    for the keys changed or new and {"-": [keys]} for those gone; between lists of one length
    {"l": {index: change}}. Unchanged parts are left out."""
    if isinstance(before, dict) and isinstance(after, dict):
        inner = {key: change(before.get(key, ABSENT), value) for key, value in after.items()}
        found: dict[str, Any] = (
            {"d": {key: one for key, one in inner.items() if one}} if any(inner.values()) else {}
        )
        gone = sorted(set(before) - set(after))
        return {**found, DROPPED: gone} if gone else found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        items = {str(i): change(old, new) for i, (old, new) in enumerate(zip(before, after, strict=True))}
        kept = {i: one for i, one in items.items() if one}
        return {"l": kept} if kept else {}
    return {} if before == after else {"=": after}


def changed(before: Any, change_: dict[str, Any]) -> Any:
    """`before` with a stored change made (`change` undone)."""
    if "=" in change_:
        return change_["="]
    if "l" in change_:
        return [changed(old, change_["l"].get(str(i), {})) for i, old in enumerate(before)]
    if "d" not in change_ and DROPPED not in change_:
        return before
    gone = set(change_.get(DROPPED, ()))
    kept = {key: value for key, value in before.items() if key not in gone}
    return {**kept, **{key: changed(kept.get(key), one) for key, one in change_.get("d", {}).items()}}


def stored_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps as stored: each observer's view and ahead as its change since the step before, each
    replay as its change from the same step's view (most are none: that is the compact part)."""
    stored, before = [], first(steps[0])
    for one in steps:
        kept = {**one, **{key: list(map(change, before[key], one[key])) for key in CHAINED}}
        if "replays" in one:
            kept["replays"] = list(map(change, one["views"], one["replays"]))
        stored.append(kept)
        before = one
    return stored


def read_steps(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps in full from their stored changes (`stored_steps` undone)."""
    steps, before = [], first(stored[0])
    for kept in stored:
        one = {**kept, **{key: list(map(changed, before[key], kept[key])) for key in CHAINED}}
        if "replays" in kept:
            one["replays"] = list(map(changed, one["views"], kept["replays"]))
        steps.append(one)
        before = one
    return steps


def first(step: dict[str, Any]) -> dict[str, Any]:
    """What the first step's chained parts are stored as changes of: an empty dict per observer."""
    return {key: [{}] * len(step[key]) for key in CHAINED}


def dumped(record: dict[str, Any]) -> str:
    """A golden record as compact text, one line per step, so that a diff names the step."""
    head = {key: value for key, value in record.items() if key != "steps"}
    lines = [json.dumps(head, sort_keys=True, separators=(",", ":"))]
    lines += [json.dumps(one, sort_keys=True, separators=(",", ":")) for one in stored_steps(record["steps"])]
    return "\n".join(lines) + "\n"


def loaded(case: Case) -> dict[str, Any]:
    """A case's checked-in golden record, in full."""
    head, *steps = gzip.decompress(path_of(case).read_bytes()).decode().splitlines()
    return {**json.loads(head), "steps": read_steps([json.loads(line) for line in steps])}


def main() -> None:
    """Write every case's golden record (only when asked: they are the test's expectations)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help="regenerate tests/rules/golden/*.json.gz")
    if not parser.parse_args().write:
        parser.error("nothing done: pass --write to regenerate the golden playthroughs")
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        # mtime=0: the same record gives the same bytes, so only a real change shows in git
        path_of(case).write_bytes(gzip.compress(dumped(playthrough(case)).encode(), 9, mtime=0))
        print(f"wrote {path_of(case)}")


if __name__ == "__main__":
    main()
