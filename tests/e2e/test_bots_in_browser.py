"""One person and three bots at a Duālis table, in a real browser: the create form seats three steady
bots, the table names them with their level, and the person plays every card of the match to the end,
never waiting for a bot (each of their moves comes back with the bots' moves already made)."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, confirm_by_mail

MOST_MOVES = 60  # a short Duālis match is at most three rounds of nine cards


def test_a_person_plays_a_dualis_match_against_three_bots(live_server: tuple[str, Flask], page) -> None:  # type: ignore[no-untyped-def]
    base, _ = live_server
    page.goto(f"{base}/new/dualis")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.org")
    page.locator("#players-0-name").fill("Ann")
    page.locator("#players-0-email").fill("ann@example.org")
    for n in (1, 2, 3):
        page.locator(f"#players-{n}-bot").check()
        page.locator(f"#players-{n}-level").select_option("steady")
    page.locator("#opt_short").check()
    page.get_by_role("button", name="Create the game and send the invitations").click()
    confirm_by_mail(page, base)
    expect(page.get_by_text("This is your host page")).to_be_visible()
    expect(page.get_by_text("bot, steady")).to_have_count(3)

    page.goto(f"{base}/outbox")
    page.get_by_role("link", name="you are invited").first.click()
    page.get_by_role("link", name="Open my game").click()
    expect(page.locator("[data-bot-level=steady]")).to_have_count(3)
    for _ in range(MOST_MOVES):
        if page.get_by_text("Game over.").count():
            break
        expect(page.get_by_text("Your move.")).to_be_visible()  # the bots never keep the person waiting
        page.locator("[data-legal-move]").first.click()
        expect(page.locator("[data-outcome]")).to_have_attribute("data-outcome", "accepted")
        page.reload()
    expect(page.get_by_text("Game over.")).to_be_visible()
    expect(page.get_by_text(re.compile(r"won|win"))).not_to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dualis_against_three_bots.png"), full_page=True)
