"""Seats filled with the seat-keeper bot at creation: three friends play Duālis Standard with a bot
fourth, created from the page. The bot's seat has no email, no link and no mail; its moves are made
at once, always legal, marked in the log and in the others' mails."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.eventlog.models import EventOrigin, SeatKeeper
from tests.helpers import confirmed, forms, mails, moves_by_origin
from tests.service.play import play_by_api, seat_links
from tests.service.turns import assert_bot_moves_legal

NAMES = ["Ann", "Bo", "Cy"]
EMAILS = [f"{name.lower()}@example.org" for name in NAMES]


def new_game_page(client: FlaskClient, bots: list[int], **fields: str) -> Any:
    """POST /new/dualis with the three friends in seats 1-3 (skipping bot seats) and bots in `bots`."""
    html = client.get("/new/dualis").get_data(as_text=True)
    data = {"csrf_token": forms(html)[0].fields["csrf_token"], "host_name": "Ann", "host_email": EMAILS[0]}
    friends = iter(zip(NAMES, EMAILS, strict=True))
    for seat in range(4):
        if seat in bots:
            data[f"players-{seat}-bot"] = "y"
        elif (friend := next(friends, None)) is not None:
            data[f"players-{seat}-name"], data[f"players-{seat}-email"] = friend
    return client.post("/new/dualis", data={**data, **fields})


def test_three_friends_play_dualis_with_a_seat_keeper_fourth(app: Flask, client: FlaskClient) -> None:
    response = confirmed(client, new_game_page(client, bots=[3], first_leader="3"))  # the bot leads first
    assert response.status_code == 303
    host = response.headers["Location"].removeprefix("http://localhost")
    assert sorted(m.to_email for m in mails(app, kind="invitation")) == sorted(EMAILS)
    game = app.extensions["pbem"].read_table(mails(app, kind="host")[0].game_id)
    bot = game.seats[3]
    assert (bot.name, bot.email, bot.keeper) == ("Seat-keeper", "", SeatKeeper.BOT)
    assert game.origins[len(game.events) - 1] == EventOrigin.BOT  # it led at once, at creation
    host_page = client.get(host).get_data(as_text=True)
    assert "seat-keeper bot: no link" in host_page and host_page.count("Send again") == 3
    bot_token = app.extensions["pbem"].signer.player_token(game.game_id, 3, 1)
    assert client.get(f"/play/{bot_token}").status_code == 403

    links = seat_links(app, EMAILS)
    play_by_api(client, links, random.Random(7))  # never waits on the bot: it has always moved
    game = app.extensions["pbem"].read_table(game.game_id)
    assert game.record.status == "finished"
    assert assert_bot_moves_legal(game, 3) == moves_by_origin(app, game.game_id)[EventOrigin.BOT] >= 26
    assert all(m.to_email for m in mails(app))  # nobody mailed the bot
    assert any("(played by the seat-keeper)" in m.text_body for m in mails(app, to=EMAILS[0]))
    assert len(mails(app, kind="game_over")) == 3


def test_a_game_needs_at_least_one_person(app: Flask, client: FlaskClient) -> None:
    response = new_game_page(client, bots=[0, 1, 2, 3])
    assert response.status_code == 422
    assert "At least one seat must be a person" in response.get_data(as_text=True)
    assert not mails(app)
