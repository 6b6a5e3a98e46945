"""The rules contract's plumbing, written once in rules/base.py, holds for every game: a log begins
with GameStarted, an unknown event is refused in one wording, and the `deck` option takes one deck or
a list of decks (first shuffle first) with one wording of its errors."""

from __future__ import annotations

import pytest

from rules import GAMES, get_game
from rules.double_side import DECK as DOUBLE_SIDE_CARDS
from rules.dualis import CARDS as DUALIS_CARDS
from rules.dupli import FULL_DECK as DUPLI_CARDS
from rules.red_black import DECK as RED_BLACK_CARDS

SEATS = {"dualis": 4, "double_side": 4, "dupli": 4, "red_black": 2}
CARDS = {
    "dualis": DUALIS_CARDS,
    "double_side": DOUBLE_SIDE_CARDS,
    "dupli": DUPLI_CARDS,
    "red_black": RED_BLACK_CARDS,
}


@pytest.mark.parametrize("game", GAMES)
def test_a_log_begins_with_game_started_and_unknown_events_are_refused(game: str) -> None:
    rules = get_game(game)
    opening = rules.start(1, SEATS[game], {})
    with pytest.raises(ValueError, match=f"a {game} log must begin with GameStarted, not 'RoundDealt'"):
        rules.apply(None, {"type": "RoundDealt", "v": 1})
    with pytest.raises(ValueError, match=f"unknown {game} event type 'Nonsense'"):
        rules.apply(rules.fold(opening), {"type": "Nonsense", "v": 1})


def first_deal(events: list[dict]) -> dict:
    """The first deal of an opening, as its event records it."""
    return next(e for e in events if e["type"] in ("RoundDealt", "HandsDealt", "DeckShuffled"))


@pytest.mark.parametrize("game", GAMES)
def test_the_deck_option_takes_one_deck_or_a_list_of_decks(game: str) -> None:
    rules = get_game(game)
    cards = sorted(CARDS[game])
    one = first_deal(rules.start(9, SEATS[game], {"deck": cards}))
    listed = first_deal(rules.start(9, SEATS[game], {"deck": [cards, list(reversed(cards))]}))
    seeded = first_deal(rules.start(9, SEATS[game], {}))
    assert one == listed != seeded  # the first deck fixes the first shuffle, whatever the form


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("deck", "wording"),
    [
        ("AS", "must be a list of card codes"),
        ([7, ["AS"]], "deck 1 is not a list of card codes"),
        (["nonsense"], "deck 1 must hold the game's"),
    ],
)
def test_a_bad_deck_option_is_refused_in_one_wording(game: str, deck: object, wording: str) -> None:
    with pytest.raises(ValueError, match=wording):
        get_game(game).start(1, SEATS[game], {"deck": deck})
