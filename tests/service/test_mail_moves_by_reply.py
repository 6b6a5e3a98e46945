"""What a mail's move links write is what the reply reader reads: for every legal move of random
game states of every game and variant, in English and Japanese, the body of the move's `mailto:`
link (and the line the text part prints for it) read by `read_reply` is exactly that move."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from flask import Flask
from flask_babel import force_locale
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import create_app
from service.mail.table import mailto, reply_subject
from service.reading import seat_moves
from service.replies.move_reader import read_reply
from tests.conftest import app_config
from tests.service.replay_games import add_moves, new_game
from tests.service.test_replay_leaks import VARIANTS

ADDRESS = "play+abc123@mail.example.org"


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    flask_app = create_app(app_config(tmp_path_factory.mktemp("moves"), None))
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def mailto_parts(link: str) -> tuple[str, str, str]:
    """The address, subject and body a mail program takes from a mailto: link (RFC 6068)."""
    parts = urlsplit(link)
    query = parse_qs(parts.query)
    return unquote(parts.path), query["subject"][0], query["body"][0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), moves=st.integers(0, 120))
def test_every_move_a_mail_offers_is_read_back_as_that_move(
    embedded: Flask, variant: tuple[str, int, dict[str, Any]], seed: int, moves: int
) -> None:
    game, seats, options = variant
    rt = embedded.extensions["pbem"]
    game_id = new_game(rt, game, seats, options, seed)
    add_moves(rt, game_id, random.Random(seed), moves)
    table = rt.read_table(game_id)
    for seat in sorted(table.rules.to_act(table.state)) if table.active else []:
        for language in ("en", "ja"):
            with force_locale(language):
                groups = seat_moves(table, seat)
                offered = [move for group in groups for move in group.moves]
                legal = table.rules.legal_actions(table.state, seat)
                assert sorted(map(json.dumps, (move.action for move in offered))) == sorted(
                    map(json.dumps, legal)
                )
                for move in offered:
                    address, subject, body = mailto_parts(
                        mailto(ADDRESS, reply_subject("Duālis — Ann"), move.reply)
                    )
                    assert (address, subject) == (ADDRESS, "Re: Duālis — Ann")
                    assert read_reply(table, seat, body).action == move.action, (language, body)
                    assert read_reply(table, seat, move.label).action == move.action, (language, move.label)
