"""Pure game rules, one package per game, all behind the contract of `rules.game.Game`."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from rules.game import Game
from rules.messages import IllegalAction, Message

GAMES: tuple[str, ...] = ("dualis", "double_side", "dupli", "red_black")


def get_game(name: str) -> Game[Any]:
    """The rules object of a game by its name; ValueError for an unknown one."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(GAMES)}")
    game: Game[Any] = import_module(f"rules.{name}").GAME
    return game


def card_name(game: str, card: str, *how: str | None) -> Message:
    """A card of a game in words for people, by that game's own `card_name`: Duālis takes the colour
    a coin turned the card into (or None), Double Side Play the side in force."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    namer: Callable[..., Message] = import_module(f"rules.{game}").card_name
    return namer(card, *how)


__all__ = ["GAMES", "Game", "IllegalAction", "card_name", "get_game"]
