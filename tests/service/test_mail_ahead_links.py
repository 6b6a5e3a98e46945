"""What a mail offers to choose ahead is what the reply reader reads: for every play a seat may choose
ahead in random game states of every game and variant, in English and Japanese, the body of its
`mailto:` link (the line "<situation>: <play>") read by `read_ahead` is exactly that play; and a
mail to a seat that may choose ahead carries one such link per play."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service import create_app
from service.mail.drafting import draft_mail, player_url
from service.mail.kinds import MailKind
from service.mail.table import ahead_links
from service.reading import ahead_plays
from service.replies.move_reader import AheadReading, read_ahead
from tests.conftest import app_config
from tests.service.replay_games import add_moves, new_game
from tests.service.test_mail_moves_by_reply import mailto_parts
from tests.service.test_replay_leaks import VARIANTS

ADDRESS = "play+abc123@mail.example.org"
AHEAD_LINK = re.compile(r'data-mail-ahead-reply href="([^"]+)"')


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    flask_app = create_app(app_config(tmp_path_factory.mktemp("ahead"), None))
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), moves=st.integers(0, 120))
@example(variant=("dupli", 3, {}), seed=1, moves=5)  # a situation named with a colon: "if a Charge is set: …"
def test_every_play_a_mail_offers_ahead_is_read_back_as_that_play(
    embedded: Flask, variant: tuple[str, int, dict[str, Any]], seed: int, moves: int
) -> None:
    game, seats, options = variant
    rt = embedded.extensions["pbem"]
    game_id = new_game(rt, game, seats, options, seed)
    add_moves(rt, game_id, random.Random(seed), moves)
    table = rt.read_table(game_id)
    for seat in range(seats) if table.active else []:
        for language in ("en", "ja"):
            with force_locale(language):
                groups = ahead_plays(table, seat)
                links = ahead_links(groups, ADDRESS, "Duālis — Ann")
                situations = table.rules.ahead.situations(table.state, seat)
                assert [group.name for group in links] == [group.name for group in groups]
                assert len(groups) == len(situations)
                for group, linked in zip(groups, links, strict=True):
                    assert len(group.moves) == len(linked.moves) > 0
                    for play, link in zip(group.moves, linked.moves, strict=True):
                        address, subject, body = mailto_parts(link.mailto)
                        assert (address, subject, body) == (ADDRESS, "Re: Duālis — Ann", play.reply)
                        read = read_ahead(table, seat, body)
                        assert read == AheadReading([play.action], []), (language, body, read)


@pytest.mark.parametrize(("game", "seats"), [("dualis", 4), ("double_side", 3)])
def test_a_mail_to_a_seat_that_may_choose_ahead_links_each_play(
    embedded: Flask, game: str, seats: int
) -> None:
    rt = embedded.extensions["pbem"]
    rng = random.Random(11)
    game_id = new_game(rt, game, seats, {}, 11)
    for _ in range(60):
        table = rt.read_table(game_id)
        seat = next((s for s in range(seats) if table.rules.ahead.situations(table.state, s)), None)
        if seat is not None:
            break
        add_moves(rt, game_id, rng, 1)
    assert seat is not None, "a seat may choose ahead"
    mail = draft_mail(rt, table, MailKind.REPORT, seat, {"link": player_url(rt, table, seat)})
    assert mail is not None
    links = [html.unescape(link) for link in AHEAD_LINK.findall(mail.html_body)]
    plays = [play for group in ahead_plays(table, seat) for play in group.moves]
    assert len(links) == len(plays) > 0
    for link, play in zip(links, plays, strict=True):
        _, _, body = mailto_parts(link)
        assert read_ahead(table, seat, body).plays == [play.action]
