"""Every kind of mail has a headline and both bodies, and every kind about a game ends with its
reader's unsubscribe link, in text and HTML; the reader's setting is applied where the mail is drafted."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from flask import Flask

import templates
from service.mail.drafting import draft_mail
from service.mail.kinds import MailKind
from service.play.hosting import set_host_notify
from service.play.seat_settings import SeatSettings, save_seat_settings
from tests.service.replay_games import new_game

SOON = datetime(2026, 11, 24, 12, tzinfo=UTC)
CONTEXT = {
    "link": "https://example.org/play/x",
    "name": "Bo",
    "due": SOON,
    "starts": SOON,
    "ends": SOON,
    "game_zone": "UTC",
    "game_name": "Red and Black Duel",
    "club": "Thursday cards",
    "season": 1,
    "outcome": ("Your move was played.", {}),
    "choices": [],
    "winners": [],
}


def test_every_kind_has_a_headline_and_both_bodies() -> None:
    folder = Path(templates.__file__).parent
    for kind in MailKind:
        assert kind.headline({**CONTEXT, "waiting": "1 game"}).strip(), kind
        assert all((folder / name).is_file() for name in kind.templates), kind


def test_every_kind_of_game_mail_carries_the_unsubscribe_link(app: Flask) -> None:
    rt = app.extensions["pbem"]
    table = rt.read_table(new_game(rt, "red_black", 2))
    for kind in MailKind:
        if not kind.about_one_game:
            continue  # the digest (tests/service/test_digest.py) and the confirmation (test_abuse.py)
        for seat in (0, None):
            mail = draft_mail(rt, table, kind, seat, CONTEXT)
            assert mail is not None and "/unsubscribe/" in mail.unsubscribe_url, kind
            assert mail.unsubscribe_url in mail.text_body, f"{kind}: no unsubscribe link in the text"
            assert mail.unsubscribe_url in mail.html_body, f"{kind}: no unsubscribe link in the HTML"


def test_a_reader_who_turned_mail_off_gets_only_what_it_must(app: Flask) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(rt, "red_black", 2)
    save_seat_settings(rt, game_id, 0, SeatSettings("none", ""))
    set_host_notify(rt, game_id, False)
    table = rt.read_table(game_id)
    for seat in (0, None):
        drafted = {
            kind for kind in MailKind if kind.about_one_game and draft_mail(rt, table, kind, seat, CONTEXT)
        }
        assert drafted == {kind for kind in MailKind if kind.about_one_game and kind.essential}, seat
    assert MailKind.GAME_OVER in drafted and MailKind.HOST_DECISION not in drafted
    assert draft_mail(rt, table, MailKind.YOUR_TURN, 1, CONTEXT) is not None  # the other seat's setting
