"""The seed commitment and the re-run check: a log the seed gives passes; a deal, die or move that
the seed does not give is found, at its step."""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

from rules import get_game
from service.replay.fairness import Rerun, commitment, preimage, rerun


def played(game: str, seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A whole random game as the service logs it: events, who acted, each move's action by the
    step it begins at."""
    rules, rng = get_game(game), random.Random(seed)
    events = rules.start(seed, seats, options)
    actors: list[int | None] = [None] * len(events)
    actions: dict[int, dict[str, Any]] = {}
    state = rules.fold(events)
    while rules.result(state) is None:
        seat = rng.choice(sorted(rules.to_act(state)))
        action = rng.choice(rules.legal_actions(state, seat))
        new = rules.act(state, seat, action)
        actions[len(events) + 1] = action
        events += new
        actors += [seat] * len(new)
        for event in new:
            state = rules.apply(state, event)
    return {
        "rules": rules,
        "options": options,
        "seats": seats,
        "events": events,
        "actors": actors,
        "actions": actions,
    }


def check(log: dict[str, Any]) -> Rerun:
    rules, events = log["rules"], log["events"]
    states, state = [], None
    for event in events:
        state = rules.apply(state, event)
        states.append(state)
    return rerun(rules, log["options"], log["seats"], events, log["actors"], log["actions"], states)


def test_the_commitment_is_the_sha256_of_the_versioned_salt_and_seed() -> None:
    assert preimage("ab12", 99) == "pbem-seed-v1:ab12:99"
    assert commitment("ab12", 99) == hashlib.sha256(b"pbem-seed-v1:ab12:99").hexdigest()
    assert commitment("ab12", 99) != commitment("ab13", 99) != commitment("ab12", 98)


def test_every_game_re_runs_from_its_seed() -> None:
    for game, seats, options in [
        ("dualis", 4, {"high_low": True}),
        ("double_side", 3, {"trump": True}),
        ("dupli", 4, {}),
        ("red_black", 2, {}),
    ]:
        log = played(game, seats, 11, options)
        assert check(log) == Rerun(len(log["actions"]), None), game


def test_a_deal_the_seed_does_not_give_is_found() -> None:
    log = played("dualis", 4, 3, {})
    events = log["events"] = copy.deepcopy(log["events"])
    second = next(n for n, e in enumerate(events) if e["type"] == "RoundDealt" and e["round"] == 2)
    hands = events[second]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # two cards swapped between hands
    assert check(log).difference == second + 1


def test_a_tampered_first_deal_or_a_move_no_one_made_is_found() -> None:
    log = played("red_black", 2, 5, {})
    log["events"] = copy.deepcopy(log["events"])
    log["events"][1]["cards"].reverse()  # the first shuffle
    assert check(log) == Rerun(0, 2)
    log = played("red_black", 2, 5, {})
    first = min(log["actions"])
    log["actions"][first] = {"card": "not a card"}
    assert check(log) == Rerun(0, first)
