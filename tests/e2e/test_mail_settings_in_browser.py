"""A player in a real browser: choose the daily digest and a time zone in their page's Mail
settings, then unsubscribe with the link from a mail."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import expect

from service.play.hosting import Player, create_game
from tests.helpers import mails


def test_mail_settings_and_unsubscribe_in_the_browser(live_server: tuple[str, Flask], page) -> None:  # type: ignore[no-untyped-def]
    base, app = live_server
    with app.app_context():
        game_id = create_game(
            app.extensions["pbem"],
            "red_black",
            [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")],
            Player("Host", "host@example.org"),
            seed=1,
        )
    invitation = mails(app, to="ann@example.org", kind="invitation")[0]
    link = re.search(rf"{re.escape(base)}/play/[A-Za-z0-9_.\-]+(?=\s)", invitation.text_body)  # not a move's
    assert link is not None
    page.goto(link.group(0))
    page.get_by_text("Mail settings").click()
    page.get_by_label("One daily digest").check()
    page.get_by_label("Your time zone").select_option("Europe/Paris")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Your mail settings were saved.")).to_be_visible()
    expect(page.get_by_label("One daily digest")).to_be_checked()
    seat = app.extensions["pbem"].read_table(game_id).seats[0]
    assert (seat.notify, seat.timezone) == ("digest", "Europe/Paris")

    page.goto(invitation.unsubscribe_url)
    expect(page.get_by_text("Stop the mails to ann@example.org")).to_be_visible()
    page.get_by_role("button", name="Unsubscribe").click()
    expect(page.locator("[data-unsubscribed=seat]")).to_contain_text("no more mail about turns")
    assert app.extensions["pbem"].read_table(game_id).seats[0].notify == "none"
