"""Pure game rules, one module per game, all behind the contract of `rules.base.Game`."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from rules.base import Game, IllegalAction

GAMES: tuple[str, ...] = ("dualis", "double_side", "dupli", "red_black")


def get_game(name: str) -> Game[Any]:
    """The rules object of a game by its name; ValueError for an unknown one."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(GAMES)}")
    return import_module(f"rules.{name}").GAME


__all__ = ["GAMES", "Game", "IllegalAction", "get_game"]
