"""Duālis's coin choices are drawn in the colour the coin turns the card to (a Red coin is red)."""

from __future__ import annotations

from flask import Flask

from service.mail.drafting import player_url
from service.play.hosting import Player, create_game

RED, BLUE = "rgb(179, 38, 30)", "rgb(31, 79, 168)"


def test_coin_buttons_are_drawn_in_their_coins_colour(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    _, app = live_server
    players = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy", "Di")]
    with app.app_context():
        rt = app.extensions["pbem"]
        game_id = create_game(rt, "dualis", players, players[0], {"first_leader": 0}, seed=5)
        link = player_url(rt, rt.read_table(game_id), 0)
    page.goto(link)
    coins = page.locator("button[aria-label$='with a coin']")
    assert coins.count() > 0
    colours = {
        coins.nth(n).get_attribute("class"): coins.nth(n).evaluate("b => getComputedStyle(b).borderTopColor")
        for n in range(coins.count())
    }
    assert colours and all(colour == (RED if kind == "red" else BLUE) for kind, colour in colours.items())
