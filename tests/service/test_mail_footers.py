"""Every kind of mail about a game ends with its reader's unsubscribe link, in text and HTML."""

from __future__ import annotations

from flask import Flask

from service.mail.drafting import SUBJECTS, draft_mail
from tests.service.replay_games import new_game


def test_every_kind_of_game_mail_carries_the_unsubscribe_link(app: Flask) -> None:
    rt = app.extensions["pbem"]
    table = rt.read_table(new_game(rt, "red_black", 2))
    context = {"link": "https://example.org/play/x", "lines": [], "name": "Bo", "due": "soon", "winners": []}
    for kind in SUBJECTS:
        for seat in (0, None):
            mail = draft_mail(rt, table, kind, seat, context)
            assert "/unsubscribe/" in mail.unsubscribe_url, kind
            assert mail.unsubscribe_url in mail.text_body, f"{kind}: no unsubscribe link in the text"
            assert mail.unsubscribe_url in mail.html_body, f"{kind}: no unsubscribe link in the HTML"
