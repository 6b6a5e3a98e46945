"""Plays chosen ahead of the turn, as the rules see them: the situations each game offers a seat that
owes no move, the checks made when a play is chosen, and the play made (or the reason none fits)
when the seat owes its move."""

from __future__ import annotations

import random
from functools import reduce
from typing import Any

import pytest

from rules import GAMES, IllegalAction, get_game
from rules.base import is_message, plain

SEATS = {"dualis": 4, "double_side": 4, "dupli": 4, "red_black": 2}


def after(rules: Any, state: Any, events: list[dict[str, Any]]) -> Any:
    """The state once these events are folded on."""
    return reduce(rules.apply, events, state)


def candidates(game: str, state: Any, seat: int, situation: str) -> list[dict[str, Any]]:
    """Plays a seat might try to choose ahead for a situation (some of them refused)."""
    if game == "dupli":
        if situation == "charge":
            return [{"set": list(state.sets[seat])}, {"set": ["drill", "drill"]}]
        return [{"cancel": True}, {"cancel": False}]
    cards = [{"card": card} for card in state.hands[seat]]
    coins = [{"card": card, "coin": True} for card in state.hands[seat]] if game == "dualis" else []
    return cards + coins + [{"card": "XX"}]


def play(game: str, seed: int) -> None:
    """A random game in which every seat that owes no move chooses ahead at random, checking that
    what was accepted is played when its situation comes (or is refused with a reason)."""
    rules = get_game(game)
    rng = random.Random(seed)
    state = rules.fold(rules.start(seed, SEATS[game], {}))
    chosen: dict[int, dict[str, dict[str, Any]]] = {}
    for _ in range(400):
        if rules.result(state) is not None:
            return
        for seat in range(SEATS[game]):
            for situation in rules.ahead_situations(state, seat):
                action = rng.choice(candidates(game, state, seat, situation))
                try:
                    chosen.setdefault(seat, {})[situation] = rules.check_ahead(state, seat, situation, action)
                except IllegalAction as refusal:
                    assert refusal.msgid
        seat = min(rules.to_act(state))
        situation = rules.situation(state, seat)
        if situation is not None and chosen.get(seat):
            mine = {s: a for s, a in chosen.pop(seat).items() if rules.answered_together(situation, s)}
            made = rules.play_ahead(state, seat, mine)
            if is_message(made):
                assert plain(made)  # type: ignore[arg-type]
            else:
                state = after(rules, state, rules.act(state, seat, made))
                continue
        state = after(rules, state, rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))))


@pytest.mark.parametrize("game", GAMES)
def test_plays_chosen_ahead_are_legal_when_their_situation_comes(game: str) -> None:
    for seed in range(6):
        play(game, seed)


def test_dualis_situations_and_coin_if_one_is_left() -> None:
    rules = get_game("dualis")
    deck = [f"{s}{n}{c}" for s in "SM" for n in range(1, 14) for c in "RB"]
    deck[13], deck[26] = deck[26], deck[13]  # seat 1: twelve Stars and M1R
    state = rules.fold(rules.start(1, 4, {"deck": deck, "first_leader": 0}))
    assert rules.ahead_situations(state, 0) == ()  # it owes the lead now
    assert rules.ahead_situations(state, 1) == ("led:S", "led:M")
    with pytest.raises(IllegalAction, match=r"You must follow suit: play a Moon\."):
        rules.check_ahead(state, 1, "led:M", {"card": "S8R"})
    with pytest.raises(IllegalAction, match="cannot arise"):
        rules.check_ahead(state, 1, "lead", {"card": "S8R"})
    with pytest.raises(IllegalAction, match="You do not hold"):
        rules.check_ahead(state, 1, "led:S", {"card": "S1R"})
    queued = rules.check_ahead(state, 1, "led:S", {"card": "S8R", "coin": True})
    state = after(rules, state, rules.act(state, 0, {"card": "S1R"}))
    assert rules.situation(state, 1) == "led:S"
    assert rules.play_ahead(state, 1, {"led:S": queued}) == queued
    assert plain(rules.play_ahead(state, 1, {"led:M": queued})) == (  # type: ignore[arg-type]
        "you chose no play for this case: if Stars are led"
    )


def test_red_black_never_chooses_a_fold_ahead() -> None:
    rules = get_game("red_black")
    state = rules.fold(rules.start(3, 2, {}))
    state = after(rules, state, rules.act(state, 0, {"card": state.hands[0][0]}))
    assert rules.ahead_situations(state, 0) == ("card",)
    with pytest.raises(IllegalAction, match="A fold is never chosen ahead"):
        rules.check_ahead(state, 0, "card", {"fold": True})
