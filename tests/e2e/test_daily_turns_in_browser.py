"""Daily turns in a real browser (in Tokyo): a 1-day game with a seat-keeper seat created from the
page, the browser's time zone suggested for the game, the deadline shown in the browser's zone, a
vacation declared and auto-play turned off from the player's page."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, confirm_by_mail
from tests.helpers import mails

# The seat's own link (the turn mail's table also links each move, with ?choose=).
PLAY_LINK = re.compile(r"http://127\.0\.0\.1:\d+/play/[A-Za-z0-9_.\-]+(?=\s)")


def test_a_timed_game_with_a_seat_keeper_from_the_browser(live_server: tuple[str, Flask], page) -> None:  # type: ignore[no-untyped-def]
    base, app = live_server
    tokyo = page.context.browser.new_context(timezone_id="Asia/Tokyo", viewport={"width": 390, "height": 844})
    page = tokyo.new_page()
    page.goto(f"{base}/new/red_black")
    expect(page.get_by_label("The game's time zone")).to_have_value("Asia/Tokyo")  # suggested by the script
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.org")
    page.locator("#players-0-name").fill("Ann")
    page.locator("#players-0-email").fill("ann@example.org")
    page.locator("#players-1-bot").check()
    page.get_by_label("Time per move").select_option("1")
    page.get_by_role("button", name="Create the game and send the invitations").click()
    confirm_by_mail(page, base)
    expect(page.get_by_text("seat-keeper bot: no link")).to_be_visible()

    (invitation,) = mails(app, kind="invitation")  # nobody to invite in the seat-keeper's seat
    game = app.extensions["pbem"].read_table(invitation.game_id)
    assert game.record.timezone == "Asia/Tokyo" and game.record.move_days == 1
    page.goto(PLAY_LINK.search(invitation.text_body).group(0))  # type: ignore[union-attr]
    expect(page.get_by_text("Your move.")).to_be_visible()
    due = page.locator("ul.waiting time[data-localise]")
    expect(due).to_have_attribute("title", re.compile(r"\(Asia/Tokyo\)$"))  # the server's text kept...
    expect(due).to_contain_text("(Asia/Tokyo)")  # ...and the browser's own zone, written alike

    page.get_by_text("Your settings: auto-play and vacation").click()  # folded below the hand
    page.get_by_label("Number of days").fill("2")
    page.get_by_role("button", name="Declare my vacation").click()
    expect(page.get_by_text("Your vacation is noted")).to_be_visible()
    page.get_by_text("Your settings: auto-play and vacation").click()
    expect(page.get_by_text("12 of 14 days left this year")).to_be_visible()
    page.get_by_role("button", name="Turn auto-play off").click()
    page.get_by_text("Your settings: auto-play and vacation").click()
    expect(page.get_by_role("button", name="Turn auto-play on")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "daily_turns_player_page.png"), full_page=True)
    tokyo.close()
