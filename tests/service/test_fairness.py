"""The seed commitment and the re-run check: a log the seed gives passes; a deal, die or move that
the seed does not give is found, at its step."""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

import pytest

from rules import get_game
from rules.table import cancel_decision, forfeit_decision
from service.replay.fairness import Rerun, commitment, preimage, rerun


def played(
    game: str, seats: int, seed: int, options: dict[str, Any], moves: int | None = None
) -> dict[str, Any]:
    """A random game as the service logs it, whole or its first `moves` moves: events, who acted,
    each move's action by the step it begins at."""
    rules, rng = get_game(game), random.Random(seed)
    events = rules.start(seed, seats, options)
    actors: list[int | None] = [None] * len(events)
    actions: dict[int, dict[str, Any]] = {}
    state = rules.fold(events)
    while rules.result(state) is None and (moves is None or len(actions) < moves):
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


def decided(log: dict[str, Any], action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The log ended by a decision of the game or its host, as the service logs it (nobody's move)."""
    step = len(log["events"]) + 1
    return {
        **log,
        "events": [*log["events"], *events],
        "actors": [*log["actors"], *[None] * len(events)],
        "actions": {**log["actions"], step: action},
    }


def test_a_forfeit_or_a_cancellation_ending_the_log_is_rerun_from_its_decision() -> None:
    for game, seats in [("dualis", 4), ("double_side", 3), ("dupli", 4), ("red_black", 2)]:
        log = played(game, seats, 11, {}, moves=5)
        rules, state = log["rules"], log["rules"].fold(log["events"])
        for action in (forfeit_decision(seats - 1), cancel_decision("host")):
            ended = decided(log, action, rules.table.decide(state, action, seats))
            assert check(ended) == Rerun(6, None), (game, action)


def test_a_forged_decision_is_found_at_its_step() -> None:
    log = played("red_black", 2, 5, {}, moves=4)
    step = len(log["events"]) + 1
    forfeit = forfeit_decision(0)
    for action, event in [
        (
            forfeit_decision(2),
            {"type": "GameForfeited", "v": 1, "seat": 2, "winners": [0, 1]},
        ),  # no such seat
        (
            forfeit,
            {"type": "GameForfeited", "v": 1, "seat": 0, "winners": [0, 1]},
        ),  # not what a forfeit gives
        (forfeit, {"type": "GameCancelled", "v": 1, "by": "host"}),  # not the decision logged
        ({"decision": "resign"}, {"type": "GameCancelled", "v": 1, "by": "host"}),  # no such decision
    ]:
        assert check(decided(log, action, [event])) == Rerun(4, step), action


def test_nothing_follows_a_decision_in_a_log() -> None:
    rules = get_game("red_black")
    log = played("red_black", 2, 5, {}, moves=4)
    state = rules.fold(log["events"])
    forfeit = rules.table.decide(state, forfeit_decision(0), 2)
    with pytest.raises(ValueError, match="nothing follows"):
        rules.fold([*log["events"], *forfeit, {"type": "GameCancelled", "v": 1, "by": "host"}])
