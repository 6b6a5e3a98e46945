"""The rules contract's plumbing, written once in rules/game.py and rules/table.py, holds for every
game: a log begins with GameStarted, an unknown event is refused in one wording, and the `deck`
option takes one deck or a list of decks (first shuffle first) with one wording of its errors."""

from __future__ import annotations

import random
import types
import typing

import pytest

from rules import GAMES, get_game
from rules.double_side.cards import DECK as DOUBLE_SIDE_CARDS
from rules.dualis.cards import CARDS as DUALIS_CARDS
from rules.dupli.cards import FULL_DECK as DUPLI_CARDS
from rules.red_black.cards import DECK as RED_BLACK_CARDS

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


SIMPLE = {"str": str, "int": int, "bool": bool, "None": type(None)}


def allowed_types(annotation: object) -> tuple[type, ...]:
    """The runtime types a view field's annotation admits (its top level: list, dict or a scalar)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.NotRequired, typing.Required):
        return allowed_types(typing.get_args(annotation)[0])
    if origin is typing.Union or isinstance(annotation, types.UnionType):
        return tuple(t for arg in typing.get_args(annotation) for t in allowed_types(arg))
    if annotation is type(None) or annotation is None:
        return (type(None),)
    return (origin or annotation,)  # type: ignore[return-value]  # list[Any] -> list, int -> int


def played_states(game: str, seed: int) -> list[object]:
    """Every state of a random game of `game` (a few option combinations), and a forfeited end."""
    rules, rng = get_game(game), random.Random(seed)
    options = {key: rng.random() < 0.5 for key, value in rules.default_options.items() if value is False}
    seats = 4 if game == "dualis" and not options.get("iso") else rng.choice(rules.seat_counts)
    state = rules.fold(rules.start(seed, seats, options))
    states = [state]
    while rules.result(state) is None:
        seat = rng.choice(sorted(rules.to_act(state)))
        for event in rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))):
            state = rules.apply(state, event)
        states.append(state)
    before_end = states[len(states) // 2]
    forfeited = before_end
    for event in rules.table.forfeit(before_end, 0, seats):
        forfeited = rules.apply(forfeited, event)
    return [*states, forfeited]


@pytest.mark.parametrize("game", GAMES)
def test_every_view_has_the_games_declared_shape(game: str) -> None:
    rules = get_game(game)
    shape = typing.get_type_hints(rules.view_shape, include_extras=True)
    # Read from the hints: with postponed annotations, TypedDict's own __required_keys__ miss NotRequired.
    required = {key for key, hint in shape.items() if typing.get_origin(hint) is not typing.NotRequired}
    for seed in range(3):
        for state in played_states(game, seed)[::7]:
            seats = state.seats if hasattr(state, "seats") else 2  # type: ignore[attr-defined]
            views = [rules.view(state, seat) for seat in [None, *range(seats)]] + [rules.open_view(state)]
            for view in views:
                assert required <= set(view) <= set(shape), set(view) ^ set(shape)
                for key, value in view.items():
                    assert isinstance(value, allowed_types(shape[key])), (key, value)
