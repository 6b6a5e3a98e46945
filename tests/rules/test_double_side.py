"""Double Side Play (rules/double_side/): the rulebook (seeds/001), RULINGS.md §2 and the contract.

Hands are fixed with options["deck"] (dealt in blocks of 12 in seat order, the rest set aside) and
rolls with options["dice"]; a round is played out by per-seat card preferences (the first preferred
card that is legal, else the first legal card), so each scenario's trick counts are known.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest

from rules import IllegalAction, get_game
from rules.double_side import GAME
from rules.double_side.cards import (
    DECK,
    first_leader,
    number,
    roll_dice,
    targets,
    trick_winner,
    trump_chooser,
    white_of,
)
from rules.double_side.state import State
from rules.messages import plain
from rules.rng import SeededRandom

NAMES = ["Ann", "Bo", "Cy", "Di"]
WORD = re.compile(r"[A-Za-z0-9]+")
DECK_SET = frozenset(DECK)


def cards(colour: str, low: int, high: int) -> list[str]:
    """The cards of one colour with black numbers low..high."""
    return [f"{colour}{n}" for n in range(low, high + 1)]


def deck_of(*hands: list[str]) -> list[str]:
    """A full deck whose first blocks of 12 are these hands; the other cards follow (set aside)."""
    listed = [card for hand in hands for card in hand]
    assert all(len(hand) == 12 for hand in hands) and len(set(listed)) == len(listed)
    return listed + [card for card in DECK if card not in listed]


# Scenario "six": seat 0 wins tricks 1-6 with its reds, seat 2 wins tricks 7-12 with the greens that
# are high on the white side, seat 1 (all blues, never led) wins nothing: tricks 6, 0, 6.
SIX_HANDS = (cards("R", 1, 6) + cards("G", 7, 12), cards("B", 1, 12), cards("G", 1, 6) + cards("Y", 1, 6))
SIX_PREFS = {0: SIX_HANDS[0], 2: cards("Y", 1, 6) + cards("G", 1, 6)}
# Scenario "sides": G7 (seat 0) and G1 (seat 1) meet either in trick 1 or in trick 7.
SIDES_HANDS = (
    [*cards("R", 7, 12), "G7", *cards("Y", 1, 5)],
    [*cards("B", 1, 6), "G1", *cards("Y", 6, 10)],
    cards("B", 7, 12) + cards("R", 1, 4) + ["Y11", "Y12"],
)
SIDES_LATE = {0: [*cards("R", 7, 12), "G7"], 1: cards("B", 1, 6)}
SIDES_EARLY = {0: ["G7"]}


def start(seats: int = 3, seed: int = 1, **options: Any) -> list[dict[str, Any]]:
    """A new game's events."""
    return GAME.start(seed, seats, options)


def act(events: list[dict[str, Any]], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The log after one accepted action."""
    return events + GAME.act(GAME.fold(events), seat, action)


def types(events: Sequence[dict[str, Any]]) -> list[str]:
    """The event types in order."""
    return [e["type"] for e in events]


def pick(state: State, seat: int, prefs: dict[int, list[str]]) -> dict[str, Any]:
    """The seat's first preferred legal card, else its first legal action."""
    legal = GAME.legal_actions(state, seat)
    for card in prefs.get(seat, []):
        if {"card": card} in legal:
            return {"card": card}
    return legal[0]


def play_round(events: list[dict[str, Any]], prefs: dict[int, list[str]]) -> list[dict[str, Any]]:
    """The log after the round in play is finished (trump, if asked for, must be chosen already)."""
    state = GAME.fold(events)
    round_no = state.round
    while state.round == round_no and state.phase == "play":
        seat = next(iter(GAME.to_act(state)))
        new = GAME.act(state, seat, pick(state, seat, prefs))
        events = events + new
        for event in new:
            state = GAME.apply(state, event)
    return events


def find(events: Sequence[dict[str, Any]], kind: str, **fields: Any) -> dict[str, Any]:
    """The first event of that type with those fields."""
    return next(e for e in events if e["type"] == kind and all(e[k] == v for k, v in fields.items()))


def words(value: object) -> set[str]:
    """Every card code written anywhere in a JSON value."""
    return set(WORD.findall(json.dumps(value))) & DECK_SET


# ------------------------------------------------------------------------------ the cards


def test_deck_has_48_cards_four_colours_black_1_to_12() -> None:
    assert len(DECK) == len(set(DECK)) == 48
    assert {c[0] for c in DECK} == {"R", "B", "G", "Y"}
    assert sorted(int(c[1:]) for c in DECK if c[0] == "G") == list(range(1, 13))


def test_white_number_is_black_plus_6_for_1_to_6_and_minus_6_for_7_to_12() -> None:
    assert [white_of(b) for b in range(1, 13)] == [7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6]
    assert all(abs(white_of(b) - b) == 6 for b in range(1, 13))
    assert number("G3", "black") == 3 and number("G3", "white") == 9
    assert number("R12", "black") == 12 and number("R12", "white") == 6


def test_every_white_number_appears_once_per_colour() -> None:
    assert sorted(number(c, "white") for c in DECK if c[0] == "Y") == list(range(1, 13))


# ------------------------------------------------------------------------------ the deal


def test_three_players_get_12_cards_each_in_seat_blocks_and_12_are_set_aside() -> None:
    deck = deck_of(*SIX_HANDS)
    dealt = start(3, deck=deck)[1]
    assert dealt["type"] == "RoundDealt" and dealt["round"] == 1
    assert dealt["hands"] == [deck[0:12], deck[12:24], deck[24:36]]
    assert dealt["set_aside"] == deck[36:48]


def test_four_players_deal_out_the_whole_deck() -> None:
    dealt = start(4, seed=9)[1]
    assert [len(h) for h in dealt["hands"]] == [12] * 4 and dealt["set_aside"] == []
    assert sorted(c for h in dealt["hands"] for c in h) == sorted(DECK)


def test_deal_without_deck_option_is_a_seeded_shuffle() -> None:
    dealt = start(3, seed=42)[1]
    deck = SeededRandom(42, "deal", 1).shuffled(DECK)
    assert dealt["hands"][0] == deck[:12] and dealt["set_aside"] == deck[36:]
    assert start(3, seed=42) == start(3, seed=42)
    assert start(3, seed=43)[1]["hands"] != dealt["hands"]


def test_game_started_records_seed_seats_and_all_options() -> None:
    first = start(4, seed=5, trump=True)[0]
    assert first["type"] == "GameStarted" and first["v"] == 1
    assert first["seed"] == 5 and first["seats"] == 4
    assert first["options"] == {"trump": True, "open_history": False, "deck": None, "dice": None}


def test_deck_option_list_of_decks_fixes_rounds_in_order_then_seed_takes_over() -> None:
    one, two = deck_of(*SIX_HANDS), deck_of(*SIDES_HANDS)
    dice = [[[6, 5], [1, 2], [6, 3]]] * 2
    events = start(3, seed=8, deck=[one, two], dice=dice)
    assert events[1]["hands"][0] == one[:12]
    events = play_round(events, {})
    second = find(events, "RoundDealt", round=2)
    assert second["hands"][0] == two[:12]
    events = play_round(events, {})
    assert [e["points"] for e in events if e["type"] == "RoundScored"] == [[1, 0, 1], [1, 1, 1]]
    third = find(events, "RoundDealt", round=3)
    assert third["hands"][0] == SeededRandom(8, "deal", 3).shuffled(DECK)[:12]
    assert third["rolls"] == [roll_dice(SeededRandom(8, "dice", 3, s)) for s in range(3)]


# ------------------------------------------------------------------------------ the dice


def test_a_double_is_rerolled_until_the_dice_differ() -> None:
    dealt = start(3, seed=7)[1]  # seed 7: seats 0 and 1 roll a double first
    assert dealt["rolls"][0] == [[6, 6], [5, 3]] and dealt["rolls"][1] == [[3, 3], [4, 3]]
    for rolls, dice in zip(dealt["rolls"], dealt["dice"], strict=True):
        assert all(a == b for a, b in rolls[:-1]) and rolls[-1][0] != rolls[-1][1] and dice == rolls[-1]


def test_roll_dice_always_ends_with_two_different_dice() -> None:
    for i in range(300):
        rolls = roll_dice(SeededRandom(3, "test", i))
        assert rolls[-1][0] != rolls[-1][1] and all(1 <= d <= 6 for pair in rolls for d in pair)
        assert all(a == b for a, b in rolls[:-1])


def test_dice_are_public_in_every_view_and_rerolls_shown() -> None:
    events = start(3, seed=7)
    state = GAME.fold(events)
    for seat in (None, 0, 1, 2):
        players = GAME.view(state, seat)["players"]
        assert [p["dice"] for p in players] == events[1]["dice"]
        assert players[0]["rolls"] == [[6, 6], [5, 3]]


def test_targets_are_each_die_and_0_for_a_6() -> None:
    assert targets([2, 6]) == [2, 6, 0]
    assert targets([6, 3]) == [6, 0, 3]
    assert targets([1, 4]) == [1, 4]


def test_dice_option_replaces_the_roll_per_round() -> None:
    dealt = start(3, dice=[[[1, 2], [3, 4], [5, 6]]])[1]
    assert dealt["dice"] == [[1, 2], [3, 4], [5, 6]] and dealt["rolls"] == [[[1, 2]], [[3, 4]], [[5, 6]]]


@pytest.mark.parametrize(
    "dice",
    [
        [[[3, 3], [1, 2], [4, 5]]],  # a double
        [[[1, 2], [4, 5]]],  # a pair missing
        [[[1, 7], [1, 2], [4, 5]]],  # not a die
        [[[1, 2, 3], [1, 2], [4, 5]]],  # three dice
        [[[True, 2], [1, 2], [4, 5]]],  # a bool is no die
        [[["1", 2], [1, 2], [4, 5]]],
        "12",
        [5],
    ],
)
def test_bad_dice_option_is_refused(dice: object) -> None:
    with pytest.raises(ValueError, match="dice"):
        start(3, dice=dice)


# ------------------------------------------------------------------------------ first leader


def test_first_leader_is_the_lowest_dice_sum() -> None:
    assert first_leader([[1, 2], [3, 4], [5, 6]], 1, 1) == (0, "sum")
    dealt = start(3, dice=[[[5, 6], [3, 4], [1, 3]]])[1]
    assert (dealt["leader"], dealt["leader_reason"]) == (2, "sum")
    state = GAME.fold(start(3, dice=[[[5, 6], [3, 4], [1, 3]]]))
    assert GAME.to_act(state) == frozenset({2}) and GAME.view(state, None)["leader"] == 2


def test_first_leader_tie_on_sum_goes_to_the_lowest_single_die() -> None:
    assert first_leader([[3, 4], [2, 5], [5, 6]], 1, 1) == (1, "die")
    assert first_leader([[2, 5], [3, 4], [5, 6], [1, 6]], 1, 1) == (3, "die")


def test_first_leader_full_tie_is_drawn_from_the_seed() -> None:
    dice = [[3, 4], [5, 6], [4, 3]]
    picks = {first_leader(dice, seed, 1) for seed in range(40)}
    assert picks == {(0, "draw"), (2, "draw")}
    for seed in range(10):
        assert first_leader(dice, seed, 1)[0] == SeededRandom(seed, "leader", 1).choice([0, 2])
    dealt = start(3, seed=3)[1]  # seed 3 rolls [4, 5], [1, 4], [4, 1]
    assert dealt["dice"] == [[4, 5], [1, 4], [4, 1]] and dealt["leader_reason"] == "draw"
    assert dealt["leader"] == SeededRandom(3, "leader", 1).choice([1, 2])


def test_each_round_has_its_own_first_leader_from_its_dice() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]], [[6, 5], [6, 4], [1, 3]]]
    events = play_round(start(3, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice), SIX_PREFS)
    second = find(events, "RoundDealt", round=2)
    assert second["leader"] == 2 and GAME.fold(events).turn == 2


# ------------------------------------------------------------------------------ tricks


def test_must_follow_the_led_colour() -> None:
    events = act(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]), 0, {"card": "R7"})
    state = GAME.fold(events)
    assert GAME.legal_actions(state, 1) == [
        {"card": c} for c in [*cards("B", 1, 6), "G1", *cards("Y", 6, 10)]
    ]
    events = act(events, 1, {"card": "B1"})
    state = GAME.fold(events)
    assert GAME.legal_actions(state, 2) == [{"card": c} for c in cards("R", 1, 4)]
    with pytest.raises(IllegalAction, match="You must follow Red"):
        GAME.act(state, 2, {"card": "B7"})


def test_a_player_without_the_led_colour_may_play_any_card() -> None:
    events = act(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]), 0, {"card": "R7"})
    legal = GAME.legal_actions(GAME.fold(events), 1)
    assert len(legal) == 12 and {"card": "Y10"} in legal


def test_highest_black_number_of_the_led_colour_wins_in_the_first_six_tricks() -> None:
    assert trick_winner(["R3", "R9", "B12"], "black", None) == 1
    events = start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]])
    for seat, card in ((0, "R7"), (1, "B6"), (2, "R4")):
        events = act(events, seat, {"card": card})
    won = events[-1]
    assert won["type"] == "TrickWon" and won["winner"] == 0 and won["card"] == "R7"
    assert won["side"] == "black" and won["number"] == 7 and won["led"] == "R" and won["by_trump"] is False
    assert won["plays"] == [{"seat": 0, "card": "R7"}, {"seat": 1, "card": "B6"}, {"seat": 2, "card": "R4"}]


def test_an_off_colour_card_never_wins_even_when_higher() -> None:
    assert trick_winner(["R2", "B12", "G11", "Y10"], "black", None) == 0
    assert trick_winner(["R8", "B6", "G5"], "white", None) == 0  # R8 is white 2, B6 and G5 white 12, 11


def test_same_cards_win_differently_on_the_black_and_the_white_side() -> None:
    assert trick_winner(["G7", "G1"], "black", None) == 0
    assert trick_winner(["G7", "G1"], "white", None) == 1
    deck, dice = deck_of(*SIDES_HANDS), [[[1, 2], [3, 4], [5, 6]]]
    early = play_round(start(3, deck=deck, dice=dice), SIDES_EARLY)
    trick1 = find(early, "TrickWon", trick=1)
    assert [p["card"] for p in trick1["plays"][:2]] == ["G7", "G1"]
    assert (trick1["winner"], trick1["card"], trick1["side"]) == (0, "G7", "black")
    late = play_round(start(3, deck=deck, dice=dice), SIDES_LATE)
    trick7 = find(late, "TrickWon", trick=7)
    assert [p["card"] for p in trick7["plays"][:2]] == ["G7", "G1"]
    assert (trick7["winner"], trick7["card"], trick7["side"], trick7["number"]) == (1, "G1", "white", 7)


def test_hands_turn_over_after_trick_6_and_white_numbers_apply() -> None:
    events = start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]])
    state = GAME.fold(events)
    while state.trick_number <= 6:
        assert GAME.view(state, 0)["side"] == "black" and not GAME.view(state, 0)["turned_over"]
        seat = next(iter(GAME.to_act(state)))
        events = events + GAME.act(state, seat, pick(state, seat, SIDES_LATE))
        state = GAME.fold(events)
    assert types(events[-2:]) == ["TrickWon", "HandsTurnedOver"] and events[-2]["trick"] == 6
    view = GAME.view(state, 0)
    assert view["side"] == "white" and view["turned_over"] and view["trick_number"] == 7
    g7 = {"card": "G7", "colour": "G", "black": 7, "white": 1, "number": 1, "playable": True, "why_not": None}
    assert g7 in view["hand"]
    events = act(events, 0, {"card": "G7"})
    assert events[-1] == {**events[-1], "type": "CardPlayed", "side": "white", "number": 1, "trick": 7}


def test_winner_leads_the_next_trick() -> None:
    events = start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]])
    for seat, card in ((0, "G7"), (1, "G1"), (2, "B7")):
        events = act(events, seat, {"card": card})
    state = GAME.fold(events)
    assert events[-1]["winner"] == 0 and GAME.to_act(state) == frozenset({0})
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.act(state, 1, {"card": "B1"})


def test_trick_numbers_restart_and_hands_turn_over_in_every_round() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]]] * 2
    events = play_round(start(3, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice), SIX_PREFS)
    state = GAME.fold(events)
    assert state.round == 2 and state.trick_number == 1 and GAME.view(state, 0)["side"] == "black"
    events = play_round(events, SIX_PREFS)
    turns = [e for e in events if e["type"] == "HandsTurnedOver"]
    assert [e["round"] for e in turns] == [1, 2]
    assert [e["trick"] for e in events if e["type"] == "TrickWon"] == list(range(1, 13)) * 2


# ------------------------------------------------------------------------------ trump


def trump_game(dice: list[list[int]], seed: int = 1) -> list[dict[str, Any]]:
    """A trump game on the "sides" deck with these dice."""
    return start(3, seed=seed, trump=True, deck=deck_of(*SIDES_HANDS), dice=[dice])


def test_trump_chooser_is_the_highest_dice_sum_and_chooses_before_the_lead() -> None:
    events = trump_game([[1, 2], [3, 4], [5, 6]])
    assert (events[1]["trump_chooser"], events[1]["chooser_reason"]) == (2, "sum")
    state = GAME.fold(events)
    assert state.phase == "trump" and GAME.to_act(state) == frozenset({2})
    assert GAME.legal_actions(state, 2) == [{"trump": c} for c in "RBGY"]
    assert GAME.legal_actions(state, 0) == []
    view = GAME.view(state, 2)
    assert view["choosing_trump"] == 2 and view["trump"] is None and len(view["hand"]) == 12
    with pytest.raises(IllegalAction, match="Trump must be chosen"):
        GAME.act(state, 0, {"card": "R7"})
    events = act(events, 2, {"trump": "G"})
    assert events[-1] == {"type": "TrumpChosen", "v": 1, "round": 1, "seat": 2, "trump": "G"}
    state = GAME.fold(events)
    assert state.trump == "G" and GAME.to_act(state) == frozenset({0})
    assert GAME.view(state, None)["trump"] == "G" and GAME.view(state, None)["choosing_trump"] is None


def test_trump_chooser_tie_on_sum_goes_to_the_highest_single_die() -> None:
    assert trump_chooser([[1, 2], [3, 4], [2, 5]], 1, 1) == (2, "die")
    assert trump_chooser([[2, 5], [3, 4], [1, 2]], 1, 1) == (0, "die")
    assert trump_game([[1, 2], [3, 4], [2, 5]])[1]["trump_chooser"] == 2


def test_trump_chooser_full_tie_is_drawn_from_the_seed() -> None:
    dice = [[1, 2], [3, 4], [4, 3]]
    assert {trump_chooser(dice, seed, 1) for seed in range(40)} == {(1, "draw"), (2, "draw")}
    for seed in range(10):
        dealt = trump_game(dice, seed)[1]
        assert dealt["chooser_reason"] == "draw"
        assert dealt["trump_chooser"] == SeededRandom(seed, "trump chooser", 1).choice([1, 2])


def test_trump_must_be_one_of_the_four_colours_and_only_the_chooser_names_it() -> None:
    state = GAME.fold(trump_game([[1, 2], [3, 4], [5, 6]]))
    for bad in ("X", None, "", "g", ["G"], 3):
        with pytest.raises(IllegalAction, match="one of the four colours"):
            GAME.act(state, 2, {"trump": bad})
    with pytest.raises(IllegalAction, match="Only the player with the highest dice"):
        GAME.act(state, 0, {"trump": "G"})
    with pytest.raises(IllegalAction, match='"trump" has no place'):
        GAME.act(state, 2, {"trump": "G", "card": "B7"})


def test_trump_beats_the_led_colour() -> None:
    events = act(trump_game([[1, 2], [3, 4], [5, 6]]), 2, {"trump": "G"})
    for seat, card in ((0, "R12"), (1, "G1"), (2, "R4")):
        events = act(events, seat, {"card": card})
    won = events[-1]
    assert (won["winner"], won["card"], won["by_trump"], won["trump"], won["led"]) == (
        1,
        "G1",
        True,
        "G",
        "R",
    )


def test_highest_trump_wins_among_trumps_on_the_side_in_force() -> None:
    assert trick_winner(["R12", "G1", "G8"], "black", "G") == 2
    assert trick_winner(["R12", "G1", "G8"], "white", "G") == 1
    assert trick_winner(["G2", "R12", "B12"], "black", "G") == 0  # trump led


def test_no_duty_to_trump_and_trump_may_be_led() -> None:
    events = act(trump_game([[1, 2], [3, 4], [5, 6]]), 2, {"trump": "R"})
    state = GAME.fold(events)
    assert {"card": "R12"} in GAME.legal_actions(state, 0)  # leading trump is allowed
    events = act(events, 0, {"card": "G7"})
    legal = GAME.legal_actions(GAME.fold(events), 1)
    assert legal == [{"card": "G1"}]  # following the led colour still comes first
    events = act(events, 1, {"card": "G1"})
    legal = GAME.legal_actions(GAME.fold(events), 2)
    assert {"card": "B7"} in legal and {"card": "R1"} in legal  # void: trump or not, as they like
    events = act(events, 2, {"card": "B7"})
    assert events[-1]["winner"] == 0 and events[-1]["by_trump"] is False


def test_trump_moves_are_refused_without_the_option_or_once_chosen() -> None:
    state = GAME.fold(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]))
    with pytest.raises(IllegalAction, match="without trump"):
        GAME.act(state, 0, {"trump": "G"})
    state = GAME.fold(act(trump_game([[1, 2], [3, 4], [5, 6]]), 2, {"trump": "G"}))
    with pytest.raises(IllegalAction, match="already been chosen"):
        GAME.act(state, 2, {"trump": "B"})


def test_every_round_has_its_own_trump_chooser() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]], [[6, 5], [1, 2], [6, 3]]]
    events = start(3, trump=True, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice)
    assert events[1]["trump_chooser"] == 1
    events = play_round(act(events, 1, {"trump": "Y"}), SIX_PREFS)
    second = find(events, "RoundDealt", round=2)
    assert second["trump_chooser"] == 0
    state = GAME.fold(events)
    assert state.phase == "trump" and state.trump is None and GAME.to_act(state) == frozenset({0})


# ------------------------------------------------------------------------------ scoring


def six_round(dice: list[list[int]]) -> list[dict[str, Any]]:
    """Round 1 of the "six" scenario (tricks 6, 0, 6) with these dice."""
    return play_round(start(3, deck=deck_of(*SIX_HANDS), dice=[dice]), SIX_PREFS)


def test_a_6_counts_as_0_so_no_tricks_with_a_6_scores() -> None:
    scored = find(six_round([[1, 2], [6, 5], [3, 4]]), "RoundScored")
    assert scored["tricks"] == [6, 0, 6]
    assert scored["scorers"] == [1] and scored["points"] == [0, 1, 0]
    assert scored["targets"] == [[1, 2], [6, 0, 5], [3, 4]]


def test_no_tricks_without_a_6_does_not_score() -> None:
    scored = find(six_round([[1, 2], [4, 5], [3, 5]]), "RoundScored")
    assert scored["tricks"] == [6, 0, 6] and scored["scorers"] == [] and scored["points"] == [0, 0, 0]


def test_a_6_also_counts_as_6_and_a_matching_die_scores() -> None:
    scored = find(six_round([[1, 6], [4, 5], [2, 6]]), "RoundScored")
    assert scored["scorers"] == [0, 2] and scored["points"] == [1, 0, 1]


def test_on_target_and_tricks_show_during_the_round() -> None:
    events = start(3, deck=deck_of(*SIX_HANDS), dice=[[[1, 2], [6, 5], [3, 4]]])
    view = GAME.view(GAME.fold(events), None)
    assert [p["on_target"] for p in view["players"]] == [False, True, False]  # 0 tricks: Bo's 6 counts
    for seat, card in ((0, "R1"), (1, "B1"), (2, "Y1")):
        events = act(events, seat, {"card": card})
    view = GAME.view(GAME.fold(events), 1)
    assert [p["tricks"] for p in view["players"]] == [1, 0, 0]
    assert [p["on_target"] for p in view["players"]] == [True, True, False]
    assert view["players"][1]["targets"] == [6, 0, 5]


def test_rounds_repeat_with_a_new_deal_and_roll_until_someone_has_2_points() -> None:
    events = six_round([[1, 2], [6, 5], [3, 4]])
    assert types(events[-2:]) == ["RoundScored", "RoundDealt"]
    state = GAME.fold(events)
    assert GAME.result(state) is None and state.round == 2 and state.points == (0, 1, 0)
    assert events[-1]["hands"] != events[1]["hands"]  # round 2 comes from the seed: a new deal
    assert events[-1]["rolls"] == [roll_dice(SeededRandom(1, "dice", 2, s)) for s in range(3)]
    view = GAME.view(state, 0)
    assert view["history"] == [
        {"round": 1, "dice": [[1, 2], [6, 5], [3, 4]], "targets": [[1, 2], [6, 0, 5], [3, 4]],
         "tricks": [6, 0, 6], "scorers": [1], "points": [0, 1, 0], "trump": None, "set_aside": None}
    ]  # fmt: skip
    assert view["last_trick"] is None and view["points"] == [0, 1, 0] and view["points_to_win"] == 2
    assert (view["goal"]["tricks_per_round"], view["goal"]["turn_over_after"]) == (12, 6)


def test_first_to_2_points_wins_alone() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]], [[1, 2], [4, 5], [6, 3]]]
    events = start(3, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice)
    events = play_round(play_round(events, SIX_PREFS), SIX_PREFS)
    assert types(events[-2:]) == ["RoundScored", "GameEnded"]
    assert events[-1] == {"type": "GameEnded", "v": 1, "winners": [2], "points": [0, 1, 2], "rounds": 2}
    state = GAME.fold(events)
    assert GAME.result(state)["winners"] == [2] and GAME.result(state)["points"] == [0, 1, 2]
    assert GAME.to_act(state) == frozenset() and all(GAME.legal_actions(state, s) == [] for s in range(3))


def test_players_reaching_2_in_the_same_round_share_the_win() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]]] * 2
    events = start(3, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice)
    events = play_round(play_round(events, SIX_PREFS), SIX_PREFS)
    result = GAME.result(GAME.fold(events))
    assert result["winners"] == [1, 2] and result["points"] == [0, 2, 2] and result["rounds"] == 2
    assert [r["scorers"] for r in result["history"]] == [[1, 2], [1, 2]]


def test_after_the_game_nothing_more_is_accepted() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]]] * 2
    events = play_round(play_round(start(3, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice), SIX_PREFS), SIX_PREFS)
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.act(GAME.fold(events), 0, {"card": "R1"})


# ------------------------------------------------------------------------------ views


def test_view_shows_own_hand_with_both_numbers_sorted_by_colour_then_number() -> None:
    state = GAME.fold(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]))
    view = GAME.view(state, 1)
    assert [c["card"] for c in view["hand"]] == [*cards("B", 1, 6), "G1", *cards("Y", 6, 10)]
    assert view["hand"][6] == {
        "card": "G1",
        "colour": "G",
        "black": 1,
        "white": 7,
        "number": 1,
        "playable": False,
        "why_not": None,  # not the seat's turn: nothing to explain about this card
    }
    assert view["seat"] == 1 and view["to_act"] == [0] and view["phase"] == "play" and view["round"] == 1
    assert view["side"] == "black" and view["trump"] is None and view["set_aside_count"] == 12
    assert [c["playable"] for c in GAME.view(state, 0)["hand"]] == [True] * 12


def test_no_view_shows_another_hand_the_set_aside_cards_or_the_seed() -> None:
    events = start(3, seed=987654321, deck=deck_of(*SIX_HANDS), dice=[[[1, 2], [6, 5], [3, 4]]])
    state = GAME.fold(events)
    hands = [set(h) for h in events[1]["hands"]]
    aside = set(events[1]["set_aside"])
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        text = json.dumps(view)
        assert "987654321" not in text and "seed" not in text
        seen = words(view)
        assert not seen & aside
        assert all(not seen & hands[other] for other in range(3) if other != seat)
        if seat is not None:
            assert seen == hands[seat]


def test_set_aside_cards_are_shown_once_the_game_is_over() -> None:
    dice = [[[1, 2], [6, 5], [6, 3]]] * 2
    events = play_round(play_round(start(3, deck=[deck_of(*SIX_HANDS)] * 2, dice=dice), SIX_PREFS), SIX_PREFS)
    view = GAME.view(GAME.fold(events), None)
    aside = sorted(deck_of(*SIX_HANDS)[36:])
    assert sorted(view["set_aside"]) == aside and sorted(view["history"][0]["set_aside"]) == aside
    assert view["phase"] == "over" and view["winners"] == [1, 2] and view["hands"] == [[], [], []]
    assert len(view["tricks"]) == 12  # every trick of the last round is open


def test_current_trick_and_last_trick_with_winner_and_reason() -> None:
    events = start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]])
    for seat, card in ((0, "R7"), (1, "B6"), (2, "R4"), (0, "R8")):
        events = act(events, seat, {"card": card})
    view = GAME.view(GAME.fold(events), 2)
    assert view["current_trick"] == {
        "number": 2, "leader": 0, "led": "R", "side": "black",
        "plays": [{"seat": 0, "card": "R8", "colour": "R", "black": 8, "white": 2, "number": 8}],
    }  # fmt: skip
    last = view["last_trick"]
    assert (last["number"], last["winner"], last["led"], last["side"], last["by_trump"]) == (
        1,
        0,
        "R",
        "black",
        False,
    )
    assert last["winning_card"]["card"] == "R7" and [p["card"] for p in last["plays"]] == ["R7", "B6", "R4"]
    assert view["tricks"] == [last]


def test_earlier_tricks_are_hidden_unless_open_history() -> None:
    deck, dice = deck_of(*SIDES_HANDS), [[[1, 2], [3, 4], [5, 6]]]
    moves = ((0, "R7"), (1, "B6"), (2, "R4"), (0, "R8"), (1, "B5"), (2, "R3"))
    closed, opened = start(3, deck=deck, dice=dice), start(3, deck=deck, dice=dice, open_history=True)
    for seat, card in moves:
        closed, opened = act(closed, seat, {"card": card}), act(opened, seat, {"card": card})
    hidden = GAME.view(GAME.fold(closed), 1)
    assert [t["number"] for t in hidden["tricks"]] == [2] and "R7" not in words(hidden)
    shown = GAME.view(GAME.fold(opened), 1)
    assert [t["number"] for t in shown["tricks"]] == [1, 2] and shown["options"]["open_history"] is True


def test_view_is_plain_json_for_every_seat_and_phase() -> None:
    events = trump_game([[1, 2], [3, 4], [5, 6]])
    for log in (events[:1], events, act(events, 2, {"trump": "B"})):
        state = GAME.fold(log)
        for seat in (None, 0, 1, 2):
            view = GAME.view(state, seat)
            assert json.loads(json.dumps(view)) == view


def test_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError):
        GAME.view(GAME.fold(start()), 3)


# ------------------------------------------------------------------------------ refusals


BAD_ACTIONS = [
    None,
    [],
    "fold",
    7,
    {},
    {"foo": 1},
    {"card": 5},
    {"card": None},
    {"card": "X99"},
    {"card": ["R1"]},
    {"card": "R13"},
    {"card": "R1", "x": 1},
]


@pytest.mark.parametrize("action", BAD_ACTIONS)
def test_malformed_actions_are_refused_clearly(action: object) -> None:
    state = GAME.fold(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]))
    with pytest.raises(IllegalAction) as info:
        GAME.act(state, 0, action)  # type: ignore[arg-type]
    assert info.value.msgid and str(info.value)


def test_a_card_not_in_hand_is_refused() -> None:
    state = GAME.fold(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]))
    with pytest.raises(IllegalAction, match="You do not hold Blue 1"):
        GAME.act(state, 0, {"card": "B1"})


def test_a_seat_out_of_turn_or_out_of_range_is_refused() -> None:
    state = GAME.fold(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]))
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.act(state, 1, {"card": "B1"})
    with pytest.raises(IllegalAction, match="no seat"):
        GAME.act(state, 5, {"card": "R7"})


def test_act_never_mutates_the_state() -> None:
    state = GAME.fold(start(3, deck=deck_of(*SIDES_HANDS), dice=[[[1, 2], [3, 4], [5, 6]]]))
    before = repr(state)
    GAME.act(state, 0, {"card": "R7"})
    assert repr(state) == before and state.hands[0] == tuple(SIDES_HANDS[0]) and state.trick == ()


def test_options_are_validated() -> None:
    assert GAME.default_options == {"trump": False, "open_history": False, "deck": None, "dice": None}
    assert get_game("double_side") is GAME and GAME.seat_counts == (3, 4)
    with pytest.raises(ValueError, match="unknown option"):
        start(3, house_rule=True)
    for seats in (2, 5):
        with pytest.raises(ValueError, match="3 or 4 players"):
            start(seats)
    with pytest.raises(ValueError, match="trump"):
        start(3, trump="yes")
    with pytest.raises(ValueError, match="open_history"):
        start(3, open_history=1)


@pytest.mark.parametrize(
    "deck",
    [
        DECK[:47],
        [*DECK[:47], "R1"],
        [*DECK[:47], "Z1"],
        [list(DECK), list(DECK[:40])],
        [],
        "R1",
        [list(DECK), 5],
    ],
)
def test_bad_deck_option_is_refused(deck: object) -> None:
    with pytest.raises(ValueError, match="deck"):
        start(3, deck=deck)


# ------------------------------------------------------------------------------ describe


def test_describe_lines() -> None:
    dice = [[[2, 5], [1, 3], [6, 4]], [[2, 5], [1, 3], [6, 4]]]
    events = start(3, deck=[deck_of(*SIDES_HANDS)] * 2, dice=dice)
    events = play_round(events, SIDES_LATE)
    lines = {e["type"]: [] for e in events}
    for e in events:
        msgid, params = GAME.describe(e, 0, NAMES)
        lines[e["type"]].append(plain((msgid, params)))
    assert lines["RoundDealt"][0] == "Round 1 dealt; dice: Ann 2+5, Bo 1+3, Cy 6+4; Bo leads"
    assert lines["CardPlayed"][0] == "Bo played Blue 1"
    assert lines["HandsTurnedOver"] == ["Hands turned over: white numbers from now on"]
    trick7 = find(events, "TrickWon", trick=7)
    colour = dict(R="Red", B="Blue", G="Green", Y="Yellow")[trick7["colour"]]
    assert plain(GAME.describe(trick7, None, NAMES)) == (
        f"{NAMES[trick7['winner']]} wins trick 7 with {colour} {trick7['number']} (white side): "
        f"highest {colour}"
    )
    scored = find(events, "RoundScored")
    msgid, params = GAME.describe({**scored, "scorers": [0, 2], "points": [2, 0, 1]}, None, NAMES)
    assert plain((msgid, params)) == "Round 1: Ann and Cy score; points Ann 2, Bo 0, Cy 1"


def test_describe_trick_trump_and_game_end() -> None:
    events = act(trump_game([[1, 2], [3, 4], [5, 6]]), 2, {"trump": "G"})
    msgid, params = GAME.describe(events[-1], 1, NAMES)
    assert plain((msgid, params)) == "Cy chose Green as trump"
    for seat, card in ((0, "R12"), (1, "G1"), (2, "R4")):
        events = act(events, seat, {"card": card})
    msgid, params = GAME.describe(events[-1], None, NAMES)
    assert plain((msgid, params)) == "Bo wins trick 1 with Green 1: highest trump (Green)"
    for seat, card in ((1, "B1"), (2, "B12"), (0, "G7")):
        events = act(events, seat, {"card": card})
    msgid, params = GAME.describe(events[-1], None, NAMES)
    assert plain((msgid, params)) == "Ann wins trick 2 with Green 7: highest trump (Green)"
    ended = GAME.event("GameEnded", winners=[1, 2], points=[0, 2, 2], rounds=3)
    assert plain(GAME.describe(ended, None, NAMES)) == "Bo and Cy share the win"
    ended = GAME.event("GameEnded", winners=[3], points=[0, 1, 1, 2], rounds=3)
    assert plain(GAME.describe(ended, 3, NAMES)) == "Di wins the game"


def test_describe_of_a_deal_names_no_card() -> None:
    events = start(4, seed=11, trump=True)
    for seat in (None, 0, 1, 2, 3):
        msgid, params = GAME.describe(events[1], seat, NAMES)
        assert not words(params) and "trump" in msgid
    msgid, params = GAME.describe(find(six_round([[1, 2], [4, 5], [3, 5]]), "RoundScored"), None, NAMES)
    assert plain((msgid, params)) == "Round 1: nobody scores; points Ann 0, Bo 0, Cy 0"
