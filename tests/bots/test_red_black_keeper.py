"""The Red and Black Duel seat-keeper: camp card, folding only when behind, and a property over random
positions that it never folds while level or ahead in chips."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.red_black.cards import DECK, colour_of
from tests.bots.table import Table

FOLD = {"fold": True}
# Round 1: two throwaway hands. Round 2: seat 0 strong Spades, seat 1 weak Reds.
ROUND_1 = ["2C", "3C", "4C", "5C", "6C", "7C", "2S", "3S", "4S", "5S", "6S", "7S"]
ROUND_2 = ["AS", "KS", "QS", "JS", "10S", "9S", "2H", "2D", "3D", "3H", "4D", "4H"]


def deck_with(*top: str) -> list[str]:
    """A full deck, top first, that starts with these cards (seat 0's six, seat 1's six, the pile)."""
    assert len(set(top)) == len(top)
    return [*top, *(card for card in DECK if card not in top)]


def lost_round(folder_in_round_1: int) -> Table:
    """Round 1 ends at once with a fold (the folder falls 3 chips behind); in round 2 seat 1 (Red)
    has lost two plays to Spades and holds only low Reds, and seat 0 has put its next card down."""
    table = Table.start("red_black", 1, 2, {"deck": deck_with(*ROUND_1, *ROUND_2)})
    table.do(0, {"card": "2C"})
    table.do(1, {"card": "2S"})
    table.do(folder_in_round_1, FOLD)
    script = [(0, "AS"), (1, "2H"), (0, "KS"), (1, "2D"), (0, "QS"), (1, "3D"), (0, "JS")]
    for seat, card in script:
        table.do(seat, {"card": card})
    view = table.view(1)
    assert view["camps"] == ["black", "red"] and view["counts"] == {"red": 0, "black": 2}
    assert table.waiting == [1]
    return table


def test_red_black_folds_a_lost_round_when_behind_in_chips() -> None:
    """Black needs one more winning card, Red three, with the weakest cards: behind, the keeper
    folds and saves its fees."""
    table = lost_round(folder_in_round_1=1)
    mine, theirs = table.view(1)["chips"][1], table.view(1)["chips"][0]
    assert mine < theirs
    assert table.keeper(1) == FOLD


def test_red_black_never_folds_when_ahead_even_in_a_lost_round() -> None:
    """The same lost round, but the keeper leads in chips: it plays on."""
    table = lost_round(folder_in_round_1=0)
    mine, theirs = table.view(1)["chips"][1], table.view(1)["chips"][0]
    assert mine > theirs
    action = table.keeper(1)
    assert action != FOLD and action["card"] in table.view(1)["hand"]


def test_red_black_camp_card_claims_the_colour_of_its_strong_cards() -> None:
    """Five strong Hearts and Diamonds and a lone 2C: the camp card is Red, so its camp is Red."""
    table = Table.start(
        "red_black", 1, 2, {"deck": deck_with("AH", "KD", "QH", "JD", "10H", "2C", *ROUND_1[6:])}
    )
    assert colour_of(table.keeper(0)["card"]) == "red"
    table = Table.start(
        "red_black", 1, 2, {"deck": deck_with("AS", "KC", "QS", "JC", "10S", "2H", *ROUND_1[6:])}
    )
    assert colour_of(table.keeper(0)["card"]) == "black"


def test_red_black_does_not_win_a_play_for_the_other_colour() -> None:
    """Red camp with AS in hand: the Ace would win its play, but for Black. The keeper plays a Red
    card and keeps the Ace back (the round may end before it must be played)."""
    deck = deck_with("KH", "AS", "2H", "3H", "4D", "5D", *ROUND_1[6:])
    table = Table.start("red_black", 2, 2, {"deck": deck})
    table.do(0, {"card": "KH"})
    table.do(1, {"card": "2S"})  # camps: seat 0 Red (its own colour), seat 1 Black
    assert table.view(0)["camps"] == ["red", "black"]
    action = table.keeper(0)
    assert action != FOLD and colour_of(action["card"]) == "red"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), walk=st.integers(0, 2**31 - 1))
def test_red_black_keeper_folds_only_when_behind(seed: int, walk: int) -> None:
    """In random games (the keeper in one seat, a random player in the other), whenever the keeper
    folds, it has fewer chips than its opponent."""
    table = Table.start("red_black", seed, 2)
    rng = random.Random(walk)
    keeper = walk % 2
    while not table.over:
        seat = table.waiting[0]
        if seat == keeper:
            view = table.view(seat)
            action = table.keeper(seat)
            if action == FOLD:
                assert view["chips"][seat] < view["chips"][1 - seat]
        else:
            action = rng.choice(table.legal(seat))
        table.do(seat, action)
