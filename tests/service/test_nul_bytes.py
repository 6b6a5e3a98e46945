"""A NUL character reaches no query: PostgreSQL refuses one in any text (`psycopg.DataError`), which was
a 500. Every route of the app, with a NUL in each of its path parameters in turn, then in its query
string, form and JSON body, answers 4xx on the real PostgreSQL and changes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from service.play.hosting import Player, create_game
from service.web.openapi import spec
from tests.helpers import event_count

NUL = "%00"
PARAMETER = re.compile(r"<(\w+:)?(\w+)>")
METHODS = ("GET", "POST", "DELETE")


@pytest.fixture
def real(pg_app: Flask) -> dict[str, str]:
    """Real values for each kind of path parameter: a running game's id and links."""
    pg_app.config["WTF_CSRF_ENABLED"] = False  # what comes after the CSRF check is what is fuzzed
    rt = pg_app.extensions["pbem"]
    players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
    game_id = create_game(rt, "red_black", players, Player("Host", "host@example.org"), seed=3)
    return {"game_id": game_id, "game": "red_black", "token": rt.signer.player_token(game_id, 0, 1)}


def rules(app: Flask) -> Iterator[Rule]:
    return (rule for rule in app.url_map.iter_rules() if rule.endpoint != "static")


def path(rule: Rule, values: dict[str, str]) -> str:
    """The rule's path with `values` for its parameters (written as they are, %00 included)."""
    return PARAMETER.sub(lambda found: values[found[2]], rule.rule)


def requests(rule: Rule, real: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(method, path) with a NUL in each string parameter of the rule in turn, the others real."""
    parameters = PARAMETER.findall(rule.rule)
    fine = {name: real.get(name, "1") for _, name in parameters}
    for converter, name in parameters:
        if converter == "int:":  # a NUL matches no route at all
            continue
        for method in sorted(set(METHODS) & (rule.methods or set())):
            yield method, path(rule, {**fine, name: fine[name][:4] + NUL + fine[name][4:]})


def test_a_nul_in_any_path_parameter_is_a_404_not_a_500(pg_app: Flask, real: dict[str, str]) -> None:
    client, before, tried = pg_app.test_client(), event_count(pg_app, real["game_id"]), 0
    for rule in rules(pg_app):
        for method, url in requests(rule, real):
            response = client.open(url, method=method)
            assert response.status_code == 404, (method, url, response.get_data(as_text=True)[:300])
            tried += 1
    assert tried > 40  # every route with a string parameter was tried
    assert event_count(pg_app, real["game_id"]) == before


def reads_json(app: Flask, rule: Rule) -> bool:
    """Whether the route's POST takes a JSON body, as the OpenAPI document says."""
    with app.app_context():
        operations = spec.spec["paths"].get(PARAMETER.sub(lambda found: "{" + found[2] + "}", rule.rule), {})
    return "requestBody" in operations.get("post", {})


def test_a_nul_in_a_query_form_or_json_value_is_a_400(pg_app: Flask, real: dict[str, str]) -> None:
    client, before = pg_app.test_client(), event_count(pg_app, real["game_id"])
    fine = {name: real.get(name, "1") for name in ("game_id", "game", "token")}
    json_routes = 0
    for rule in rules(pg_app):
        url = path(
            rule, {**fine, **{name: "1" for _, name in PARAMETER.findall(rule.rule) if name not in fine}}
        )
        for method in sorted(set(METHODS) & (rule.methods or set())):
            odd = client.open(f"{url}?to=a{NUL}b&game=x{NUL}", method=method)
            assert odd.status_code in (400, 405), (method, url, odd.get_data(as_text=True)[:300])
            if method == "POST":
                form = client.post(url, data={"email": "a\x00@example.org", "text": "hi\x00"})
                assert form.status_code == 400, (url, form.get_data(as_text=True)[:300])
                body = json.dumps({"action": {"card": "A\x00S"}, "seq": 1, "text": "\x00", "accept": True})
                sent = client.post(url, data=body, content_type="application/json")
                assert sent.status_code < 500, (url, sent.get_data(as_text=True)[:300])
                if url.startswith("/api/play/") and reads_json(pg_app, rule):  # on a real link
                    assert sent.status_code == 400, url
                    json_routes += 1
    assert json_routes >= 4, json_routes  # the move, talk, settings, plays chosen ahead, channels
    assert event_count(pg_app, real["game_id"]) == before


def test_the_outbox_searched_for_a_nul_is_refused(pg_app: Flask, real: dict[str, str]) -> None:
    """The outbox page's search went into a query as it came: a 500 on PostgreSQL."""
    client: FlaskClient = pg_app.test_client()
    assert client.get("/outbox?to=ann%00").status_code == 400
    assert client.get("/outbox?to=ann").status_code == 200
