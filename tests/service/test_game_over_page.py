"""The player page of a finished game: no empty "Your hand" (there is no move left), and in the first
screen the round or war that decided the game, with who won it and the final standing."""

from __future__ import annotations

import random
import re

import pytest
from flask import Flask

from tests.helpers import mails, play_path
from tests.service.replay_games import finish_by_service, new_game

SEATS = {"dualis": 4, "double_side": 3, "dupli": 3, "red_black": 2}
CHAPTER = {"dualis": "Round", "double_side": "Round", "dupli": "War", "red_black": "Round"}


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_game_over_page_shows_the_deciding_round_not_an_empty_hand(sqlite_app: Flask, game: str) -> None:
    rt = sqlite_app.extensions["pbem"]
    with sqlite_app.app_context():
        game_id = new_game(rt, game, SEATS[game], {"short": True} if game == "dualis" else {})
        finish_by_service(rt, game_id, random.Random(1))
        table = rt.read_table(game_id)
        winners = {table.names[seat] for seat in table.result["winners"]}  # type: ignore[index]
    over = next(m for m in mails(sqlite_app, kind="game_over") if m.game_id == game_id and m.seat == 0)
    html = sqlite_app.test_client().get(play_path(over)).get_data(as_text=True)
    assert 'id="hand-heading"' not in html and "Your hand" not in html.split("<details")[0]
    deciding = html.split("data-deciding")[1].split("</section>")[0]
    assert re.search(rf"Decided in {CHAPTER[game]} \d+", deciding), deciding
    assert "★" in deciding and any(name in deciding for name in winners)
    first_screen = html.split("The whole table")[0]
    assert "data-deciding" in first_screen
