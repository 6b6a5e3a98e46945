"""The rules contract's plumbing, written once in rules/base.py, holds for every game: a log begins
with GameStarted, an unknown event is refused in one wording, and the `deck` option takes one deck or
a list of decks (first shuffle first) with one wording of its errors."""

from __future__ import annotations

import pytest

from rules import GAMES, get_game

SEATS = {"dualis": 4, "double_side": 4, "dupli": 4, "red_black": 2}


@pytest.mark.parametrize("game", GAMES)
def test_a_log_begins_with_game_started_and_unknown_events_are_refused(game: str) -> None:
    rules = get_game(game)
    opening = rules.start(1, SEATS[game], {})
    with pytest.raises(ValueError, match=f"a {game} log must begin with GameStarted, not 'RoundDealt'"):
        rules.apply(None, {"type": "RoundDealt", "v": 1})
    with pytest.raises(ValueError, match=f"unknown {game} event type 'Nonsense'"):
        rules.apply(rules.fold(opening), {"type": "Nonsense", "v": 1})
