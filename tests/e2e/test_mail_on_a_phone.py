"""Mails read on a phone: the HTML body fits the screen's width (long links and hashes wrap)."""

from __future__ import annotations

from flask import Flask

from service.play.hosting import Player, create_game
from tests.e2e.conftest import ARTIFACTS
from tests.helpers import mails


def test_every_mail_of_a_new_game_fits_a_phone_without_sideways_scrolling(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    base, app = live_server
    players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
    with app.app_context():
        create_game(app.extensions["pbem"], "red_black", players, players[0], seed=4)
    kept = mails(app)
    assert {mail.kind for mail in kept} == {"invitation", "host"}
    for mail in kept:
        page.goto(f"{base}/outbox/{mail.id}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], (mail.kind, width)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "invitation_mail_on_a_phone.png"), full_page=True)
