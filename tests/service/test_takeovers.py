"""The host's takeovers from the host page: a seat given to a new player, the seat-keeper in and out,
more time, a forfeit and a draw. Each is an event of the log (origin host), told to every seat by
mail, shown in the replay, and accepted by the fairness re-run; the replaced player's links stop."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.table import DEADLINE_EXTENDED, DRAWN, FORFEITED, SEAT_KEPT, SEAT_REPLACED
from service import create_app
from service.eventlog.models import EventOrigin, GameStatus, SeatKeeper
from service.replay.steps import replay_of
from tests.conftest import app_config
from tests.helpers import event_count, forms, mails, play_path, post_form
from tests.service.replay_games import add_moves
from tests.service.turns import new_game, people, play, stepping, to_act

ANN, BO, CY, EVE = (f"{name}@example.org" for name in ("ann", "bo", "cy", "eve"))
UNSUBSCRIBE = re.compile(r"http://localhost(/unsubscribe/[A-Za-z0-9_.\-]+)")


def host_link(app: Flask, game_id: str) -> str:
    return "/host/" + app.extensions["pbem"].signer.host_token(game_id, 1)


def link(app: Flask, email: str, kind: str = "invitation") -> str:
    return play_path(mails(app, to=email, kind=kind)[-1])


def host_events(app: Flask, game_id: str) -> list[dict]:
    table = app.extensions["pbem"].read_table(game_id)
    return [event for event, origin in zip(table.events, table.origins, strict=True) if origin == "host"]


def replay_lines(client: FlaskClient, path: str) -> list[str]:
    """Every step's line of the replay, from its JSON twin."""
    first = client.get(f"/api{path}/replay/1").get_json()
    return [client.get(f"/api{path}/replay/{n}").get_json()["line"] for n in range(1, first["steps"] + 1)]


def test_the_host_gives_a_seat_to_a_new_player(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    play(rt, game_id, 0)
    old = link(app, BO)
    old_unsubscribe = UNSUBSCRIBE.search(mails(app, to=BO)[-1].text_body).group(1)  # type: ignore[union-attr]
    host = host_link(app, game_id)
    assert "Change who plays this seat" in client.get(host).get_data(as_text=True)

    response = post_form(client, host, "/seats/1/replace", name="Eve", email=EVE)
    assert response.status_code == 303
    table = rt.read_table(game_id)
    assert table.names == ["Ann", "Eve"] and table.seats[1].email == EVE and table.seats[1].key_version == 2
    assert host_events(app, game_id) == [table.rules.event(SEAT_REPLACED, seat=1, name="Eve", replaced="Bo")]
    assert EVE not in str(table.events) + str(table.actions)  # no address in the log

    assert client.get(old).status_code == 403  # the replaced player's link and unsubscribe link stop
    assert client.get(old_unsubscribe).status_code == 403
    (invited,) = mails(app, to=EVE, kind="taken_over")
    assert "the seat Bo played until now" in invited.text_body and "/replay" in invited.text_body
    assert client.get(play_path(invited)).status_code == 200
    (told_bo,) = mails(app, to=BO, kind="replaced")
    assert "gave your seat in this game to Eve" in told_bo.text_body
    # Bo has no move left to make: his mail neither invites a reply nor offers to choose ahead.
    assert told_bo.reply_to == "" and "by replying" not in told_bo.text_body + told_bo.html_body
    assert "choose your coming play ahead" not in told_bo.text_body
    (told_ann,) = mails(app, to=ANN, kind="host_decision")
    assert "The host gave the seat of Bo to Eve." in told_ann.text_body
    assert "The host gave the seat of Bo to Eve." in replay_lines(client, link(app, ANN))

    # Eve plays the seat from her link; the log re-runs from the seed with the decision in it.
    assert to_act(rt, game_id) == {1}
    assert play(rt, game_id, 1).status == "accepted"
    replay = replay_of(rt.replays, rt.read_table(game_id))
    assert replay.rerun.ok


def test_the_seat_keeper_in_and_out_and_more_time(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), move_days=2)
    host = host_link(app, game_id)
    waiting = min(to_act(rt, game_id))
    email = f"{['ann', 'bo', 'cy', 'di'][waiting]}@example.org"
    name = ["Ann", "Bo", "Cy", "Di"][waiting]
    clock.advance(hours=40)
    before = rt.read_table(game_id)
    assert post_form(client, host, f"/seats/{waiting}/more-time", days="3").status_code == 303
    (extended,) = mails(app, to=email, kind="deadline_extended")
    assert "Sat, Jun 6, 1:00\u202fAM (UTC)" in extended.text_body  # 3 days from the decision
    others = mails(app, kind="host_decision")
    assert len(others) == 3 and email not in {mail.to_email for mail in others}
    assert f"The host gave {name} a fresh clock of 3 days for this move." in others[0].text_body

    assert post_form(client, host, f"/seats/{waiting}/keeper", keeper="in").status_code == 303
    table = rt.read_table(game_id)
    assert table.seats[waiting].keeper == SeatKeeper.STAND_IN
    assert table.version > before.version + 2  # the seat-keeper played the owed move at once
    assert len(mails(app, to=email, kind="host_decision")) == 1  # every seat is told, this one too
    assert post_form(client, host, f"/seats/{waiting}/keeper", keeper="out").status_code == 303
    assert rt.read_table(game_id).seats[waiting].keeper == SeatKeeper.PLAYER
    kinds = [event["type"] for event in host_events(app, game_id)]
    assert kinds == [DEADLINE_EXTENDED, SEAT_KEPT, SEAT_KEPT]
    lines = replay_lines(client, link(app, ANN))
    assert f"The host gave the seat of {name} to the seat-keeper." in lines
    assert f"The host gave the seat back to {name}: the seat-keeper no longer plays it." in lines
    assert replay_of(rt.replays, rt.read_table(game_id)).rerun.ok


@pytest.mark.parametrize("ending", ["draw", "forfeit"])
def test_the_host_ends_the_game(app: Flask, client: FlaskClient, ending: str) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "double_side", people("Ann", "Bo", "Cy"))
    add_moves(rt, game_id, random.Random(3), moves=5)
    host = host_link(app, game_id)
    suffix = "/draw" if ending == "draw" else "/seats/2/forfeit"
    assert post_form(client, host, suffix).status_code == 400  # not confirmed: nothing changes
    assert rt.read_table(game_id).active
    assert post_form(client, host, suffix, confirmed="yes").status_code == 303
    table = rt.read_table(game_id)
    assert table.status == GameStatus.FINISHED and table.origins[-1] == EventOrigin.HOST
    if ending == "draw":
        assert table.result == {"winners": [0, 1, 2], "draw": True}
        assert host_events(app, game_id) == [table.rules.event(DRAWN, by="host", winners=[0, 1, 2])]
        over = [mail for mail in mails(app, kind="game_over") if mail.seat is not None]  # and the host's
        assert len(over) == 3 and all("It ended in a draw." in mail.text_body for mail in over)
        assert "The host ended the game as a draw." in over[0].text_body
        line = "The host ended the game as a draw."
    else:
        assert table.result == {"winners": [0, 1], "forfeit": 2}
        assert [event["type"] for event in host_events(app, game_id)] == [FORFEITED]
        told = mails(app, kind="forfeit")
        assert len(told) == 3 and "The host declared that Cy forfeits" in told[0].text_body
        line = "Cy forfeited: Ann and Bo win."
    page = client.get(link(app, ANN)).get_data(as_text=True)
    assert ("A draw." if ending == "draw" else "Cy forfeited.") in page
    assert line in replay_lines(client, link(app, ANN))
    fairness = client.get(f"/api{link(app, ANN)}/history").get_json()["fairness"]
    assert fairness["rerun_ok"] and fairness["hash_ok"]


def test_bad_takeovers_change_nothing(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    host = host_link(app, game_id)
    csrf = forms(client.get(host).get_data(as_text=True))[0].fields["csrf_token"]
    before, sent = event_count(app, game_id), len(mails(app))

    def post(path: str, **data: str) -> int:
        return client.post(host + path, data={"csrf_token": csrf, **data}).status_code

    assert post("/seats/1/replace", name="Eve", email="not an address") == 400
    assert post("/seats/1/replace", name="", email=EVE) == 400
    assert post("/seats/5/replace", name="Eve", email=EVE) == 404
    assert post("/seats/1/keeper", keeper="sideways") == 400
    assert post("/seats/1/keeper", keeper="out") == 409  # not kept by the seat-keeper
    assert post("/seats/0/more-time", days="4") == 400
    assert post("/seats/0/more-time", days="2") == 409  # no time limit in this game: nothing owed
    assert client.post(host + "/seats/1/replace", data={"name": "Eve", "email": EVE}).status_code == 400
    forged = "/host/" + rt.signer.player_token(game_id, 0, 1)  # another link's token
    assert client.post(forged + "/draw", data={"csrf_token": csrf, "confirmed": "yes"}).status_code == 403
    assert event_count(app, game_id) == before and len(mails(app)) == sent

    assert post("/draw", confirmed="yes") == 303
    after = event_count(app, game_id)
    assert post("/seats/1/replace", name="Eve", email=EVE) == 409  # the game is over
    assert post("/draw", confirmed="yes") == 409
    assert event_count(app, game_id) == after


@pytest.mark.parametrize("name", ["Аnn", "ANN", "Ｂo (you)", "Seat-keeper", "Cy (あなた)", "ホスト"])
def test_the_host_cannot_seat_a_name_passing_for_another_or_for_a_label(
    app: Flask, client: FlaskClient, name: str
) -> None:
    """Other seats read "Ann (you) Ann Ann (you) Seat-keeper · to move" when these were taken."""
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    host = host_link(app, game_id)
    before = event_count(app, game_id)
    response = post_form(client, host, "/seats/1/replace", name=name, email=EVE)
    assert response.status_code == 409
    text = response.get_data(as_text=True)
    assert "reads too much like" in text or "cannot read as a label of the page" in text
    assert event_count(app, game_id) == before and not mails(app, to=EVE)


def test_seat_replacements_are_limited_and_an_unsubscribed_seat_hears_only_what_it_must(
    tmp_path: Path,
) -> None:
    app = create_app(app_config(tmp_path, None, RATE_LIMITS=True, LIMIT_PER_ADDRESS="3 per hour"))
    client = app.test_client()
    with app.app_context():
        rt, _ = stepping(app)
        game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
        host = host_link(app, game_id)
        ann = mails(app, to="ann@example.org", kind="invitation")[0]
        assert client.post(ann.unsubscribe_url.removeprefix("http://localhost")).status_code == 200
        answers = [
            post_form(
                client, host, "/seats/1/replace", name=f"Spam {n}", email=f"s{n}@example.net"
            ).status_code
            for n in range(5)
        ]
        assert answers == [303, 303, 303, 429, 429]  # the game's seats are mailed at most 3 times an hour
        assert len({m.to_email for m in mails(app, kind="taken_over")}) == 3
        for path in ("/seats/1/keeper",):  # the game's budget is spent: its other takeovers wait too
            assert post_form(client, host, path, keeper="in").status_code == 429
        assert not mails(app, to="ann@example.org", kind="host_decision")  # Ann turned mail off
    app.extensions["pbem"].engine.dispose()


def test_an_unsubscribed_seat_still_hears_that_its_game_ended(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    host = host_link(app, game_id)
    ann = mails(app, to="ann@example.org", kind="invitation")[0]
    assert client.post(ann.unsubscribe_url.removeprefix("http://localhost")).status_code == 200
    assert post_form(client, host, "/seats/1/keeper", keeper="in").status_code == 303
    assert post_form(client, host, "/seats/1/keeper", keeper="out").status_code == 303
    assert post_form(client, host, "/seats/1/replace", name="Cy", email="cy@example.org").status_code == 303
    assert len(mails(app, to="bo@example.org", kind="host_decision")) == 2  # Bo still hears
    assert not mails(app, to="ann@example.org", kind="host_decision")
    assert post_form(client, host, "/draw", confirmed="yes").status_code == 303
    assert [m.kind for m in mails(app, to="ann@example.org")][-1] == "game_over"


def test_a_resend_to_a_seat_with_mail_off_tells_the_host_nothing_was_sent(
    app: Flask, client: FlaskClient
) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    host = host_link(app, game_id)
    ann = mails(app, to="ann@example.org", kind="invitation")[0]
    assert client.post(ann.unsubscribe_url.removeprefix("http://localhost")).status_code == 200
    before = len(mails(app, to="ann@example.org"))
    answer = post_form(client, host, "/seats/0/resend")
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "turned mail off, so the link was not sent" in page and "The link was sent again." not in page
    assert len(mails(app, to="ann@example.org")) == before
    post_form(client, host, "/seats/1/resend")  # Bo still takes mail: his link goes
    assert mails(app, to="bo@example.org")[-1].kind == "link_resent"
