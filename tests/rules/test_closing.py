"""A forfeit and a cancellation are events of the log, folded alike by every game: from the log
alone the result, the seats to act, the legal actions, the views and the words agree."""

from __future__ import annotations

import json
import random

import pytest

from rules import GAMES, IllegalAction, get_game
from rules.table import CANCELLED, FORFEITED

SEATS = {"dualis": 4, "double_side": 3, "dupli": 4, "red_black": 2}
NAMES = ["Ann", "Bo", "Cy", "Di"]


def cut_game(game: str, seed: int) -> list[dict]:
    """The log of a random legal game stopped at a random point before its end."""
    rules = get_game(game)
    rng = random.Random(seed)
    events = rules.start(seed, SEATS[game], {})
    state = rules.fold(events)
    for _ in range(rng.randrange(0, 60)):
        seat = rng.choice(sorted(rules.to_act(state)))
        new = rules.act(state, seat, rng.choice(rules.legal_actions(state, seat)))
        for event in new:
            state = rules.apply(state, event)
        if rules.result(state) is not None:
            return events  # ended by play: keep the log before that move
        events = events + new
    return events


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_a_forfeit_ends_the_game_with_the_other_side_winning(game: str, seed: int) -> None:
    rules = get_game(game)
    log = cut_game(game, seed)
    seat = seed % SEATS[game]
    state = rules.fold(log)
    closing = rules.table.forfeit(state, seat, SEATS[game])
    assert [event["type"] for event in closing] == [FORFEITED]
    ended = rules.fold(json.loads(json.dumps(log + closing)))  # as stored
    result = rules.result(ended)
    assert result == {"winners": rules.forfeit_result(state, seat, SEATS[game])["winners"], "forfeit": seat}
    assert seat not in result["winners"] and result["winners"]
    assert rules.to_act(ended) == frozenset() and not rules.table.cancelled(ended)
    assert all(rules.legal_actions(ended, s) == [] for s in range(SEATS[game]))
    for viewer in [None, *range(SEATS[game])]:
        assert rules.view(ended, viewer)["closure"] == {"forfeited": seat, "winners": result["winners"]}
    assert rules.open_view(ended)["closure"]["forfeited"] == seat
    msgid, params = rules.describe(closing[0], None, NAMES)
    assert NAMES[seat] in params.values() and "forfeited" in msgid
    assert rules.heading(ended, closing[0]).chapter == rules.heading(state, log[-1]).chapter or len(log) == 1
    with pytest.raises(IllegalAction):
        rules.table.forfeit(ended, (seat + 1) % SEATS[game], SEATS[game])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_a_cancelled_game_has_no_result_and_waits_on_nobody(game: str, seed: int) -> None:
    rules = get_game(game)
    log = cut_game(game, seed)
    state = rules.fold(log)
    closing = rules.table.cancel(state, "host")
    assert closing == [rules.event(CANCELLED, by="host")]
    ended = rules.fold(json.loads(json.dumps(log + closing)))
    assert rules.result(ended) is None and rules.table.cancelled(ended)
    assert rules.to_act(ended) == frozenset()
    assert rules.view(ended, 0)["closure"] == {"cancelled": True, "by": "host"}
    seat = min(rules.to_act(state))
    with pytest.raises(IllegalAction):
        rules.act(ended, seat, rules.legal_actions(state, seat)[0])
    with pytest.raises(IllegalAction):
        rules.table.cancel(ended, "host")
    assert rules.describe(closing[0], 0, NAMES) == ("The host cancelled the game.", {})


def test_a_finished_game_cannot_be_forfeited_or_cancelled() -> None:
    rules = get_game("red_black")
    rng = random.Random(1)
    state = rules.fold(rules.start(1, 2, {}))
    while rules.result(state) is None:
        seat = min(rules.to_act(state))
        for event in rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))):
            state = rules.apply(state, event)
    with pytest.raises(IllegalAction):
        rules.table.forfeit(state, 0, 2)
    with pytest.raises(IllegalAction):
        rules.table.cancel(state, "host")


def test_a_log_cannot_begin_with_a_decision() -> None:
    with pytest.raises(ValueError, match="must begin with GameStarted"):
        get_game("dualis").fold([{"type": CANCELLED, "v": 1, "by": "host"}])
