"""What happens when a player runs out of time, by the game's policy: the seat-keeper takes the seat
until the player takes it back, the player forfeits, or the host decides (seat-keeper, forfeit or
more days), each exactly once."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from service.eventlog.models import EventOrigin, GameStatus, SeatKeeper, TimeoutPolicy
from service.play import automatic
from service.play.timeouts import ClockRun, timed_out_clocks
from tests.helpers import forms, mails, moves_by_origin, play_path, post_form, same_link
from tests.service.turns import beat, new_game, people, play, stepping, to_act

ANN, BO = "ann@example.org", "bo@example.org"
HOST_LINK = re.compile(r"http://localhost(/host/[A-Za-z0-9_.\-]+)")


def link(app: Flask, email: str) -> str:
    return play_path(mails(app, to=email, kind="invitation")[0])


def test_the_seat_keeper_takes_over_until_the_player_takes_the_seat_back(
    app: Flask, client: FlaskClient
) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=23, minutes=59).timeouts == 0
    assert beat(rt, clock, minutes=2).timeouts == 1
    assert beat(rt, clock, hours=1) == ClockRun()  # exactly once

    game = rt.read_table(game_id)
    assert game.seats[1].keeper == SeatKeeper.STAND_IN
    assert moves_by_origin(app, game_id)[EventOrigin.BOT] >= 1  # Bo's camp card, and on while Bo owes
    assert to_act(rt, game_id) == {0}  # the seat-keeper plays Bo's moves at once
    (taken,) = mails(app, to=BO, kind="seat_keeper")
    assert "take your seat back" in taken.text_body and same_link(play_path(taken), link(app, BO))
    told = mails(app, to=ANN, kind="your_turn")[-1].text_body
    assert "Bo placed a camp card face down. (played by the seat-keeper)" in told

    bo_page = client.get(link(app, BO)).get_data(as_text=True)
    assert "Take my seat back" in bo_page
    assert client.get(link(app, ANN)).get_data(as_text=True).count("the seat-keeper plays") == 0
    assert post_form(client, link(app, BO), "/seat").status_code == 303
    assert rt.read_table(game_id).seats[1].keeper == SeatKeeper.PLAYER
    assert "Take my seat back" not in client.get(link(app, BO)).get_data(as_text=True)

    while 1 not in to_act(rt, game_id):  # Ann plays until Bo owes a move: now Bo makes it himself
        play(rt, game_id, 0)
    automatic_before = moves_by_origin(app, game_id)[EventOrigin.BOT]
    state = client.get("/api" + link(app, BO)).get_json()
    assert state["my_seat"]["kept_by"] == SeatKeeper.PLAYER
    assert [w["seat"] for w in state["waiting_on"]] == [1] and state["waiting_on"][0]["due"]
    assert moves_by_origin(app, game_id)[EventOrigin.BOT] == automatic_before


def test_a_move_by_hand_takes_the_seat_back_too(app: Flask) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    play(rt, game_id, 1)
    beat(rt, clock, hours=25)  # Ann timed out; the seat-keeper plays her camp card (and on)
    assert rt.read_table(game_id).seats[0].keeper == SeatKeeper.STAND_IN
    play(rt, game_id, 0, {"fold": True})  # folding is open to Ann at any time: she does it herself
    assert rt.read_table(game_id).seats[0].keeper == SeatKeeper.PLAYER


def test_forfeit_ends_the_game_for_everyone(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timeout=TimeoutPolicy.FORFEIT)
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=25).timeouts == 1
    game = rt.read_table(game_id)
    assert game.record.status == GameStatus.FINISHED  # the row's cache of the log
    assert (game.events[-1]["type"], game.origins[-1]) == ("GameForfeited", EventOrigin.GAME)
    assert game.result == {"winners": [0], "forfeit": 1}
    assert sorted(m.to_email for m in mails(app, kind="forfeit")) == [ANN, BO]
    assert all("Bo ran out of time and forfeited" in m.text_body for m in mails(app, kind="forfeit"))
    page = client.get(link(app, ANN)).get_data(as_text=True)
    assert "Bo forfeited." in page and "Winner: Ann" in page
    state = client.get("/api" + link(app, BO)).get_json()
    assert state["result"]["forfeit"] == 1 and state["legal_actions"] == [] and state["waiting_on"] == []
    assert beat(rt, clock, days=3) == ClockRun()


def test_a_forfeit_in_a_partnership_loses_for_both_partners(pg_app: Flask) -> None:
    rt, clock = stepping(pg_app)
    options = {"first_leader": 1}
    game_id = new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), options=options, timeout="forfeit")
    beat(rt, clock, hours=25)  # Bo never leads
    assert rt.read_table(game_id).result == {"winners": [0, 2], "forfeit": 1}


def timed_out_form(app: Flask, game_id: str) -> str:
    """The action suffix of the host's decision form for the game's player out of time."""
    with Session(app.extensions["pbem"].engine) as session:
        (clock,) = timed_out_clocks(session, game_id)
    return f"/clocks/{clock.id}"


def test_the_host_decides_more_time_then_the_seat_keeper(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timeout=TimeoutPolicy.HOST)
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=25).timeouts == 1
    (asked,) = mails(app, kind="host_asked")
    host = HOST_LINK.search(asked.text_body).group(1)  # type: ignore[union-attr]
    assert asked.to_email == "host@example.org" and client.get(host).status_code == 200
    assert asked.text_body.startswith("Bo ran out of time\n")
    assert to_act(rt, game_id) == {1} and rt.read_table(game_id).seats[1].keeper == SeatKeeper.PLAYER
    assert beat(rt, clock, hours=5) == ClockRun()  # asked once; the game waits for the host
    assert "out of time; the host decides" in client.get(link(app, ANN)).get_data(as_text=True)

    decide = timed_out_form(app, game_id)
    assert "Let the seat-keeper play this move" in client.get(host).get_data(as_text=True)
    assert post_form(client, host, decide, decision="more_time", days="2").status_code == 303
    (extended,) = mails(app, to=BO, kind="deadline_extended")
    assert "Thu, Jun 4, 3:00\u202fPM (UTC)" in extended.text_body  # two days from the decision
    # The reminder the catch-up skipped comes for the new deadline (still once per owed move).
    assert beat(rt, clock, days=1, hours=23) == ClockRun(reminders=1)
    assert beat(rt, clock, hours=2).timeouts == 1  # out of time again: the host is asked again
    assert len(mails(app, kind="host_asked")) == 2

    assert post_form(client, host, decide, decision="keeper").status_code == 303
    game = rt.read_table(game_id)
    assert moves_by_origin(app, game_id)[EventOrigin.BOT] == 1  # this one move only
    assert game.seats[1].keeper == SeatKeeper.PLAYER and 1 not in to_act(rt, game_id)
    csrf = forms(client.get(host).get_data(as_text=True))[0].fields["csrf_token"]
    again = client.post(
        host + decide, data={"csrf_token": csrf, "decision": "forfeit"}, follow_redirects=True
    )
    assert "no longer waits for a decision" in again.get_data(as_text=True)
    assert rt.read_table(game_id).active


def test_the_host_may_declare_a_forfeit(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timeout=TimeoutPolicy.HOST)
    host = "/host/" + rt.signer.host_token(game_id, 1)
    play(rt, game_id, 0)
    beat(rt, clock, hours=25)
    assert post_form(client, host, timed_out_form(app, game_id), decision="forfeit").status_code == 303
    assert rt.read_table(game_id).result == {"winners": [0], "forfeit": 1}
    assert len(mails(app, kind="forfeit")) == 2
    assert "Let the seat-keeper play this move" not in client.get(host).get_data(as_text=True)


def test_a_seats_clock_starts_when_it_begins_to_owe(app: Flask) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    clock.advance(hours=3)
    play(rt, game_id, 0)
    play(rt, game_id, 1)  # camp cards revealed at 12:00: the first play of the round is owed since
    (first,) = to_act(rt, game_id)
    assert beat(rt, clock, hours=23, minutes=59).timeouts == 0  # the game is 27 h old, the move 24 h
    assert beat(rt, clock, minutes=2).timeouts == 1
    assert rt.read_table(game_id).seats[first].keeper == SeatKeeper.STAND_IN


def test_when_every_seat_is_kept_the_game_plays_on_in_steps_of_the_beat(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(automatic, "MAX_AUTOMATIC_MOVES", 3)  # moves per transaction
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    assert beat(rt, clock, hours=25).timeouts == 2  # both silent: the seat-keeper keeps both seats
    runs = 0
    while rt.read_table(game_id).active:
        assert beat(rt, clock, minutes=1).automatic == 1  # the beat carries on where the last stopped
        runs += 1
    made = moves_by_origin(app, game_id)
    assert runs > 1 and made[EventOrigin.BOT] == sum(made.values())
    assert len(mails(app, kind="game_over")) == 3  # both players and the host
