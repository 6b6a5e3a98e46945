"""Table talk: a message sent with a move or on its own is kept with its step, shown on every seat's
page, in the next mails of the other seats and at its step of the replay, escaped everywhere; a note
to oneself is shown to nobody else; the host can hide a message (its trace stays); bad input changes
nothing."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from service.eventlog.models import TableTalk
from service.play.hosting import Player, create_game
from service.play.table_talk import MAX_TALK_PER_HOUR, TalkRefused, say_at_table
from tests.helpers import forms, mails, play_path

ANN, BO = "ann@example.org", "bo@example.org"


def duel(app: Flask) -> tuple[str, list[str]]:
    rt = app.extensions["pbem"]
    game_id = create_game(
        rt, "red_black", [Player("Ann", ANN), Player("Bo", BO)], Player("Host", "h@x.org"), seed=4
    )
    return game_id, [play_path(mails(app, to=address, kind="invitation")[0]) for address in (ANN, BO)]


def kept(app: Flask) -> list[TableTalk]:
    with Session(app.extensions["pbem"].engine) as session:
        return list(session.exec(select(TableTalk)).all())


def move_with(client: FlaskClient, link: str, message: str) -> int:
    """Play the seat's first legal card from its page, with a word to the table."""
    state = client.get("/api" + link).get_json()
    action = next(a for a in state["legal_actions"] if "card" in a)
    response = client.post("/api" + link, json={"action": action, "seq": state["seq"], "message": message})
    return response.status_code


def test_a_word_reaches_every_seat_the_next_mails_and_the_replay(app: Flask, client: FlaskClient) -> None:
    game_id, links = duel(app)
    assert move_with(client, links[0], "good luck <b>Bo</b>") == 200
    assert move_with(client, links[1], "you too") == 200
    (first, second) = kept(app)
    assert (first.seat, first.text, second.seat) == (0, "good luck <b>Bo</b>", 1)
    bo_page = client.get(links[1]).get_data(as_text=True)
    assert "good luck &lt;b&gt;Bo&lt;/b&gt;" in bo_page and "<b>Bo</b>" not in bo_page  # escaped
    texts = [line["text"] for line in client.get("/api" + links[1]).get_json()["talk"]]
    assert texts == ["good luck <b>Bo</b>", "you too"]
    replay = client.get(f"/api{links[0]}/replay/{first.step}").get_json()
    assert [line["text"] for line in replay["talk"]] == ["good luck <b>Bo</b>"]
    # The seat to play says something, then plays: the other seat's next mail carries it.
    table = app.extensions["pbem"].read_table(game_id)
    leader = min(table.rules.to_act(table.state))
    assert client.post(f"/api{links[leader]}/talk", json={"text": "nice <i>camp</i>"}).status_code == 201
    assert move_with(client, links[leader], "") == 200
    other = 1 - leader
    told = [m for m in mails(app) if m.seat == other][-1]
    assert f"{('Ann', 'Bo')[leader]} said" in told.text_body and "nice <i>camp</i>" in told.text_body
    assert "nice &lt;i&gt;camp&lt;/i&gt;" in told.html_body


def test_a_note_to_oneself_is_shown_to_nobody_else(app: Flask, client: FlaskClient) -> None:
    _, (ann, bo) = duel(app)
    page = client.get(ann).get_data(as_text=True)
    form = next(f for f in forms(page) if f.action.endswith("/talk"))
    answer = client.post(form.action, data={**form.fields, "text": "bluff with the 9", "private": "yes"})
    assert answer.status_code == 303
    assert "bluff with the 9" in client.get(ann).get_data(as_text=True)
    assert "bluff with the 9" not in client.get(bo).get_data(as_text=True)
    assert client.get("/api" + bo).get_json()["talk"] == []


def test_the_host_hides_a_message_and_its_trace_stays(app: Flask, client: FlaskClient) -> None:
    game_id, (_, bo) = duel(app)
    rt = app.extensions["pbem"]
    say_at_table(rt, game_id, 0, "buy cheap watches")
    host = _host_path(app)
    page = client.get(host).get_data(as_text=True)
    form = next(f for f in forms(page) if "/talk/" in f.action)
    assert client.post(form.action, data=form.fields).status_code == 303
    bo_page = client.get(bo).get_data(as_text=True)
    assert "buy cheap watches" not in bo_page and "hidden by the host" in bo_page
    assert kept(app)[0].text == "buy cheap watches", "nothing is deleted: hidden, not erased"


def _host_path(app: Flask) -> str:
    (host_mail,) = mails(app, kind="host")
    match = re.search(r"http://localhost(/host/[A-Za-z0-9_.\-]+)", host_mail.text_body)
    assert match
    return match.group(1)


def test_bad_messages_change_nothing(app: Flask, client: FlaskClient) -> None:
    game_id, (ann, _) = duel(app)
    seq = client.get("/api" + ann).get_json()["seq"]
    too_long = client.post("/api" + ann + "/talk", json={"text": "x" * 600})
    assert too_long.status_code == 422
    blank = client.post("/api" + ann + "/talk", json={"text": "\u200b\x07 "})
    assert blank.status_code == 422
    assert move_with(client, ann, "y" * 600) == 422
    assert kept(app) == [] and client.get("/api" + ann).get_json()["seq"] == seq  # no move either
    nul = client.post("/api" + ann + "/talk", json={"text": "hi\x00"})  # refused before any query
    assert nul.status_code == 400 and kept(app) == []
    cleaned = client.post("/api" + ann + "/talk", json={"text": "hi\u202e there\x07"})
    assert cleaned.status_code == 201 and kept(app)[0].text == "hi there"
    rt = app.extensions["pbem"]
    for _ in range(MAX_TALK_PER_HOUR - 1):
        say_at_table(rt, game_id, 0, "again")
    with pytest.raises(TalkRefused):
        say_at_table(rt, game_id, 0, "one too many")
    assert len(kept(app)) == MAX_TALK_PER_HOUR
