"""A waiting player's open page follows the game: once the others moved and it is their move, the
page reloads by itself and the tab's title says "Your move"; the script is the site's own static
file, under the pages' Content-Security-Policy (a violation would stop it)."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import Page, expect

from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move


def test_the_waiting_players_page_reloads_when_it_becomes_their_move(
    live_server: tuple[str, Flask], page: Page
) -> None:
    _, app = live_server
    app.config["PBEM"]["POLL_SECONDS"] = 1
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy", "Di")]
    with app.app_context():
        game_id = create_game(rt, "dualis", players, players[0], {"first_leader": 0}, seed=2)
        waiting = 1  # Bo plays after Ann's lead
        page.goto(player_url(rt, rt.read_table(game_id), waiting))
    violations: list[str] = []
    page.on(
        "console", lambda message: violations.append(message.text) if "Security" in message.text else None
    )
    assert "Your move" not in page.title()
    expect(page.locator("html[data-live=on]")).to_have_count(1)
    with app.app_context():
        for _ in range(4):  # the others' moves until the game waits on this seat
            table = rt.read_table(game_id)
            if waiting in table.rules.to_act(table.state):
                break
            seat = min(table.rules.to_act(table.state))
            action = table.rules.legal_actions(table.state, seat)[0]
            assert submit_move(rt, game_id, seat, table.version, action).status == MoveStatus.ACCEPTED
    expect(page).to_have_title(re.compile("^Your move"), timeout=10_000)
    expect(page.locator("[data-legal-move]").first).to_be_visible()
    assert violations == []


def test_a_player_in_the_middle_of_choosing_is_offered_the_fresh_page_not_reloaded(
    live_server: tuple[str, Flask], page: Page
) -> None:
    _, app = live_server
    app.config["PBEM"]["POLL_SECONDS"] = 1
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy")]
    with app.app_context():
        game_id = create_game(rt, "dupli", players, players[0], {}, seed=3)
        page.goto(player_url(rt, rt.read_table(game_id), 0))
        page.locator("[data-pick] input[name=set]").first.check()  # Ann is choosing
        table = rt.read_table(game_id)
        action = table.rules.legal_actions(table.state, 1)[0]
        assert submit_move(rt, game_id, 1, table.version, action).status == MoveStatus.ACCEPTED
    expect(page.locator("[data-moved-on]")).to_be_visible(timeout=10_000)
    expect(page.locator("[data-pick] input[name=set]").first).to_be_checked()  # nothing lost
