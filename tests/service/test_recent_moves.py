"""The player page's "recent moves" and the mails' "since your last move": the replay's own lines for
that seat, so a seat-keeper's move is marked and a collected Duālis trick stays face down there too."""

from __future__ import annotations

import random

from flask import Flask
from flask.testing import FlaskClient

from service.eventlog.models import EventOrigin
from service.play.hosting import Player, create_game
from service.reading import since_lines
from tests.helpers import without_links
from tests.service.play import seat_links
from tests.service.replay_games import EMAILS, NAMES, add_moves, new_game


def page_text(client: FlaskClient, link: str) -> str:
    return without_links(client.get(link).get_data(as_text=True))


def test_recent_moves_mark_the_seat_keepers_moves(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    players = [Player(NAMES[0], EMAILS[0]), Player(NAMES[1], EMAILS[1]), Player(NAMES[2], EMAILS[2])]
    game_id = create_game(
        rt,
        "dualis",
        [*players, Player("Seat-keeper", "", bot=True)],
        players[0],
        {"first_leader": 3},  # the bot leads the first trick at once
    )
    assert rt.read_table(game_id).actors[-1] == 3
    html = page_text(client, seat_links(app, EMAILS[:3])[0])
    recent = html.split("data-recent", 1)[1].split("</ol>", 1)[0]
    assert "Seat-keeper played" in recent and "(played by the seat-keeper)" in recent


def test_recent_moves_keep_collected_tricks_face_down(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(rt, "dualis", 4, {"first_leader": 0})
    add_moves(rt, game_id, random.Random(3), moves=4 * 3 + 1)  # three tricks and a card of the fourth
    table = rt.read_table(game_id)
    # Tricks 1 and 2 are collected face down (the page shows trick 3, the last, and trick 4).
    collected = [e["card"] for e in table.events if e["type"] == "CardPlayed" and e["trick"] <= 2]
    assert len(collected) == 8
    for link in seat_links(app, EMAILS):
        html = page_text(client, link)
        assert "data-recent" in html
        assert not [card for card in collected if card in html], "a collected trick shows"
        assert "played a card (face down now: a collected trick)" in html


def test_mail_lines_keep_collected_tricks_face_down(app: Flask) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(rt, "dualis", 4, {"first_leader": 0})
    # Every move by the seat-keeper: no seat has a move by hand, so its lines cover the whole log.
    add_moves(rt, game_id, random.Random(4), moves=4 * 5 + 1, origins={n: EventOrigin.BOT for n in range(21)})
    table = rt.read_table(game_id)
    collected = [e["card"] for e in table.events if e["type"] == "CardPlayed" and e["trick"] <= 4]
    for seat in range(4):
        told = " ".join(since_lines(rt, table, seat))
        assert "(played by the seat-keeper)" in told
        assert not [card for card in collected if card in told], "a collected trick is told"
