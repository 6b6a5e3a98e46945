"""A replay on a phone (390x844): at a step deep in the game the step's trick and the step controls lie
in the first screen, the list of every step is folded, and Next keeps the place (the page opens at the
step, not at its top)."""

from __future__ import annotations

import random

from flask import Flask
from playwright.sync_api import Page, expect

from service.mail.drafting import player_url
from tests.e2e.conftest import ARTIFACTS
from tests.service.replay_games import finish_by_service, new_game

PHONE_HEIGHT = 844
STEP = 40


def inside_the_screen(page: Page, selector: str) -> bool:
    """Whether the element's box lies wholly in the viewport as it is scrolled now."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE_HEIGHT


def test_a_step_deep_in_the_game_fits_the_first_screen_and_next_keeps_the_place(
    live_server: tuple[str, Flask], page: Page
) -> None:
    _, app = live_server
    rt = app.extensions["pbem"]
    with app.app_context():
        game_id = new_game(rt, "dualis", 4, {"first_leader": 0})
        finish_by_service(rt, game_id, random.Random(3))
        link = player_url(rt, rt.read_table(game_id), 0)
    page.goto(f"{link}/replay/{STEP}")
    measures = {
        "trick": inside_the_screen(page, ".glance [data-trick]"),
        "next": inside_the_screen(page, "a[rel=next]"),
        "line": inside_the_screen(page, "[data-line]"),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay_on_a_phone.png"))
    assert measures == {"trick": True, "next": True, "line": True}
    expect(page.locator("details.replay-steps")).not_to_have_attribute("open", "")

    page.evaluate("window.scrollTo(0, 300)")  # reading further down, then Next
    page.locator("a[rel=next]").first.click()
    expect(page.locator("[data-step]")).to_have_attribute("data-step", str(STEP + 1))
    assert {
        "trick": inside_the_screen(page, ".glance [data-trick]"),
        "next": inside_the_screen(page, "a[rel=next]"),
    } == {"trick": True, "next": True}
