"""The first screen on a phone (390x844): for each game mid-round the first legal move lies inside the
first viewport, a move is made by tapping the hand, and the next page shows it played. Keyboard-only
play works (the Duālis coin box, a card, the confirmation); a card that may not be played says why."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from rules import get_game
from service.mail.drafting import player_url
from service.play.moves import MoveStatus, submit_move
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_accessibility import mid_round_game

PHONE_HEIGHT = 844
WARM_UP = {"dualis": 9, "double_side": 9, "dupli": 3, "red_black": 5}


def api_state(app: Flask, link: str) -> dict[str, Any]:
    """The JSON twin of a player page."""
    path = link[link.index("/play/") :]
    state: dict[str, Any] = app.test_client().get("/api" + path).get_json()
    return state


def first_move_inside_the_first_screen(page: Page) -> None:
    box = page.locator("[data-legal-move]").first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_HEIGHT, box


def tap_a_move(page: Page, game: str, state: dict[str, Any]) -> str:
    """Make the first legal move by tapping the hand; the card (or pair) played."""
    if game == "dupli":
        pair = state["legal_actions"][0]["set"]
        for card in pair:  # tick one box per card of the pair (a pair may hold the same card twice)
            page.locator(f"input[name=set][value='{card}']:not(:checked)").first.check()
        page.locator("[data-legal-move]").first.click()
        return "+".join(pair)
    card = next(a["card"] for a in state["legal_actions"] if "card" in a)
    page.locator(f'[data-legal-move][value=\'{{"card": "{card}"}}\']').click()
    return str(card)


@pytest.mark.parametrize("game", sorted(WARM_UP))
def test_the_move_is_in_the_first_screen_and_a_tap_plays_it(
    live_server: tuple[str, Flask],
    page: Page,
    game: str,
) -> None:
    _, app = live_server
    game_id = mid_round_game(app, game, WARM_UP[game])
    rt = app.extensions["pbem"]
    with app.app_context():
        table = rt.read_table(game_id)
        link = player_url(rt, table, min(table.rules.to_act(table.state)))
    state = api_state(app, link)
    page.goto(link)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"first_screen_{game}.png"))
    first_move_inside_the_first_screen(page)
    played = tap_a_move(page, game, state)
    status = page.locator("[data-outcome]")
    expect(status).to_have_attribute("data-outcome", "accepted")
    expect(status).to_contain_text("Your move was played.")
    page.screenshot(path=str(ARTIFACTS / f"first_screen_{game}_after.png"))
    after = api_state(app, link)
    assert after["seq"] > state["seq"]
    if game == "dupli":
        view = after["view"]  # the pair is set, or, set last, revealed with everyone's (and resolved)
        assert view["set_done"][state["seat"]] or view["phase"] != "set" or view["war"] > state["view"]["war"]
        if view["set_done"][state["seat"]]:
            expect(page.locator("ul.seat-counts li").nth(state["seat"])).to_contain_text("has set")
        else:
            expect(page.locator("[data-revealed], [data-last-war]").first).to_be_visible()
    else:
        assert played not in [c["card"] if isinstance(c, dict) else c for c in after["view"]["hand"] or []]
        assert page.locator(f'[data-legal-move][value=\'{{"card": "{played}"}}\']').count() == 0


def a_dualis_turn_with_cards_it_may_not_play(app: Flask) -> str:
    """A Duālis game played on until the seat to move holds cards it may not play; its link."""
    game_id = mid_round_game(app, "dualis", 0)
    rt = app.extensions["pbem"]
    rules = get_game("dualis")
    rng = random.Random(2)
    with app.app_context():
        for _ in range(40):
            table = rt.read_table(game_id)
            seat = min(rules.to_act(table.state))
            legal = rules.legal_actions(table.state, seat)
            if len({a["card"] for a in legal}) < len(table.state.hands[seat]):
                return player_url(rt, table, seat)
            outcome = submit_move(rt, game_id, seat, table.version, rng.choice(legal))
            assert outcome.status == MoveStatus.ACCEPTED
    raise AssertionError("no turn with an unplayable card")


def test_a_card_that_may_not_be_played_says_why(live_server: tuple[str, Flask], page: Page) -> None:
    _, app = live_server
    link = a_dualis_turn_with_cards_it_may_not_play(app)
    page.goto(link)
    greyed = page.locator("ul.hand-cards button[disabled]")
    assert greyed.count() > 0
    page.get_by_text("Why are some cards greyed out?").click()
    expect(page.locator("details.why-not")).to_contain_text("You must follow suit: play a")


def test_keyboard_only_a_coin_then_a_card_then_the_confirmation(
    live_server: tuple[str, Flask], page: Page
) -> None:
    _, app = live_server
    game_id = mid_round_game(app, "dualis", 0)
    rt = app.extensions["pbem"]
    with app.app_context():
        table = rt.read_table(game_id)
        link = player_url(rt, table, min(table.rules.to_act(table.state)))
    before = api_state(app, link)
    page.goto(link)
    expect(page.locator("html")).to_be_visible()
    tab_to(page, "input[data-coin-toggle]")
    page.keyboard.press("Space")
    # With the coin box ticked, the cards that cannot take a coin are skipped (disabled by play.js).
    tab_to(page, "button[data-legal-move]")
    focused = page.evaluate("document.activeElement.hasAttribute('data-coin')")
    assert focused
    card = page.evaluate("JSON.parse(document.activeElement.value).card")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Please confirm")).to_be_visible()
    expect(page.get_by_text("once confirmed, the move stands", exact=False)).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "keyboard_coin_confirm.png"))
    tab_to(page, "button.primary")
    page.keyboard.press("Enter")
    expect(page.locator("[data-outcome]")).to_have_attribute("data-outcome", "accepted")
    after = api_state(app, link)
    play = next(p for p in after["view"]["trick"]["plays"] if p["card"] == card)
    assert play["coin"] is True and after["seq"] > before["seq"]


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")
