"""The `deck` option every game takes: fixed decks to deal instead of shuffling (tests, puzzles)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def fixed_decks(value: object, cards: Sequence[str], game: str) -> tuple[tuple[str, ...], ...]:
    """The `deck` option as fixed decks, first shuffle first: one deck (a list of card codes, top
    first) or a list of such decks, each holding exactly the game's `cards`. ValueError otherwise."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(
            f"the {game} option deck must be a list of card codes (top first) or a list of such lists"
        )
    decks = [value] if all(isinstance(card, str) for card in value) else list(value)
    wanted = Counter(cards)
    for number, deck in enumerate(decks, start=1):
        if not isinstance(deck, list | tuple) or not all(isinstance(card, str) for card in deck):
            raise ValueError(f"the {game} option deck: deck {number} is not a list of card codes")
        if Counter(deck) != wanted:
            unknown = sorted(set(deck) - set(wanted))
            detail = f" (unknown: {', '.join(unknown)})" if unknown else ""
            raise ValueError(
                f"the {game} option deck: deck {number} must hold the game's {len(cards)} cards{detail}"
            )
    return tuple(tuple(deck) for deck in decks)


def decks_as_json(value: object) -> object:
    """The `deck` option as plain JSON (tuples become lists), its shape kept, for GameStarted."""
    if not isinstance(value, list | tuple):
        return value
    return [card if isinstance(card, str) else list(card) for card in value]
