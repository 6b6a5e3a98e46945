"""Schemathesis over the JSON API's own OpenAPI document (/api/openapi.json), on real games: whatever it
sends, no 5xx, and every answer has a status, content type and body the document declares."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
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
