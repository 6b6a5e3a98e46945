"""The mail defects of the audit: no mail about play still to come once a game is over, and the host
named by their name, never by their address."""

from __future__ import annotations

import random

from flask import Flask

from service.mail.drafting import draft_mail, player_url
from service.mail.kinds import PLAY_TO_COME
from service.play.hosting import Player, create_game
from tests.helpers import mails
from tests.service.replay_games import finish_by_service


def test_no_mail_about_play_to_come_once_the_game_is_over(app: Flask) -> None:
    rt = app.extensions["pbem"]
    game_id = create_game(
        rt, "red_black", [Player("Ann", "a@x.org"), Player("Bo", "b@x.org")], Player("H", "h@x.org")
    )
    table = rt.read_table(game_id)
    context = {"link": player_url(rt, table, 0), "name": "Bo"}
    assert all(draft_mail(rt, table, kind, 0, context) is not None for kind in PLAY_TO_COME)
    finish_by_service(rt, game_id, random.Random(3))
    over = rt.read_table(game_id)
    assert not over.active
    for kind in PLAY_TO_COME:  # e.g. the seat-keeper's move for a player out of time ended the game
        assert draft_mail(rt, over, kind, 0, context) is None, kind
        assert draft_mail(rt, over, kind, None, context) is None, kind


def test_the_host_is_named_by_name_and_never_by_address(app: Flask) -> None:
    rt = app.extensions["pbem"]
    create_game(
        rt, "red_black", [Player("Ann", "a@x.org"), Player("Bo", "b@x.org")], Player("", "boss@x.org")
    )
    for mail in mails(app, kind="invitation"):
        assert "boss@x.org" not in mail.text_body and "boss@x.org" not in mail.html_body
        assert "Your host invites you" in mail.text_body
