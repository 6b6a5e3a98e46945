"""Duālis's hand cards are drawn in their colour (a Red card's button is red), and the coin box says
what a coin of each colour would do."""

from __future__ import annotations

from flask import Flask

from service.mail.drafting import player_url
from service.play.hosting import Player, create_game

RED, BLUE = "rgb(179, 38, 30)", "rgb(31, 79, 168)"


def test_hand_cards_are_drawn_in_their_colour_and_the_coin_box_says_what_it_does(
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
    cards = page.locator("button[data-legal-move]")
    assert cards.count() > 0
    colours = {
        cards.nth(n).get_attribute("class"): cards.nth(n).evaluate("b => getComputedStyle(b).borderTopColor")
        for n in range(cards.count())
    }
    assert colours and all(colour == (RED if "red" in kind else BLUE) for kind, colour in colours.items())
    preview = page.locator("ul.coin-preview").inner_text()
    assert (
        "Blue card + Red coin: it counts Red" in preview and "Red card + Blue coin: it counts Blue" in preview
    )
