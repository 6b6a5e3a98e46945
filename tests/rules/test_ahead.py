"""Plays chosen ahead of the turn, as the rules see them: the situations each game offers a seat that
owes no move, the checks made when a play is chosen, and the play made (or the reason none fits)
when the seat owes its move."""

from __future__ import annotations

import random
from functools import reduce
from typing import Any

import pytest

from rules import GAMES, IllegalAction, card_name, get_game
from rules.messages import N_, is_message, plain

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
    chosen: dict[int, dict[tuple[str, int | None], dict[str, Any]]] = {}
    for _ in range(400):
        if rules.result(state) is not None:
            return
        for seat in range(SEATS[game]):
            for situation in rules.ahead.situations(state, seat):
                action = rng.choice(candidates(game, state, seat, situation))
                target = rules.ahead.target(state, seat, situation)
                try:
                    chosen.setdefault(seat, {})[target] = rules.ahead.check(state, seat, situation, action)
                except IllegalAction as refusal:
                    assert refusal.msgid
        seat = min(rules.to_act(state))
        situation = rules.ahead.owed(state, seat)
        if situation is not None and chosen.get(seat):
            mine = {s: a for (s, n), a in chosen[seat].items() if rules.ahead.answers_owed(state, seat, s, n)}
            chosen[seat] = {  # those for the trick after wait for it
                (s, n): a
                for (s, n), a in chosen[seat].items()
                if n is not None
                and not rules.ahead.answers_owed(state, seat, s, n)
                and rules.ahead.now(state, seat, s, n) is not None
            }
            made = rules.ahead.play(state, seat, mine)
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
    assert rules.ahead.situations(state, 0) == ()  # it owes the lead now
    assert rules.ahead.situations(state, 1) == ("led:S", "led:M", "then:lead", "then:led:S", "then:led:M")
    with pytest.raises(IllegalAction, match=r"You must follow suit: play a Moon\."):
        rules.ahead.check(state, 1, "led:M", {"card": "S8R"})
    with pytest.raises(IllegalAction, match="cannot arise"):
        rules.ahead.check(state, 1, "lead", {"card": "S8R"})
    with pytest.raises(IllegalAction, match="You do not hold"):
        rules.ahead.check(state, 1, "led:S", {"card": "S1R"})
    queued = rules.ahead.check(state, 1, "led:S", {"card": "S8R", "coin": True})
    state = after(rules, state, rules.act(state, 0, {"card": "S1R"}))
    assert rules.ahead.owed(state, 1) == "led:S"
    assert rules.ahead.play(state, 1, {"led:S": queued}) == queued
    assert plain(rules.ahead.play(state, 1, {"led:M": queued})) == (  # type: ignore[arg-type]
        "you chose no play for this case: if Stars are led"
    )


def test_red_black_never_chooses_a_fold_ahead() -> None:
    rules = get_game("red_black")
    state = rules.fold(rules.start(3, 2, {}))
    state = after(rules, state, rules.act(state, 0, {"card": state.hands[0][0]}))
    assert rules.ahead.situations(state, 0) == ("card:1",)
    with pytest.raises(IllegalAction, match="A fold is never chosen ahead"):
        rules.ahead.check(state, 0, "card:1", {"fold": True})


@pytest.mark.parametrize("seed", range(1, 6))
def test_red_black_plays_no_card_chosen_in_an_earlier_round(seed: int) -> None:
    rules = get_game("red_black")
    rng = random.Random(seed)
    state = rules.fold(rules.start(seed, 2, {}))
    while not rules.ahead.situations(state, 0):
        seat = min(rules.to_act(state))
        state = after(rules, state, rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))))
    (situation,) = rules.ahead.situations(state, 0)
    chosen = {situation: {"card": state.hands[0][0]}}
    first_round = state.round
    while state.round == first_round or 0 not in rules.to_act(state):
        assert rules.result(state) is None, "the game ended before a second round"
        seat = max(rules.to_act(state))  # the other seat first, so that seat 0 is made to owe
        state = after(rules, state, rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))))
    assert rules.ahead.owed(state, 0) == f"card:{state.round}"
    assert rules.ahead.play(state, 0, chosen) == (
        N_("it was chosen in an earlier round, for another hand"),
        {},
    )


def test_dualis_chooses_for_the_trick_after_and_waits_for_it() -> None:
    rules = get_game("dualis")
    deck = [f"{s}{n}{c}" for s in "SM" for n in range(1, 14) for c in "RB"]
    deck[13], deck[26] = deck[26], deck[13]  # seat 1: twelve Stars and M1R
    state = rules.fold(rules.start(1, 4, {"deck": deck, "first_leader": 0}))
    # its one Moon may be gone after the coming card, so a Star may be chosen for a Moon lead then
    rules.ahead.check(state, 1, "then:led:M", {"card": "S8R"})
    with pytest.raises(IllegalAction, match=r"You must follow suit: play a Star\."):
        rules.ahead.check(state, 1, "then:led:S", {"card": "M1R"})
    assert rules.ahead.situation_name("then:led:M") == (
        N_("in the trick after, %(situation)s"),
        {"situation": (N_("if Moons are led"), {})},
    )
    coming, number = rules.ahead.target(state, 1, "led:S")
    later = rules.ahead.target(state, 1, "then:led:S")
    assert later == (coming, number + 1)
    state = after(rules, state, rules.act(state, 0, {"card": "S1R"}))
    assert rules.ahead.answers_owed(state, 1, *later) is False  # waits for the trick after
    assert rules.ahead.answers_owed(state, 1, coming, number) is True
    state = after(rules, state, rules.act(state, 1, {"card": "S8R"}))
    assert rules.ahead.now(state, 1, coming, number) is None  # its play has passed
    assert rules.ahead.now(state, 1, *later) == "led:S"  # now the coming card's situation
    assert rules.ahead.situations(state, 1)[:3] == ("lead", "led:S", "led:M")


def test_double_side_offers_no_trick_after_across_the_turn_over() -> None:
    rules = get_game("double_side")
    rng = random.Random(4)
    state = rules.fold(rules.start(4, 3, {}))
    seen = set()
    while rules.result(state) is None and state.round < 2:
        for seat in set(range(3)) - rules.to_act(state):
            situations = rules.ahead.situations(state, seat)
            if not situations:
                continue
            coming = rules.ahead.coming_play(state, seat) % 100
            then = any(situation.startswith("then:") for situation in situations)
            assert then == (coming not in (6, 12)), (coming, situations)
            seen.add(coming)
        seat = min(rules.to_act(state))
        state = after(rules, state, rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))))
    assert {6, 7, 12} <= seen


def test_dualis_refuses_the_coming_card_again_for_the_trick_after() -> None:
    rules = get_game("dualis")
    deck = [f"{s}{n}{c}" for s in "SM" for n in range(1, 14) for c in "RB"]
    deck[13], deck[26] = deck[26], deck[13]  # seat 1: twelve Stars and M1R
    state = rules.fold(rules.start(1, 4, {"deck": deck, "first_leader": 0}))
    state = after(rules, state, rules.act(state, 0, {"card": "S1R"}))  # seat 2's coming card: led:S only
    with pytest.raises(IllegalAction, match=r"is your coming card: choose another card for the trick after"):
        rules.ahead.check_queue(state, 2, {"led:S": {"card": "S7B"}, "then:lead": {"card": "S7B"}})
    rules.ahead.check_queue(state, 2, {"led:S": {"card": "S7B"}, "then:lead": {"card": "M2R"}})
    rules.ahead.check_queue(state, 2, {"then:lead": {"card": "S7B"}})  # the coming card may be played by hand
    # Before the lead, seat 1's coming card depends on the suit led: a card kept in one case may come later.
    fresh = rules.fold(rules.start(1, 4, {"deck": deck, "first_leader": 0}))
    rules.ahead.check_queue(fresh, 1, {"led:S": {"card": "S8R"}, "then:lead": {"card": "S8R"}})


def test_double_side_names_the_coming_card_again_by_the_face_in_force() -> None:
    """The refusal of the coming card chosen again for the trick after names it as the hand shows it
    (Double Side Play's cards need the side in force to be named at all)."""
    rules = get_game("double_side")
    rng = random.Random(5)
    state = rules.fold(rules.start(5, 3, {}))
    while True:
        waiting = [s for s in set(range(3)) - rules.to_act(state) if rules.ahead.situations(state, s)]
        situations = rules.ahead.situations(state, waiting[0]) if waiting else []
        if any(s.startswith("then:") for s in situations):
            break
        seat = min(rules.to_act(state))
        state = after(rules, state, rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))))
    card = state.hands[waiting[0]][0]
    queue = {situation: {"card": card} for situation in situations}
    with pytest.raises(IllegalAction) as refused:
        rules.ahead.check_queue(state, waiting[0], queue)
    assert refused.value.params["card"] == card_name("double_side", card, state.side)
