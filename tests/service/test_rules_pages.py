"""Each game's rules at hand: goal, a turn, scoring, examples drawn as cards, and a table's options;
linked from the table and from the invitation."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules import GAMES
from service.catalog import entry
from service.play.hosting import Player, create_game
from tests.helpers import mails, play_path

EXAMPLE_CARDS = {
    "dualis": ["S2R", "S9B", "M7R", "S5B"],
    "double_side": ["G3", "R8", "R1", "B12"],
    "dupli": ["drill", "tyranny", "benevolence"],
    "red_black": ["9H", "9D", "5C", "KH", "AD"],
}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_rules_page_with_its_examples_drawn_as_cards(client: FlaskClient, game: str) -> None:
    response = client.get(f"/rules/{game}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f"How to play {entry(game).title}" in html and "Goal" in html and "data-example" in html
    drawn = set(re.findall(r'class="card[^"]*"[^>]*data-card="([^"]+)"', html))
    assert set(EXAMPLE_CARDS[game]) <= drawn
    assert "Options a table may choose" in html


def test_a_tables_link_shows_that_tables_options(app: Flask, client: FlaskClient) -> None:
    players = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy", "Di")]
    create_game(app.extensions["pbem"], "dualis", players, players[0], {"short": True}, seed=2)
    invitation = mails(app, to="bo@example.org", kind="invitation")[0]
    link = re.search(r"(/rules/dualis\?[^\s\"<]+)", invitation.text_body)
    assert link is not None and link.group(1).replace("&amp;", "&") in invitation.html_body.replace(
        "&amp;", "&"
    )
    table = client.get(play_path(invitation)).get_data(as_text=True)
    from_table = re.search(r'href="(/rules/dualis\?[^"]+)" data-rules', table)
    assert from_table is not None
    page = client.get(from_table.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert "This table&#39;s options" in page or "This table's options" in page
    assert re.search(r'data-option="short" data-on="yes"', page)
    assert re.search(r'data-option="high_low" data-on="no"', page)


def test_the_rules_page_refuses_an_unknown_game_or_a_damaged_option(client: FlaskClient) -> None:
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/dualis?table=1&short=yes").status_code == 400
