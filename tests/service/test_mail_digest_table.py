"""The daily digest carries, for each game it lists, the seat's table and its moves one tap each, as
the seat's turn mail does: each game's own hand, and `mailto:` links to that game's own reply address
whose bodies the reply reader reads back as exactly those moves."""

from __future__ import annotations

import html
import json
import random
import re
import time
from datetime import date
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from flask import Flask
from itsdangerous import TimestampSigner

from service.mail.digest import DueDigest, digest_mail
from service.mail.drafting import player_url, reply_address
from service.mail.table import mail_table
from service.reading import game_title
from service.replies.move_reader import read_reply
from tests.service.replay_games import EMAILS, add_moves, new_game

REPLY_LINK = re.compile(r'data-mail-reply href="([^"]+)"')


def ann_waits(app: Flask, game: str, seats: int, seed: int) -> str:
    """A game (Ann at seat 0) played at random until it waits on Ann."""
    rt = app.extensions["pbem"]
    game_id = new_game(rt, game, seats, {}, seed)
    rng = random.Random(seed)
    while 0 not in (table := rt.read_table(game_id)).rules.to_act(table.state):
        add_moves(rt, game_id, rng, 1)
    return game_id


def test_the_digest_carries_each_games_table_and_moves(
    sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Links carry the second they were signed in; one second for all keeps the comparison exact.
    signed_at = int(time.time())
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda _self: signed_at)
    rt = sqlite_app.extensions["pbem"]
    games = [ann_waits(sqlite_app, "double_side", 3, 4), ann_waits(sqlite_app, "red_black", 2, 7)]
    tables = [rt.read_table(game_id) for game_id in games]
    due = DueDigest(EMAILS[0], date(2024, 5, 1), tuple((game_id, 0) for game_id in games))
    mail = digest_mail(rt, due, 1, [(table, 0) for table in tables])
    sections = mail.html_body.split('<h2 style="font-size: 17px; margin: 20px 0 6px;">')[1:]
    assert len(sections) == 2
    for table, section in zip(tables, sections, strict=True):
        title, link = game_title(table), player_url(rt, table, 0)
        assert section.startswith(html.escape(title))
        own = mail_table(rt, table, 0, link, reply_address(rt, table, 0), title)
        assert own.html in section, "the game's own table, hand and moves"
        assert own.text in mail.text_body
        legal = table.rules.legal_actions(table.state, 0)
        read = []
        for href in REPLY_LINK.findall(section):
            parts = urlsplit(html.unescape(href))
            token = unquote(parts.path).removeprefix("play+").split("@")[0]
            reply = rt.signer.read_reply(token)
            assert (reply.game_id, reply.seat, reply.seq) == (table.game_id, 0, table.version)
            assert parse_qs(parts.query)["subject"] == [f"Re: {title}"]
            reading = read_reply(table, 0, parse_qs(parts.query)["body"][0])
            assert reading.action in legal
            read.append(json.dumps(reading.action, sort_keys=True))
        assert sorted(read) == sorted(json.dumps(action, sort_keys=True) for action in legal)
