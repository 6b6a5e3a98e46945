"""Auto-play of forced moves: a player with exactly one legal move has it played at once (their
setting, on by default), told by one mail that only they can read as such; off, they play it."""

from __future__ import annotations

import random

from flask import Flask
from flask.testing import FlaskClient

from rules.double_side.cards import DECK
from service.eventlog.models import EventOrigin
from service.play.hosting import create_game
from tests.helpers import mails, moves_by_origin, play_path, post_form
from tests.service.play import play_by_api, seat_links
from tests.service.turns import HOST, people, play, to_act

ANN, BO, CY = (f"{name}@example.org" for name in ("ann", "bo", "cy"))
# Ann holds R1-R11 and B1, Bo R12 and B2-B12, Cy the Greens (Yellow set aside); Ann leads.
ONE_RED_FOR_BO = [*DECK[:11], DECK[12], DECK[11], *DECK[13:]]
DICE = [[[1, 2], [3, 4], [6, 5]]]


def new_game(app: Flask) -> tuple[str, list[str]]:
    """Ann leads a Red: Bo's only Red is then his only legal card."""
    options = {"deck": [ONE_RED_FOR_BO], "dice": DICE}
    rt = app.extensions["pbem"]
    game_id = create_game(rt, "double_side", people("Ann", "Bo", "Cy"), HOST, options)
    return game_id, seat_links(app, [ANN, BO, CY])


def test_a_forced_move_is_played_at_once_and_only_its_player_is_told(app: Flask) -> None:
    rt = app.extensions["pbem"]
    game_id, _ = new_game(app)
    play(rt, game_id, 0, {"card": "R1"})
    game = rt.read_table(game_id)
    bo_move = game.actions.index({"card": "R12"})
    assert game.origins[bo_move] == EventOrigin.AUTO and game.actors[bo_move] == 1
    assert to_act(rt, game_id) == {2}
    (told,) = mails(app, to=BO, kind="auto_played")
    assert "Bo played Red 12 (played for you: it was your only legal move)" in told.text_body
    assert told.text_body.startswith("Your only legal move was played for you\n")
    assert not mails(app, to=BO, kind="your_turn")
    cy = mails(app, to=CY, kind="your_turn")[-1].text_body
    assert "Bo played Red 12\n" in cy and "played for you" not in cy  # others cannot tell


def test_with_auto_play_off_the_player_makes_even_a_forced_move(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app)
    assert post_form(client, links[1], "/auto-play", auto_play="off").status_code == 303
    assert "Turn auto-play on" in client.get(links[1]).get_data(as_text=True)
    play(rt, game_id, 0, {"card": "R1"})
    assert to_act(rt, game_id) == {1}
    assert client.get("/api" + links[1]).get_json()["legal_actions"] == [{"card": "R12"}]
    assert len(mails(app, to=BO, kind="your_turn")) == 1
    # Turning it back on plays the forced move owed now, at once.
    assert post_form(client, links[1], "/auto-play", auto_play="on").status_code == 303
    assert to_act(rt, game_id) == {2} and moves_by_origin(app, game_id)[EventOrigin.AUTO] == 1
    assert len(mails(app, to=BO, kind="auto_played")) == 1


def test_a_bad_auto_play_form_changes_nothing(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app)
    assert post_form(client, links[1], "/auto-play", auto_play="maybe").status_code == 400
    assert client.post(links[1] + "/auto-play", data={"auto_play": "off"}).status_code == 400  # no CSRF
    assert app.extensions["pbem"].read_table(game_id).seats[1].auto_play


def test_a_move_is_never_forced_while_folding_is_open(app: Flask, client: FlaskClient) -> None:
    # In Red and Black Duel the player to move may always fold too: two legal moves at least.
    rt = app.extensions["pbem"]
    game_id = create_game(rt, "red_black", people("Ann", "Bo"), HOST, seed=5)
    links = [play_path(mails(app, to=e, kind="invitation")[0]) for e in ("ann@example.org", "bo@example.org")]
    play_by_api(client, links, random.Random(4))
    made = moves_by_origin(app, game_id)
    assert made[EventOrigin.AUTO] == 0 and made[EventOrigin.PLAYER] > 0
