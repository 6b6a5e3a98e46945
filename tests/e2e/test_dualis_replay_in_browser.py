"""A finished Duālis game stepped through in a real browser: from the game-over mail in the outbox to
the replay, then with the keyboard (→ ← End Home), checking what each step shows."""

from __future__ import annotations

import random
import re

from flask import Flask
from playwright.sync_api import expect

from rules.dualis import card_name
from rules.dualis.cards import CARDS
from rules.messages import plain
from tests.e2e.conftest import ARTIFACTS
from tests.service.replay_games import EMAILS, finish_by_service, new_game


def press(page, key: str) -> None:  # type: ignore[no-untyped-def]
    """A key press once the page's replay keys are live (a press during a page load would be lost)."""
    expect(page.locator("html[data-replay-keys=ready]")).to_have_count(1)
    page.keyboard.press(key)


def test_a_finished_game_steps_through_from_the_game_over_mail(live_server: tuple[str, Flask], page) -> None:  # type: ignore[no-untyped-def]
    base, app = live_server
    with app.app_context():
        rt = app.extensions["pbem"]
        # The short game with the deck in card order: Ann holds S1R ... S5R, Ann leads.
        game_id = new_game(rt, "dualis", 4, {"short": True, "deck": list(CARDS), "first_leader": 0})
        finish_by_service(rt, game_id, random.Random(9))
        table = rt.read_table(game_id)
        lines = [table.rules.describe(event, None, table.names) for event in table.events]
    total = table.version
    first_card = table.events[2]["card"]

    page.goto(f"{base}/outbox?to={EMAILS[0]}")  # a player's game-over mail (the host's has no replay)
    page.get_by_role("link", name=re.compile("^Game over")).first.click()
    page.get_by_role("link", name="Step through the replay").click()
    step = page.locator("[data-step]")
    line = page.locator("[data-line]")
    expect(step).to_have_text(f"Step 1 of {total}")
    expect(page.locator("[data-viewer]")).to_have_attribute("data-viewer", "face_up")
    expect(line).to_contain_text("A game of Duālis begins: Ann & Cy against Bo & Di.")

    press(page, "ArrowRight")
    expect(page).to_have_url(re.compile(r"/replay/2(#step)?$"))
    expect(line).to_contain_text("Round 1 is dealt; Ann leads.")
    hands = page.locator("section.dualis-hands")
    expect(hands).to_contain_text("Every hand, face up")
    expect(hands.locator('[data-card="S1R"]')).to_be_visible()
    expect(hands.locator('[data-card="M13B"]')).to_have_count(0)  # set aside in the short game

    press(page, "ArrowRight")
    expect(step).to_have_text(f"Step 3 of {total}")
    expect(line).to_contain_text(f"Ann played {plain(card_name(first_card))}")
    expect(page.locator(f'.dualis-trick [data-card="{first_card}"]')).to_be_visible()
    expect(hands.locator(f'[data-card="{first_card}"]')).to_have_count(0)  # left Ann's hand
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dualis_replay_step_3.png"), full_page=True)

    press(page, "ArrowLeft")
    expect(step).to_have_text(f"Step 2 of {total}")

    press(page, "End")
    expect(page).to_have_url(re.compile(rf"/replay/{total}(#step)?$"))
    expect(line).to_contain_text(plain(lines[-1]))  # type: ignore[arg-type]
    expect(page.locator('[data-check="rerun"]')).to_have_attribute("data-ok", "true")
    expect(page.locator("a[rel=next]")).to_have_count(0)

    press(page, "Home")
    expect(step).to_have_text(f"Step 1 of {total}")
    page.get_by_role("link", name="Game history and score sheet").click()
    expect(page.get_by_role("link", name="Round 1")).to_have_count(2)  # score sheet and chapter list
