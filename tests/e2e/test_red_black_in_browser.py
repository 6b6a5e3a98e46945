"""A new user in a real browser: create a game, open the invitation from the outbox, play a card."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, confirm_by_mail


def test_invitation_from_outbox_to_a_played_card(live_server: tuple[str, Flask], page) -> None:  # type: ignore[no-untyped-def]
    base, _ = live_server
    page.goto(f"{base}/")
    page.get_by_role("link", name="Start a game of Red and Black Duel").click()
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.org")
    for n, (name, mail) in enumerate([("Ann", "ann@example.org"), ("Bo", "bo@example.org")]):
        page.locator(f"#players-{n}-name").fill(name)
        page.locator(f"#players-{n}-email").fill(mail)
    page.get_by_role("button", name="Create the game and send the invitations").click()
    confirm_by_mail(page, base)
    expect(page.get_by_text("This is your host page")).to_be_visible()

    page.goto(f"{base}/outbox")
    page.get_by_role("link", name="you are invited").first.click()  # newest first: the invitations
    expect(page.get_by_text(re.compile(r"(ann|bo)@example\.org")).first).to_be_visible()
    page.get_by_role("link", name="Open my game").click()
    expect(page.get_by_text("Your move.")).to_be_visible()

    page.locator("[data-legal-move]").first.click()
    status = page.locator("[data-outcome]")
    expect(status).to_have_attribute("data-outcome", "accepted")
    expect(status).to_contain_text("Your move was played.")
    expect(page.locator("[data-comparison]")).to_contain_text("yours, face down")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "red_black_after_camp_card.png"), full_page=True)
