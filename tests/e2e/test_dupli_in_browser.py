"""Dupli in the browser: the button that sets the ticked cards is live only while exactly two are
ticked, and says how many are."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import Page, expect

from service.mail.drafting import player_url
from service.play.hosting import Player, create_game


def test_the_set_button_is_live_with_two_ticked_cards_only(
    live_server: tuple[str, Flask], page: Page
) -> None:
    _, app = live_server
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy")]
    with app.app_context():
        game_id = create_game(rt, "dupli", players, players[0], {}, seed=3)
        page.goto(player_url(rt, rt.read_table(game_id), 0))
    boxes = page.locator("[data-pick] input[name=set]")
    button = page.get_by_role("button", name="Set these two face down")
    expect(button).to_be_disabled()
    for ticked in (1, 2, 3):
        boxes.nth(ticked - 1).check()
        expect(page.locator("#ticked-count")).to_have_text(f"{ticked} of 2 ticked")
        if ticked == 2:
            expect(button).to_be_enabled()
        else:
            expect(button).to_be_disabled()
