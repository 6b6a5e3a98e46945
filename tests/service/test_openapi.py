"""Schemathesis over the JSON API's own OpenAPI document (/api/openapi.json), on real games: whatever it
sends, no 5xx, and every answer has a status, content type and body the document declares. Besides the
bodies the document describes, every route that takes one is sent what a careless or hostile client
sends: a form-encoded body, no body at all, and JSON holding a lone surrogate (half a UTF-16 pair)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.play.hosting import Player, create_game

CHECKS = (not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance)


@dataclass(frozen=True)
class Tokens:
    """Real links of a running game and of a finished one whose replay is public."""

    players: dict[str, str]  # game id: a player token
    watch: dict[str, str]  # game id: its spectator token


@pytest.fixture
def tokens(app: Flask) -> Tokens:
    rt = app.extensions["pbem"]
    players, watch = {}, {}
    for name, seats in (("red_black", 2), ("dupli", 3), ("dualis", 4), ("double_side", 3)):
        people = [Player(f"P{n}", f"p{n}@example.org") for n in range(seats)]
        game_id = create_game(rt, name, people, Player("Host", "host@example.org"), seed=11)
        players[game_id] = rt.signer.player_token(game_id, 0, 1)
        watch[game_id] = rt.signer.watch_token(game_id, 1)
    return Tokens(players, watch)


@pytest.fixture
def operations(app: Flask) -> list[schemathesis.APIOperation]:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_api_answers_every_request_as_its_document_says(
    operations: list[schemathesis.APIOperation], tokens: Tokens, data: st.DataObject
) -> None:
    """Most requests carry a real token (and the real game id), so they reach the move path."""
    case = data.draw(st.sampled_from(operations).flatmap(lambda operation: operation.as_strategy()))
    params = case.path_parameters or {}
    if data.draw(st.integers(0, 3)):
        game_id = data.draw(st.sampled_from(sorted(tokens.players)))
        if "token" in params:
            params["token"] = (tokens.watch if "/watch/" in case.path else tokens.players)[game_id]
        if "game_id" in params:
            params["game_id"] = game_id
    case.call_and_validate(checks=CHECKS)


LONE_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
FORM_TYPE = "application/x-www-form-urlencoded"


def with_lone_surrogate(body: Any, surrogate: str, pick: int) -> Any:
    """`body` with a lone surrogate added to one of its strings (the `pick`-th, cyclically), or as a
    key or an item where it has no string."""
    if isinstance(body, str):
        return body + surrogate
    if isinstance(body, dict) and body:
        key = sorted(body)[pick % len(body)]
        return {**body, key: with_lone_surrogate(body[key], surrogate, pick)}
    if isinstance(body, list) and body:
        index = pick % len(body)
        return [*body[:index], with_lone_surrogate(body[index], surrogate, pick), *body[index + 1 :]]
    return {surrogate: body} if isinstance(body, dict) else [body, surrogate]


@pytest.fixture
def operations_with_bodies(operations: list[schemathesis.APIOperation]) -> list[schemathesis.APIOperation]:
    return [operation for operation in operations if len(operation.body)]


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_form_no_body_or_a_lone_surrogate_gets_a_declared_4xx(
    operations_with_bodies: list[schemathesis.APIOperation], tokens: Tokens, data: st.DataObject
) -> None:
    """Each was a 500 before: the view got `json=None`, or echoed what the answer's model could not
    read."""
    operation = data.draw(st.sampled_from(operations_with_bodies))
    case = data.draw(operation.as_strategy())
    token = tokens.players[data.draw(st.sampled_from(sorted(tokens.players)))]
    kind = data.draw(st.sampled_from(["form", "none", "surrogate"]))
    if kind == "form":
        fields = st.sampled_from(["action", "seq", "text", "plays", "notify", "timezone", "private"])
        body: Any = data.draw(st.dictionaries(fields, st.text(max_size=8), max_size=3))
        odd = operation.Case(path_parameters={"token": token}, body=body, media_type=FORM_TYPE)
    elif kind == "none":
        odd = operation.Case(path_parameters={"token": token}, body=NOT_SET)
    else:
        body = with_lone_surrogate(case.body, data.draw(LONE_SURROGATES), data.draw(st.integers(0, 7)))
        odd = operation.Case(path_parameters={"token": token}, body=body, media_type="application/json")
    response = odd.call_and_validate(checks=CHECKS)
    assert 400 <= response.status_code < 500
