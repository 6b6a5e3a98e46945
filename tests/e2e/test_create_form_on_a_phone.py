"""The create form on a phone: every select fits the screen (long choices included), and a form sent
empty says what is missing."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS


def test_the_create_form_fits_a_phone_and_says_what_is_missing(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    base, _ = live_server
    page.set_viewport_size({"width": 320, "height": 640})  # a small phone
    page.goto(f"{base}/new/dualis")
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    selects = page.locator("select")
    assert selects.count() >= 4
    for n in range(selects.count()):
        box = selects.nth(n).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, n
    page.get_by_role("button", name="Create the game and send the invitations").click()
    expect(page.locator("[data-missing]")).to_have_text(
        "To create the game, fill in your name, your email, the players' emails."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "create_form_on_a_phone.png"), full_page=True)
