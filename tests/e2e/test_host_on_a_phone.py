"""The host on a phone: after creating a game the page says the invitations went out (and where the
local outbox keeps them), fits the screen, and shows a seat's link on demand."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, confirm_by_mail


def test_the_host_sees_the_invitations_went_out_and_each_seats_link(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    base, _ = live_server
    page.goto(f"{base}/new/dualis")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.org")
    for n, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        page.locator(f"#players-{n}-name").fill(name)
        page.locator(f"#players-{n}-email").fill(f"{name.lower()}.with.a.long.address@example.org")
    page.get_by_role("button", name="Create the game and send the invitations").click()
    confirm_by_mail(page, base)
    expect(page.get_by_text("its invitations went out to 4 players")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

    outbox = page.locator("[data-outbox-link]").get_attribute("href")
    assert outbox is not None and re.fullmatch(r"/outbox\?game=[\w-]+", outbox)
    link = page.locator("[data-seat='1'] [data-seat-link]")
    expect(link).to_be_hidden()
    page.get_by_text("Show Bo's link").click()
    expect(link).to_be_visible()
    assert re.search(r"/play/[\w.-]+$", link.get_attribute("href") or "")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "host_page_on_a_phone.png"), full_page=True)

    page.goto(base + outbox)  # the invitations and the host's mail of this game
    expect(page.locator("[data-outbox-count]")).to_have_attribute("data-outbox-count", "5")
