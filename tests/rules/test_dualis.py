"""Duālis rules: every rule and worked example of the rulebooks (seeds 000/002) and RULINGS.md §1,
plus random legal games over every option combination checking the game's invariants."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from rules import IllegalAction, get_game
from rules.dualis import GAME
from rules.dualis.cards import (
    CARD_INFO,
    CARDS,
    PlayedCard,
    iso_game_over,
    round_winners,
    score_round,
    side_score,
    trick_outcome,
    trick_rank,
)
from rules.messages import plain
from rules.rng import SeededRandom

NAMES = ["Ann", "Bo", "Cy", "Di"]
CARD_WORD = re.compile(r"[SM]\d{1,2}[RB]")
CARD_SET = frozenset(CARDS)


# ----------------------------------------------------------------------------------- helpers


class Table:
    """A game driven through the contract: `play` acts for the seat to move and folds the events."""

    def __init__(self, seats: int = 4, seed: int = 1, **options: Any) -> None:
        self.events = GAME.start(seed, seats, options)
        self.state = GAME.fold(self.events)

    def play(self, seat: int, card: str, coin: bool = False) -> list[dict[str, Any]]:
        """Play a card for `seat` (which must be the one to act); returns the new events."""
        assert GAME.to_act(self.state) == frozenset({seat})
        action: dict[str, Any] = {"card": card, "coin": True} if coin else {"card": card}
        new = GAME.act(self.state, seat, action)
        self.events = self.events + new
        for event in new:
            self.state = GAME.apply(self.state, event)
        return new

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The logged events of one type."""
        return [e for e in self.events if e["type"] == kind]


def build_deck(wanted: list[list[str]], size: int = 13, only_moons: tuple[int, ...] = ()) -> list[str]:
    """A deck (top first) dealing each seat its wanted cards, filled up in card order; seats in
    `only_moons` get Moons only. The leftover cards end the deck (set aside when not dealt)."""
    taken = {c for hand in wanted for c in hand}
    spare = [c for c in CARDS if c not in taken]
    hands = []
    for seat, hand in enumerate(wanted):
        fill = [c for c in spare if c[0] == "M"] if seat in only_moons else spare
        extra = fill[: size - len(hand)]
        spare = [c for c in spare if c not in extra]
        hands.append(hand + extra)
    return [c for hand in hands for c in hand] + spare


def example_table() -> Table:
    """The rulebook's example position: Ann (A) leads trick 3 with the centre at 5 Red / 4 Blue,
    reached by real coin plays in tricks 1 and 2; Cy (C) holds no Stars."""
    deck = build_deck(
        [["M13R", "M12R", "S2R"], ["M1R", "M4B", "S9B"], ["M2B", "M5B", "M7R"], ["M3B", "M6B", "S5B"]],
        only_moons=(2,),
    )
    table = Table(deck=deck, first_leader=0)
    # Trick 1: two Blue and two Red coins taken → 5/5, no trump, Ann's Moon 13 is highest.
    table.play(0, "M13R", coin=True)
    table.play(1, "M1R", coin=True)
    table.play(2, "M2B", coin=True)
    table.play(3, "M3B", coin=True)
    # Trick 2: Ann takes a Blue coin → 5/4, Red trump but no Red card; Moon 12 is highest.
    table.play(0, "M12R", coin=True)
    table.play(1, "M4B")
    table.play(2, "M5B")
    table.play(3, "M6B")
    return table


def one_trick(
    plays: list[tuple[str, bool]], high_low: bool = False, wanted: list[list[str]] | None = None
) -> Table:
    """A table where seats 0-3 play the given (card, coin) pairs as the first trick, Ann leading."""
    deck = build_deck(wanted or [[card] for card, _ in plays])
    table = Table(deck=deck, first_leader=0, high_low=high_low)
    for seat, (card, coin) in enumerate(plays):
        table.play(seat, card, coin)
    return table


def last_won(table: Table) -> dict[str, Any]:
    """The most recent TrickWon event."""
    return table.of_type("TrickWon")[-1]


def view_cards(view: dict[str, Any]) -> set[str]:
    """Every card code written anywhere in a view."""
    return set(CARD_WORD.findall(json.dumps(view))) & CARD_SET


def random_game(seed: int, seats: int = 4, coins: bool = True, **options: Any) -> Table:
    """A whole game of random legal plays (without coins if `coins` is false)."""
    table = Table(seats=seats, seed=seed, **options)
    rng = random.Random(seed)
    while GAME.result(table.state) is None:
        seat = next(iter(GAME.to_act(table.state)))
        actions = [a for a in GAME.legal_actions(table.state, seat) if coins or not a.get("coin")]
        table.play(seat, **rng.choice(actions))
    return table


# ------------------------------------------------------------------------------ setup, options


def test_registered_under_its_name_with_seat_counts() -> None:
    assert get_game("dualis") is GAME
    assert GAME.name == "dualis"
    assert set(GAME.seat_counts) == {3, 4}


def test_default_options_are_exactly_the_documented_ones() -> None:
    assert GAME.default_options == {
        "short": False,
        "high_low": False,
        "iso": False,
        "open_history": False,
        "first_leader": None,
        "deck": None,
    }


def test_game_started_records_seed_seats_and_full_options() -> None:
    first = GAME.start(42, 4, {"high_low": True})[0]
    assert first["type"] == "GameStarted" and first["v"] == 1
    assert first["seed"] == 42 and first["seats"] == 4
    assert first["options"] == {**GAME.default_options, "high_low": True}


def test_deck_has_52_distinct_cards_in_two_suits_and_colours() -> None:
    assert len(set(CARDS)) == 52
    assert {CARD_INFO[c][0] for c in CARDS} == {"S", "M"}
    assert {CARD_INFO[c][2] for c in CARDS} == {"R", "B"}
    assert CARD_INFO["M13R"] == ("M", 13, "R") and CARD_INFO["S9B"] == ("S", 9, "B")


def test_standard_game_deals_13_cards_each_and_7_coins_of_each_colour() -> None:
    dealt = GAME.start(3, 4)[1]
    assert dealt["type"] == "RoundDealt" and dealt["round"] == 1
    assert [len(h) for h in dealt["hands"]] == [13] * 4
    assert dealt["set_aside"] == []
    assert sorted(c for h in dealt["hands"] for c in h) == sorted(CARDS)
    assert dealt["coins"] == {"R": 7, "B": 7}


def test_short_game_deals_9_each_sets_16_aside_and_uses_5_coins_per_colour() -> None:
    dealt = GAME.start(3, 4, {"short": True})[1]
    assert [len(h) for h in dealt["hands"]] == [9] * 4
    assert len(dealt["set_aside"]) == 16
    assert dealt["coins"] == {"R": 5, "B": 5}
    assert sorted(c for h in [*dealt["hands"], dealt["set_aside"]] for c in h) == sorted(CARDS)


@pytest.mark.parametrize(
    ("seats", "short", "hand", "aside", "coins"),
    [(3, False, 13, 13, 7), (4, False, 13, 0, 7), (3, True, 9, 25, 5), (4, True, 9, 16, 5)],
)
def test_iso_play_deals_individual_hands_and_sets_the_rest_aside(
    seats: int, short: bool, hand: int, aside: int, coins: int
) -> None:
    dealt = GAME.start(5, seats, {"iso": True, "short": short})[1]
    assert [len(h) for h in dealt["hands"]] == [hand] * seats
    assert len(dealt["set_aside"]) == aside
    assert dealt["coins"] == {"R": coins, "B": coins}


@pytest.mark.parametrize(
    ("seats", "options"),
    [(3, {}), (5, {}), (2, {"iso": True}), (5, {"iso": True}), (3, {"high_low": True})],
)
def test_wrong_seat_counts_are_refused(seats: int, options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="played by"):
        GAME.start(1, seats, options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"trump": True}, "unknown option"),
        ({"short": "yes"}, "true or false"),
        ({"iso": 1}, "true or false"),
        ({"open_history": None}, "true or false"),
        ({"first_leader": 4}, "first_leader"),
        ({"first_leader": -1}, "first_leader"),
        ({"first_leader": True}, "first_leader"),
        ({"first_leader": "0"}, "first_leader"),
        ({"deck": CARDS[:51]}, "must hold the game's 52 cards"),
        ({"deck": [*CARDS[:51], CARDS[0]]}, "must hold the game's 52 cards"),
        ({"deck": [*CARDS, "S14R"]}, "unknown: S14R"),
        ({"deck": [*CARDS[:51], "X1R"]}, "unknown: X1R"),
        ({"deck": []}, "list of card codes"),
        ({"deck": "S1R"}, "list of card codes"),
        ({"deck": [list(CARDS), list(CARDS[1:])]}, "deck 2 must hold"),
        ({"deck": [list(CARDS), 5]}, "deck 2 is not a list of card codes"),
    ],
)
def test_bad_options_are_refused_with_a_clear_value_error(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.start(1, 4, options)


def test_deck_option_deals_consecutive_blocks_in_seat_order() -> None:
    deck = list(reversed(CARDS))
    dealt = GAME.start(9, 4, {"deck": deck})[1]
    for seat in range(4):
        assert set(dealt["hands"][seat]) == set(deck[13 * seat : 13 * seat + 13])


def test_short_deck_option_sets_aside_the_cards_after_the_hands() -> None:
    deck = list(CARDS)
    dealt = GAME.start(9, 4, {"deck": deck, "short": True})[1]
    assert set(dealt["hands"][3]) == set(deck[27:36])
    assert set(dealt["set_aside"]) == set(deck[36:])


def test_deck_list_of_lists_fixes_the_first_rounds_then_the_seed_shuffles() -> None:
    first, second = list(CARDS), list(reversed(CARDS))
    for seed in range(20):  # a game that lasts three rounds
        table = random_game(seed, deck=[first, second], first_leader=0)
        dealt = table.of_type("RoundDealt")
        if len(dealt) == 3:
            break
    assert len(dealt) == 3
    assert dealt[0]["hands"][0] == first[:13] and dealt[0]["set_aside"] == []
    assert set(dealt[1]["hands"][0]) == set(second[:13])
    shuffled = SeededRandom(seed, "deal", 3).shuffled(CARDS)
    assert [set(h) for h in dealt[2]["hands"]] == [set(shuffled[13 * i : 13 * i + 13]) for i in range(4)]


def test_the_same_seed_deals_the_same_and_another_seed_differently() -> None:
    assert GAME.start(7, 4) == GAME.start(7, 4)
    assert GAME.start(7, 4)[1]["hands"] != GAME.start(8, 4)[1]["hands"]


def test_host_picks_the_first_leader() -> None:
    for leader in range(4):
        table = Table(first_leader=leader)
        assert table.of_type("RoundDealt")[0]["leader"] == leader
        assert GAME.to_act(table.state) == frozenset({leader})


def test_first_leader_is_drawn_from_the_seed_when_not_picked() -> None:
    leaders = {GAME.start(seed, 4)[1]["leader"] for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert GAME.start(5, 4)[1]["leader"] == GAME.start(5, 4)[1]["leader"]


# ----------------------------------------------------------------------------- playing cards


def test_leader_may_play_any_card_with_or_without_a_coin() -> None:
    table = Table(first_leader=2)
    legal = GAME.legal_actions(table.state, 2)
    hand = table.state.hands[2]
    assert {a["card"] for a in legal} == set(hand)
    assert {a["card"] for a in legal if a.get("coin")} == set(hand)
    assert GAME.legal_actions(table.state, 0) == []


def test_must_follow_the_led_suit_whatever_its_colour() -> None:
    deck = build_deck([["S2R"], ["S9B", "S3R", "M1R", "M2B"]])
    table = Table(deck=deck, first_leader=0)
    table.play(0, "S2R")
    cards = {a["card"] for a in GAME.legal_actions(table.state, 1)}
    assert cards == {c for c in table.state.hands[1] if c[0] == "S"}
    assert "S9B" in cards  # a Blue Star follows a Red Star lead
    with pytest.raises(IllegalAction, match="follow suit: play a Star"):
        GAME.act(table.state, 1, {"card": "M1R"})


def test_without_the_led_suit_any_card_may_be_played() -> None:
    deck = build_deck([["S2R"], [], ["M7R"]], only_moons=(2,))
    table = Table(deck=deck, first_leader=0)
    table.play(0, "S2R")
    table.play(1, next(c for c in table.state.hands[1] if c[0] == "S"))
    assert {a["card"] for a in GAME.legal_actions(table.state, 2)} == set(table.state.hands[2])


def test_a_coin_changes_the_cards_colour_and_the_centre_and_counts_for_its_placer() -> None:
    table = Table(deck=build_deck([["S5B"]]), first_leader=0)
    new = table.play(0, "S5B", coin=True)
    assert new[0] == {
        "type": "CardPlayed",
        "v": 1,
        "round": 1,
        "trick": 1,
        "seat": 0,
        "card": "S5B",
        "coin": True,
        "colour": "R",
    }
    assert table.state.centre == (6, 7)
    assert table.state.coins[0] == (1, 0)
    view = GAME.view(table.state, None)
    assert view["trick"]["plays"][0] == {
        "seat": 0,
        "card": "S5B",
        "suit": "S",
        "number": 5,
        "printed_colour": "B",
        "colour": "R",
        "coin": True,
    }
    assert view["players"][0]["coins"] == 1 and view["sides"][0]["coins"] == 1


def test_coin_false_is_accepted_as_a_plain_play_but_never_listed() -> None:
    table = Table(first_leader=0)
    card = table.state.hands[0][0]
    assert {"card": card, "coin": False} not in GAME.legal_actions(table.state, 0)
    assert GAME.act(table.state, 0, {"card": card, "coin": False}) == GAME.act(table.state, 0, {"card": card})


def test_a_coin_is_refused_when_none_of_that_colour_is_left() -> None:
    deck = build_deck([["S13R", "S12R"], ["S1R", "S4R", "S6B"], ["S2R"], ["S3R"]], size=9)
    table = Table(deck=deck, first_leader=0, short=True)
    for seat, card in enumerate(["S13R", "S1R", "S2R", "S3R"]):
        table.play(seat, card, coin=True)  # four Blue coins gone: 5 Red / 1 Blue
    assert last_won(table)["winner"] == 0
    table.play(0, "S12R", coin=True)  # the last Blue coin
    assert table.state.centre == (5, 0)
    legal = GAME.legal_actions(table.state, 1)
    assert {"card": "S4R", "coin": True} not in legal and {"card": "S4R"} in legal
    assert {"card": "S6B", "coin": True} in legal  # Red coins are still there
    with pytest.raises(IllegalAction, match="No Blue coin is left"):
        GAME.act(table.state, 1, {"card": "S4R", "coin": True})


def test_at_most_one_coin_per_card_and_only_the_opposite_colour() -> None:
    table = Table(first_leader=0)
    card = table.state.hands[0][0]
    for bad in ({"card": card, "coin": 2}, {"card": card, "coins": 2}, {"card": card, "coin": "R"}):
        with pytest.raises(IllegalAction):
            GAME.act(table.state, 0, bad)
    colour = GAME.act(table.state, 0, {"card": card, "coin": True})[0]["colour"]
    assert colour != CARD_INFO[card][2]


# ---------------------------------------------------------------------------------- winning


def test_rulebook_example_trick_no_trump_after_ds_coin_so_b_wins_with_star_9() -> None:
    table = example_table()
    assert table.state.centre == (5, 4)  # "five Red and four Blue Bidding Coins"
    assert GAME.to_act(table.state) == frozenset({0})
    assert not any(c[0] == "S" for c in table.state.hands[2])  # C has no Stars
    table.play(0, "S2R")
    table.play(1, "S9B")
    table.play(2, "M7R")
    # Red is trump before D plays: C's Moon 7 Red would win it.
    assert GAME.view(table.state, None)["trump_now"] == "R"
    assert GAME.view(table.state, None)["trick"]["winning_now"] == {"seat": 2, "card": "M7R"}
    d_choice = next(c for c in GAME.view(table.state, 3)["choices"] if c["card"] == "S5B" and c["coin"])
    assert d_choice["effective_colour"] == "R"
    assert d_choice["centre_after"] == {"R": 4, "B": 4}
    assert d_choice["trump_now"] is None
    new = table.play(3, "S5B", coin=True)
    won = new[-1]
    assert won["type"] == "TrickWon"
    assert (won["winner"], won["card"], won["trump"], won["reason"]) == (1, "S9B", None, "suit")
    assert won["centre"] == {"R": 4, "B": 4}
    assert won["plays"][3] == {
        "seat": 3,
        "card": "S5B",
        "suit": "S",
        "number": 5,
        "printed_colour": "B",
        "colour": "R",
        "coin": True,
    }
    assert table.state.coins[3] == (2, 0)  # D collects the coin (one from trick 1 too)
    assert GAME.to_act(table.state) == frozenset({1})  # the winner leads next


def test_trump_is_read_from_the_centre_at_the_end_of_the_trick() -> None:
    # Ann's coin makes Red trump for a moment; Di's coin evens the centre again.
    table = one_trick([("S2R", True), ("S9R", False), ("S1B", False), ("S5B", True)])
    won = last_won(table)
    assert won["trump"] is None and won["winner"] == 1


def test_strongest_trump_card_wins_whatever_its_suit() -> None:
    # Bo's coin leaves 6 Red / 7 Blue: Blue is trump; Cy's Blue Moon beats the Stars.
    table = one_trick(
        [("S12R", False), ("S2B", True), ("M3B", False), ("M1B", False)],
        wanted=[["S12R"], ["S2B"], ["M3B"], ["M1B"]],
    )
    won = last_won(table)
    assert won["trump"] == "B" and won["reason"] == "trump"
    assert (won["winner"], won["card"]) == (2, "M3B")


def test_a_coin_can_make_a_card_a_trump() -> None:
    # Bo takes a Blue coin with S3R: 7 Red / 6 Blue, Red trump; Bo's card is now Blue, Cy's M4R wins.
    table = one_trick([("S13B", False), ("S3R", True), ("M4R", False), ("S1B", False)])
    won = last_won(table)
    assert won["trump"] == "R" and (won["winner"], won["card"], won["reason"]) == (2, "M4R", "trump")


def test_trump_colour_without_a_trump_card_falls_back_to_the_led_suit() -> None:
    # Ann's coin on S12R makes it Blue and Red trump (7/6), but no Red card is in the trick.
    table = one_trick([("S12R", True), ("S2B", False), ("M13B", False), ("S10B", False)])
    won = last_won(table)
    assert won["trump"] == "R" and won["reason"] == "suit"
    assert (won["winner"], won["card"]) == (0, "S12R")


def test_equal_numbers_in_the_led_suit_the_later_card_wins() -> None:
    table = one_trick([("S7R", False), ("S7B", False), ("S1R", False), ("S2R", False)])
    won = last_won(table)
    assert won["trump"] is None and (won["winner"], won["card"]) == (1, "S7B")


def test_equal_numbers_in_the_trump_colour_the_later_card_wins() -> None:
    # Ann and Cy take Red coins, Di a Blue one: 5 Red / 6 Blue, Blue trump. Bo's S9B and Di's
    # S9R (Blue by its coin) are equal Blue nines: Di's, played later, wins.
    table = one_trick([("S1B", True), ("S9B", False), ("S2B", True), ("S9R", True)])
    won = last_won(table)
    assert won["centre"] == {"R": 5, "B": 6} and won["reason"] == "trump"
    assert (won["winner"], won["card"]) == (3, "S9R")


def test_trick_outcome_function_matches_the_rulebook_example() -> None:
    plays = [
        PlayedCard(seat=0, card="S2R", colour="R"),
        PlayedCard(seat=1, card="S9B", colour="B"),
        PlayedCard(seat=2, card="M7R", colour="R"),
        PlayedCard(seat=3, card="S5B", coin=True, colour="R"),
    ]
    assert trick_outcome(plays, (4, 4), False).winner == 1
    assert trick_outcome(plays, (5, 4), False).winner == 2  # had D not taken the coin


def test_a_tricks_plays_rank_trump_then_led_suit_then_number_in_the_tricks_direction() -> None:
    lead = PlayedCard(seat=0, card="S5B", colour="B")
    rank = trick_rank(lead, (3, 2), high_low=False)  # Red trump (more Red coins), high numbers strong
    blue_star_13 = PlayedCard(seat=1, card="S13B", colour="B")
    red_moon_1 = PlayedCard(seat=2, card="M1R", colour="R")
    blue_moon_13 = PlayedCard(seat=3, card="M13B", colour="B")
    assert rank(red_moon_1) > rank(blue_star_13) > rank(lead) > rank(blue_moon_13)
    low = trick_rank(PlayedCard(seat=0, card="S5B", colour="B"), (2, 2), high_low=True)  # Blue lead: low
    assert low(PlayedCard(seat=1, card="S1R", colour="R")) > low(PlayedCard(seat=2, card="S13R", colour="R"))
    # Of equal ranks the later play takes the trick: the same number of the led suit, other colour.
    plays = [lead, PlayedCard(seat=1, card="S5R", colour="R")]
    no_trump = trick_rank(lead, (2, 2), high_low=False)
    assert no_trump(plays[0]) == no_trump(plays[1])
    assert trick_outcome(plays, (2, 2), False).winner == 1


# ---------------------------------------------------------------------------------- High-Low


def test_high_low_red_lead_makes_high_numbers_strong() -> None:
    table = one_trick([("S5R", False), ("S2B", True), ("S12R", True), ("S9B", False)], high_low=True)
    won = last_won(table)
    assert won["direction"] == "high" and won["trump"] is None
    assert (won["winner"], won["card"]) == (2, "S12R")


def test_high_low_coin_on_the_lead_card_flips_to_low() -> None:
    table = one_trick([("S5R", True), ("S2B", True), ("S12R", False), ("S9B", False)], high_low=True)
    won = last_won(table)
    assert won["direction"] == "low" and won["trump"] is None
    assert (won["winner"], won["card"]) == (1, "S2B")


def test_high_low_direction_also_applies_to_the_trump_comparison() -> None:
    # Blue lead (after the coin) → low; 7 Red / 6 Blue → Red trump; the lower Red card wins.
    table = one_trick([("S5R", True), ("S2B", False), ("S12R", False), ("S9R", False)], high_low=True)
    won = last_won(table)
    assert (won["direction"], won["trump"], won["reason"]) == ("low", "R", "trump")
    assert (won["winner"], won["card"]) == (3, "S9R")


def test_without_high_low_the_same_plays_are_won_high() -> None:
    table = one_trick([("S5R", True), ("S2B", False), ("S12R", False), ("S9R", False)])
    won = last_won(table)
    assert (won["direction"], won["winner"], won["card"]) == ("high", 2, "S12R")


def test_high_low_equal_numbers_still_later_card_wins() -> None:
    table = one_trick([("S3B", False), ("S3R", False), ("S9R", False), ("S4B", False)], high_low=True)
    won = last_won(table)
    assert (won["direction"], won["winner"], won["card"]) == ("low", 1, "S3R")


def test_view_shows_the_high_low_direction_of_the_trick_in_progress() -> None:
    table = Table(deck=build_deck([["S5R"]]), first_leader=0, high_low=True)
    choices = GAME.view(table.state, 0)["choices"]
    assert {(c["coin"], c["direction"]) for c in choices if c["card"] == "S5R"} == {
        (False, "high"),
        (True, "low"),
    }
    table.play(0, "S5R", coin=True)
    assert GAME.view(table.state, 1)["trick"]["direction"] == "low"
    assert GAME.view(table.state, 1)["options"]["high_low"] is True


# ----------------------------------------------------------------------------------- scoring


def test_side_score_is_tricks_when_equal_to_coins_else_minus_the_difference() -> None:
    assert side_score(5, 5) == 5
    assert side_score(0, 0) == 0
    assert side_score(8, 7) == -1
    assert side_score(2, 6) == -4


def test_rulebook_example_scoring_b_and_d_win_the_round() -> None:
    tricks = [2, 2, 6, 3]  # A, B, C, D
    coins = [2, 4, 5, 1]
    side_tricks, side_coins, scores, winners = score_round(((0, 2), (1, 3)), tricks, coins, iso=False)
    assert side_tricks == [8, 5] and side_coins == [7, 5]
    assert scores == [-1, 5]
    assert winners == (1,)


def test_partnership_equal_scores_are_broken_by_more_tricks() -> None:
    assert round_winners([-2, -2], [6, 7], iso=False) == (1,)
    assert round_winners([-2, -2], [5, 4], iso=False) == (0,)


def test_iso_round_winners_are_the_highest_scores_shared() -> None:
    assert round_winners([3, -1, 3], [3, 5, 3], iso=True) == (0, 2)
    assert round_winners([-4, 0, -1, -2], [4, 0, 1, 2], iso=True) == (1,)


def test_iso_game_ends_on_a_gap_of_seven_or_after_four_rounds() -> None:
    assert not iso_game_over([0, -6, 0], 1)
    assert iso_game_over([0, -7, 0], 1)
    assert iso_game_over([5, -3, 1, 0], 2)
    assert not iso_game_over([1, 2, 3], 3)
    assert iso_game_over([1, 2, 3], 4)


def test_round_scored_counts_tricks_and_coins_and_the_match_goes_to_two_round_wins() -> None:
    for seed in range(6):
        table = random_game(seed)
        scored = table.of_type("RoundScored")
        wins = [0, 0]
        for event in scored:
            assert sum(event["seat_tricks"]) == 13
            assert event["tricks"] == [
                event["seat_tricks"][0] + event["seat_tricks"][2],
                event["seat_tricks"][1] + event["seat_tricks"][3],
            ]
            assert event["scores"] == [
                side_score(t, c) for t, c in zip(event["tricks"], event["coins"], strict=True)
            ]
            wins[event["winners"][0]] += 1
            assert event["match"] == wins
        assert max(wins) == 2 and sorted(wins)[0] < 2 and len(scored) == sum(wins)
        result = GAME.result(table.state)
        team = wins.index(2)
        assert result["winners"] == [team, team + 2]
        assert result["scores"] == wins and result["mode"] == "partnership"


def test_each_round_is_redealt_with_fresh_coins_and_the_last_trick_winner_leads() -> None:
    table = random_game(3)
    dealt = table.of_type("RoundDealt")
    assert len(dealt) >= 2
    for number, deal in enumerate(dealt[1:], start=2):
        last = [e for e in table.of_type("TrickWon") if e["round"] == number - 1][-1]
        assert last["trick"] == 13
        assert deal["round"] == number and deal["leader"] == last["winner"]
        assert deal["coins"] == {"R": 7, "B": 7}
        at_deal = GAME.fold(table.events[: table.events.index(deal) + 1])
        assert GAME.to_act(at_deal) == frozenset({last["winner"]})
        assert at_deal.centre == (7, 7) and at_deal.coins == ((0, 0),) * 4 and at_deal.won == (0,) * 4
        assert sorted(c for h in deal["hands"] for c in h) == sorted(CARDS)


def test_iso_game_ends_at_once_on_a_seven_point_gap_and_the_tied_leaders_share_the_win() -> None:
    # Ann holds the 13 Red Stars, Bo and Cy only Moons: without coins Ann wins all 13 tricks and
    # scores −13, Bo and Cy score 0 each: a gap of 13 ends the game after round 1, shared win.
    deck = [c for c in CARDS if c[0] == "S" and c[-1] == "R"] + [c for c in CARDS if c[0] == "M"]
    deck += [c for c in CARDS if c[0] == "S" and c[-1] == "B"]
    table = Table(seats=3, deck=deck, first_leader=0, iso=True)
    while GAME.result(table.state) is None:
        seat = next(iter(GAME.to_act(table.state)))
        table.play(seat, GAME.legal_actions(table.state, seat)[0]["card"])
    scored = table.of_type("RoundScored")
    assert len(scored) == 1
    assert scored[0]["scores"] == [-13, 0, 0] and scored[0]["winners"] == [1, 2]
    result = GAME.result(table.state)
    assert result["winners"] == [1, 2] and result["scores"] == [-13, 0, 0]
    assert table.events[-1]["type"] == "GameEnded"
    assert said(table.events[-1]) == "Game over: Bo and Cy share the win with 0 points (Ann −13, Bo 0, Cy 0)."


@pytest.mark.parametrize("seats", [3, 4])
def test_iso_game_ends_exactly_on_the_gap_or_after_four_rounds(seats: int) -> None:
    by_rounds = by_gap = 0
    for seed in range(25):
        table = random_game(seed, seats=seats, coins=seed % 2 == 0, iso=True)
        scored = table.of_type("RoundScored")
        totals = [0] * seats
        for number, event in enumerate(scored, start=1):
            totals = [t + s for t, s in zip(totals, event["scores"], strict=True)]
            assert event["match"] == totals
            gap = max(totals) - min(totals)
            assert (gap >= 7 or number == 4) == (number == len(scored))
        by_gap += len(scored) < 4
        by_rounds += len(scored) == 4 and max(totals) - min(totals) < 7
        top = max(totals)
        assert GAME.result(table.state)["winners"] == [s for s in range(seats) if totals[s] == top]
    assert by_gap and by_rounds  # both endings occurred


# ------------------------------------------------------------------------------------ views


def test_view_shows_only_the_seats_own_hand_grouped_by_suit() -> None:
    table = Table(seed=4, first_leader=0)
    view = GAME.view(table.state, 1)
    assert view["seat"] == 1 and view["hand"] == list(table.state.hands[1])
    groups = view["hand_by_suit"]
    assert [g["suit"] for g in groups] == ["S", "M"]
    assert [c["card"] for g in groups for c in g["cards"]] == view["hand"]
    assert all(not c["playable"] for g in groups for c in g["cards"])  # not Bo's turn
    others = {c for s in (0, 2, 3) for c in table.state.hands[s]}
    assert not view_cards(view) & others
    spectator = GAME.view(table.state, None)
    assert spectator["hand"] is None and spectator["choices"] == [] and not view_cards(spectator)
    assert "seed" not in json.dumps(spectator) and "deck" not in spectator["options"]


def test_view_never_shows_set_aside_cards_until_the_game_ends() -> None:
    table = random_game(2, short=True)
    state = GAME.fold(table.events[:2])
    aside = set(state.set_aside)
    assert len(aside) == 16
    for seat in (None, 0, 1, 2, 3):
        assert not view_cards(GAME.view(state, seat)) & aside
    final = GAME.view(table.state, 0)
    assert set(final["set_aside"]) == set(table.state.set_aside) and final["phase"] == "over"


def test_hand_is_sorted_stars_then_moons_by_number_red_first() -> None:
    table = Table(seed=5)
    for hand in table.state.hands:
        assert list(hand) == sorted(hand, key=lambda c: (c[0] != "S", CARD_INFO[c][1], c[-1] != "R"))


def test_choices_describe_every_legal_action_and_what_its_coin_would_do() -> None:
    table = Table(deck=build_deck([["S5B", "M2R"]]), first_leader=0)
    choices = GAME.view(table.state, 0)["choices"]
    assert [(c["card"], c["coin"]) for c in choices] == [
        (a["card"], a.get("coin", False)) for a in GAME.legal_actions(table.state, 0)
    ]
    plain = next(c for c in choices if c["card"] == "S5B" and not c["coin"])
    coined = next(c for c in choices if c["card"] == "S5B" and c["coin"])
    assert (plain["effective_colour"], plain["centre_after"], plain["trump_now"]) == (
        "B",
        {"R": 7, "B": 7},
        None,
    )
    assert (coined["effective_colour"], coined["centre_after"], coined["trump_now"]) == (
        "R",
        {"R": 6, "B": 7},
        "B",
    )
    assert plain["wins_now"] and plain["printed_colour"] == "B" and plain["number"] == 5
    assert GAME.view(table.state, 1)["choices"] == []


def test_view_shows_side_counts_and_the_score_if_the_round_ended_now() -> None:
    table = example_table()
    view = GAME.view(table.state, 2)
    # Ann won tricks 1-2 and took 2 coins; Cy took 1 → North–South 2 tricks, 3 coins → −1.
    assert view["sides"][0] == {
        "side": 0,
        "seats": [0, 2],
        "tricks": 2,
        "coins": 3,
        "score_now": -1,
        "round_wins": 0,
        "total": None,
    }
    assert (
        view["sides"][1]["tricks"] == 0
        and view["sides"][1]["coins"] == 2
        and view["sides"][1]["score_now"] == -2
    )
    assert [p["tricks"] for p in view["players"]] == [2, 0, 0, 0]
    assert [p["coins"] for p in view["players"]] == [2, 1, 1, 1]
    assert view["players"][2]["coins_by_colour"] == {"R": 1, "B": 0}
    assert view["centre"] == {"R": 5, "B": 4} and view["trump_now"] == "R"
    assert view["scores"] == [0, 0] and view["mode"] == "partnership"


def test_last_trick_is_shown_with_its_reason_and_earlier_ones_only_with_open_history() -> None:
    closed = example_table()
    view = GAME.view(closed.state, 3)
    assert view["last_trick"]["number"] == 2 and view["last_trick"]["winner"] == 0
    assert view["last_trick"]["trump"] == "R" and view["last_trick"]["reason"] == "suit"
    assert [t["number"] for t in view["history"]] == [2]
    assert "M13R" not in view_cards(view)  # trick 1 is face down

    deck = build_deck(
        [["M13R", "M12R", "S2R"], ["M1R", "M4B", "S9B"], ["M2B", "M5B", "M7R"], ["M3B", "M6B", "S5B"]],
        only_moons=(2,),
    )
    opened = Table(deck=deck, first_leader=0, open_history=True)
    for step in closed.events[2:]:
        if step["type"] == "CardPlayed":
            opened.play(step["seat"], step["card"], step["coin"])
    assert [t["number"] for t in GAME.view(opened.state, 3)["history"]] == [1, 2]


def test_after_the_game_everything_is_open() -> None:
    table = random_game(8)
    view = GAME.view(table.state, None)
    assert view["phase"] == "over" and view["to_act"] == []
    assert len(view["history"]) == 13 and view["result"] == GAME.result(table.state)
    assert "hands" in view and "set_aside" in view


def test_the_view_states_how_the_game_is_won() -> None:
    goal = GAME.view(Table().state, None)["goal"]
    assert goal == {"rounds_to_win": 2, "iso_rounds": 4, "iso_gap": 7}


def test_round_history_and_match_score_in_the_view() -> None:
    table = random_game(9)
    view = GAME.view(table.state, 0)
    scored = table.of_type("RoundScored")
    assert [r["scores"] for r in view["rounds"]] == [e["scores"] for e in scored]
    assert view["scores"] == scored[-1]["match"]


def test_views_are_plain_json() -> None:
    table = example_table()
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(table.state, seat)
        assert json.loads(json.dumps(view)) == view


# -------------------------------------------------------------------------------- describing


def said(event: dict[str, Any], seat: int | None = None) -> str:
    """The line an event gives a seat, formatted."""
    line = GAME.describe(event, seat, NAMES)
    assert line is not None
    return plain(line)


def test_describe_card_plays_with_and_without_a_coin() -> None:
    table = example_table()
    played = table.play(0, "S2R")[0]
    assert said(played) == "Ann played Star 2 Red."
    table.play(1, "S9B")
    table.play(2, "M7R")
    events = table.play(3, "S5B", coin=True)
    assert said(events[0]) == "Di played Star 5 Blue with a coin (now Red)."
    assert (
        said(events[1])
        == "Bo wins trick 3 with Star 9 Blue: centre 4 Red / 4 Blue, no trump, highest of the led suit."
    )


def test_describe_trick_won_by_trump_and_by_suit_despite_a_trump() -> None:
    assert said(last_won(one_trick([("S13B", False), ("S3R", True), ("M4R", False), ("S1B", False)]))) == (
        "Cy wins trick 1 with Moon 4 Red: centre 7 Red / 6 Blue, Red is trump, highest Red."
    )
    assert said(last_won(one_trick([("S12R", True), ("S2B", False), ("M13B", False), ("S10B", False)]))) == (
        "Ann wins trick 1 with Star 12 Red with a coin, now Blue: centre 7 Red / 6 Blue, Red is trump but "
        "no Red card was played, "
        "highest of the led suit."
    )


def test_a_coin_turned_winner_is_named_in_the_colour_it_won_with() -> None:
    trick = one_trick([("S13B", True), ("S3B", True), ("M8R", True), ("S1B", False)])
    assert said(last_won(trick)) == (
        "Cy wins trick 1 with Moon 8 Red with a coin, now Blue: centre 5 Red / 6 Blue, Blue is trump, "
        "highest Blue."
    )


def test_describe_round_and_game_results() -> None:
    event = {
        "type": "RoundScored",
        "v": 1,
        "round": 1,
        "mode": "partnership",
        "sides": [[0, 2], [1, 3]],
        "seat_tricks": [2, 2, 6, 3],
        "seat_coins": [2, 4, 5, 1],
        "tricks": [8, 5],
        "coins": [7, 5],
        "scores": [-1, 5],
        "winners": [1],
        "match": [0, 1],
    }
    assert said(event) == "Round 1: Ann & Cy −1, Bo & Di +5; Bo & Di win the round."
    table = random_game(4)
    ended = table.events[-1]
    team = ended["winning_sides"][0]
    assert said(ended) == (
        f"Game over: {NAMES[team]} & {NAMES[team + 2]} win 2 rounds to {ended['match'][1 - team]}."
    )


def test_describe_deal_names_the_leader_and_no_cards() -> None:
    events = GAME.start(1, 4, {"first_leader": 2})
    assert said(events[0]) == "A game of Duālis begins: Ann & Cy against Bo & Di."
    for seat in (None, 0, 1):
        line = said(events[1], seat)
        assert line == "Round 1 is dealt; Cy leads." and not CARD_WORD.search(line)


def test_describe_iso_round_shared() -> None:
    event = {
        "type": "RoundScored",
        "v": 1,
        "round": 2,
        "mode": "iso",
        "sides": [[0], [1], [2]],
        "seat_tricks": [3, 5, 5],
        "seat_coins": [3, 4, 5],
        "tricks": [3, 5, 5],
        "coins": [3, 4, 5],
        "scores": [3, -1, 5],
        "winners": [2],
        "match": [3, 0, 7],
    }
    assert said(event) == "Round 2: Ann +3, Bo −1, Cy +5; Cy wins the round."


# ------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "fold",
        7,
        {},
        {"foo": 1},
        {"card": 5},
        {"card": None},
        {"card": "X99"},
        {"card": ["S1R"]},
        {"card": "S1R", "coin": "yes"},
        {"card": "S1R", "coin": None},
        {"card": "S1R", "extra": 1},
    ],
)
def test_malformed_actions_are_refused_with_illegal_action(action: object) -> None:
    table = Table(first_leader=0)
    with pytest.raises(IllegalAction):
        GAME.act(table.state, 0, action)  # type: ignore[arg-type]


def test_playing_out_of_turn_or_a_card_not_held_is_refused() -> None:
    table = Table(first_leader=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.act(table.state, 1, {"card": table.state.hands[1][0]})
    with pytest.raises(IllegalAction, match="do not hold"):
        GAME.act(table.state, 0, {"card": table.state.hands[1][0]})
    with pytest.raises(IllegalAction, match="no seat 7"):
        GAME.act(table.state, 7, {"card": table.state.hands[0][0]})


def test_no_move_after_the_game_is_over() -> None:
    table = random_game(1)
    assert GAME.to_act(table.state) == frozenset()
    assert all(GAME.legal_actions(table.state, s) == [] for s in range(4))
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.act(table.state, 0, {"card": "S1R"})


def test_act_never_mutates_its_state() -> None:
    table = example_table()
    before = repr(table.state)
    for action in GAME.legal_actions(table.state, 0):
        GAME.act(table.state, 0, action)
    assert repr(table.state) == before
