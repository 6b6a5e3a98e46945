"""Every bad input gets a clear 4xx and leaves the event log as it was."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from service import create_app
from service.links import PLAY_SALT
from service.play.hosting import Player, create_game, revoke_link
from tests.conftest import app_config
from tests.helpers import event_count, mails, move_form, play_path

EMAILS = ["ann@example.org", "bo@example.org"]


@dataclass
class Game:
    id: str
    links: list[str]


@pytest.fixture
def game(app: Flask) -> Game:
    game_id = create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=3,
    )
    return Game(game_id, [play_path(mails(app, to=e, kind="invitation")[0]) for e in EMAILS])


@pytest.fixture
def unchanged(app: Flask, game: Game) -> Iterator[None]:
    """Asserts after the test that no event was appended."""
    before = event_count(app, game.id)
    yield
    assert event_count(app, game.id) == before


def api_state(client: FlaskClient, link: str) -> dict:
    return client.get("/api" + link).get_json()


def test_forged_link_is_refused_with_a_clear_page(client: FlaskClient, game: Game, unchanged: None) -> None:
    token = game.links[0].removeprefix("/play/")
    forged = "/play/" + token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    page = client.get(forged)
    assert page.status_code == 403
    assert "not valid" in page.get_data(as_text=True) and "Traceback" not in page.get_data(as_text=True)
    assert client.get("/play/nonsense").status_code == 403
    assert client.post("/api" + forged, json={"action": {"card": "AS"}, "seq": 1}).status_code == 403


def test_expired_link_is_refused(app: Flask, client: FlaskClient, game: Game, unchanged: None) -> None:
    class TwoYearsAgo(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - 2 * 365 * 86400

    old = URLSafeTimedSerializer("test-secret", salt=PLAY_SALT, signer=TwoYearsAgo)
    token = old.dumps({"g": game.id, "s": 0, "k": 1})
    page = client.get(f"/play/{token}")
    assert page.status_code == 403 and "expired" in page.get_data(as_text=True)


def test_revoked_link_is_refused_and_the_new_one_works(
    app: Flask, client: FlaskClient, game: Game, unchanged: None
) -> None:
    revoke_link(app.extensions["pbem"], game.id, 0)
    old = client.get(game.links[0])
    assert old.status_code == 403 and "replaced" in old.get_data(as_text=True)
    new_link = play_path(mails(app, to=EMAILS[0], kind="link_reissued")[-1])
    assert new_link != game.links[0] and client.get(new_link).status_code == 200


def test_link_signed_with_a_rotated_out_key_still_works(tmp_path: Path, app: Flask, game: Game) -> None:
    rotated = create_app(
        app_config(
            tmp_path, app.config["PBEM"]["DATABASE_URL"], SECRET_KEY="new-key", OLD_SECRET_KEYS="test-secret"
        )
    )
    assert rotated.test_client().get(game.links[0]).status_code == 200
    stranger = create_app(app_config(tmp_path, app.config["PBEM"]["DATABASE_URL"], SECRET_KEY="other"))
    assert stranger.test_client().get(game.links[0]).status_code == 403


def test_token_for_a_seat_the_game_lacks_is_refused(app: Flask, client: FlaskClient, game: Game) -> None:
    token = app.extensions["pbem"].signer.player_token(game.id, 5, 1)
    assert client.get(f"/play/{token}").status_code == 403


def test_other_seats_card_is_refused(client: FlaskClient, game: Game, unchanged: None) -> None:
    ann, bo = (api_state(client, link) for link in game.links)
    response = client.post("/api" + game.links[1], json={"action": ann["legal_actions"][0], "seq": bo["seq"]})
    assert response.status_code == 422
    assert "hand" in response.get_json()["message"].lower()


def test_illegal_card_on_the_page_is_refused(client: FlaskClient, game: Game, unchanged: None) -> None:
    form = move_form(client.get(game.links[0]).get_data(as_text=True))
    response = client.post(game.links[0], data={**form.fields, "action": json.dumps({"card": "ZZ"})})
    assert response.status_code == 422
    assert 'data-outcome="rejected"' in response.get_data(as_text=True)


def test_replayed_post_applies_once(app: Flask, client: FlaskClient, game: Game) -> None:
    form = move_form(client.get(game.links[0]).get_data(as_text=True))
    data = {**form.fields, "action": json.dumps(form.actions()[0])}
    assert client.post(game.links[0], data=data).status_code == 303
    after_first = event_count(app, game.id)
    again = client.post(game.links[0], data=data)
    assert again.status_code == 409 and "already" in again.get_data(as_text=True)
    assert event_count(app, game.id) == after_first


def test_stale_seq_answers_the_game_moved_on(app: Flask, client: FlaskClient, game: Game) -> None:
    for link in game.links:  # both camp cards: the play starts
        state = api_state(client, link)
        client.post("/api" + link, json={"action": state["legal_actions"][0], "seq": state["seq"]})
    states = [api_state(client, link) for link in game.links]
    leader = next(s for s in states if s["seat"] in s["to_act"])
    other = next(s for s in states if s is not leader)
    old_seq = other["seq"]
    card = next(a for a in leader["legal_actions"] if "card" in a)
    client.post("/api" + game.links[leader["seat"]], json={"action": card, "seq": leader["seq"]})
    before = event_count(app, game.id)
    stale = client.post(
        "/api" + game.links[other["seat"]], json={"action": {"fold": True}, "seq": old_seq - 5}
    )
    assert stale.status_code == 409 and stale.get_json()["status"] == "stale"
    page = client.get(game.links[other["seat"]]).get_data(as_text=True)
    form = move_form(page)
    form.fields["seq"] = str(old_seq - 5)
    response = client.post(
        game.links[other["seat"]], data={**form.fields, "action": json.dumps(form.actions()[0])}
    )
    assert response.status_code == 409 and "moved on" in response.get_data(as_text=True)
    assert move_form(response.get_data(as_text=True)).fields["seq"] == str(before)
    assert event_count(app, game.id) == before


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        json.dumps([1, 2]),
        json.dumps({"action": {}}),
        json.dumps({"action": {"card": "AS"}, "seq": 2**31}),
        json.dumps({"action": {"card": "AS"}, "seq": "7"}),
    ],
)
def test_malformed_json_is_refused(client: FlaskClient, game: Game, unchanged: None, body: str) -> None:
    response = client.post("/api" + game.links[0], data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]


@pytest.mark.parametrize(
    "fields",
    [{"action": "{not json"}, {"action": "NaN"}, {"seq": "x"}, {"seq": ""}, {"seq": "²"}, {"action": ""}],
)
def test_malformed_form_is_refused(client: FlaskClient, game: Game, unchanged: None, fields: dict) -> None:
    form = move_form(client.get(game.links[0]).get_data(as_text=True))
    data = {**form.fields, "action": json.dumps(form.actions()[0]), **fields}
    response = client.post(game.links[0], data=data)
    assert response.status_code == 400
    assert "damaged" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("action", "wording"),
    [
        ("fold", "An action is a JSON object"),
        ([1, 2], "An action is a JSON object"),
        ({"card": ["AS"]}, "is not a card"),
        ({"fold": 1}, "To fold"),
        ({"card": "AS", "x": {"y": 10**30}}, '"x" has no place in this action'),
    ],
)
def test_an_action_of_the_wrong_shape_is_refused_naming_what_is_wrong(
    client: FlaskClient, game: Game, unchanged: None, action: object, wording: str
) -> None:
    seq = api_state(client, game.links[0])["seq"]
    response = client.post("/api" + game.links[0], json={"action": action, "seq": seq})
    assert response.status_code == 422 and response.get_json()["status"] == "rejected"
    assert wording in response.get_json()["message"]
    form = move_form(client.get(game.links[0]).get_data(as_text=True))
    page = client.post(game.links[0], data={**form.fields, "action": json.dumps(action)})
    assert page.status_code == 422 and wording in page.get_data(as_text=True).replace("&#34;", '"')


def test_form_without_csrf_token_is_refused(client: FlaskClient, game: Game, unchanged: None) -> None:
    form = move_form(client.get(game.links[0]).get_data(as_text=True))
    data = {"seq": form.fields["seq"], "action": json.dumps(form.actions()[0])}
    response = client.post(game.links[0], data=data)
    assert response.status_code == 400 and "expired" in response.get_data(as_text=True)


def test_get_requests_change_nothing(app: Flask, client: FlaskClient, game: Game, unchanged: None) -> None:
    outbox = len(mails(app))
    for link in game.links:
        for path in (link, "/api" + link, link + "?cmd=1", "/game/" + game.id, "/outbox"):
            assert client.get(path).status_code == 200
    host_path = "/host/" + app.extensions["pbem"].signer.host_token(game.id, 1)
    assert client.get(host_path).status_code == 200
    assert client.get(host_path + "/cancel").status_code == 405
    assert len(mails(app)) == outbox


@pytest.mark.parametrize("route", ["", "/talk", "/ahead", "/settings"])
@pytest.mark.parametrize("body", [{"data": {"action": "{}", "seq": "1"}}, {"data": {}}, {}])
def test_a_json_route_refuses_a_form_or_no_body_naming_json(
    client: FlaskClient, game: Game, unchanged: None, route: str, body: dict
) -> None:
    """A form-encoded (or empty) body reached the view as `json=None`: a 500."""
    response = client.post("/api" + game.links[0] + route, **body)
    assert response.status_code == 400
    assert response.get_json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"card": "\ud800"}, "seq": 1},
        {"action": {"card": "AS", "\udfff": 1}, "seq": 1},
        {"action": {"card": "A\x00S"}, "seq": 1},
    ],
)
def test_json_holding_a_lone_surrogate_or_a_nul_is_refused_as_broken(
    client: FlaskClient, game: Game, unchanged: None, body: dict
) -> None:
    """A refusal echoed the lone surrogate, which the answer's own model could not read: a 500."""
    response = client.post("/api" + game.links[0], data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert "not JSON this service reads" in response.get_json()["error"]
    talk = client.post(
        "/api" + game.links[0] + "/talk", data='{"text": "hi \\ud800"}', content_type="application/json"
    )
    assert talk.status_code == 400
