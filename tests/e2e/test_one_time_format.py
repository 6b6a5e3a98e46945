"""One format for times, on pages (as the server writes them and as the browser re-writes them in its
own zone) and in mails: "Tue, Jun 2, 11:00 AM (Europe/Paris)"."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import Page

from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from service.play.time_control import TimeControl
from tests.helpers import mails

ONE_FORMAT = re.compile(r"^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2}\s[AP]M \([A-Za-z_/]+\)$")
IN_A_MAIL = re.compile(r"due ([A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2}\s[AP]M \([A-Za-z_/]+\))")


def test_pages_and_mails_write_times_alike(live_server: tuple[str, Flask], page: Page) -> None:
    base, app = live_server
    rt = app.extensions["pbem"]
    players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
    with app.app_context():
        game_id = create_game(
            rt, "red_black", players, players[0], {}, seed=2, control=TimeControl(move_days=2)
        )
        link = player_url(rt, rt.read_table(game_id), 0)
    in_mail = [match.group(1) for mail in mails(app) if (match := IN_A_MAIL.search(mail.text_body))]
    assert in_mail and all(ONE_FORMAT.match(text) for text in in_mail), in_mail
    context = page.context.browser.new_context(timezone_id="Europe/Paris", locale="en-US")  # type: ignore[union-attr]
    paris = context.new_page()
    for url in (f"{base}/outbox", link):
        paris.goto(url)
        paris.wait_for_load_state("load")
        times = paris.locator("time").all_inner_texts()
        assert times and all(ONE_FORMAT.match(text) for text in times), (url, times)
        assert any(text.endswith("(Europe/Paris)") for text in times), times
    context.close()
