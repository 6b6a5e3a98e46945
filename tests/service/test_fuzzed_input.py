"""Random JSON values and random form bodies posted to every route, with real links of real games:
never a 5xx, and a refused request (4xx) leaves the games, seats, events and commands as they were."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from service.play.hosting import Player, create_game

TABLES = ("games", "seats", "events", "commands", "vacations", "turn_clocks")
ODD_TEXT = st.sampled_from(
    ["", "\x00", "²", "１２", "-1", "0", "1", "7", "2147483648", "9" * 5000, "NaN", "on", "yes", "more_time"]
) | st.text(max_size=8)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ODD_TEXT,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["card", "coin", "set", "target", "fold", "x"]) | ODD_TEXT, children, max_size=3
        )
    ),
    max_leaves=6,
)
FIELDS = [
    "action",
    "seq",
    "confirmed",
    "notify",
    "timezone",
    "auto_play",
    "start",
    "days",
    "decision",
    "host_notify",
    "public",
    "host_name",
    "host_email",
    "players-0-email",
    "players-1-email",
    "seed",
]


def form_bodies() -> st.SearchStrategy[dict[str, str]]:
    value = ODD_TEXT | JSON_VALUES.map(json.dumps)
    return st.dictionaries(st.sampled_from(FIELDS), value, max_size=6)


def snapshot(app: Flask) -> dict[str, Any]:
    """Every row of the tables a request could change."""
    with app.extensions["pbem"].engine.connect() as conn:
        return {
            table: sorted(map(repr, conn.execute(text(f"SELECT * FROM {table}")).all())) for table in TABLES
        }


@pytest.fixture
def paths(app: Flask) -> list[str]:
    """Every POST route of a running Red and Black Duel (a player's, the host's, the create form)."""
    app.config["WTF_CSRF_ENABLED"] = False  # the fuzz is for what comes after the CSRF check
    rt = app.extensions["pbem"]
    game_id = create_game(
        rt,
        "red_black",
        [Player("A", "a@example.org"), Player("B", "b@example.org")],
        Player("H", "h@example.org"),
        seed=3,
    )
    play, host = f"/play/{rt.signer.player_token(game_id, 0, 1)}", f"/host/{rt.signer.host_token(game_id, 1)}"
    unsubscribe = "/unsubscribe/" + rt.signer.unsubscribe_token(
        rt.signer.read_player(play.removeprefix("/play/"))
    )
    return [
        play,
        f"{play}/settings",
        f"{play}/auto-play",
        f"{play}/seat",
        f"{play}/vacations",
        f"{play}/vacations/1/cancel",
        f"{host}/clocks/1",
        f"{host}/notices",
        f"{host}/public-replay",
        f"{host}/seats/0/resend",
        "/new/red_black",
        f"/api{play}",
        f"/api{play}/settings",
        unsubscribe,
        "/outbox",
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_form_or_json_body_gets_a_5xx_and_a_refusal_changes_nothing(
    app: Flask, client: FlaskClient, paths: list[str], data: st.DataObject
) -> None:
    path = data.draw(st.sampled_from(paths))
    before = snapshot(app)
    if path.startswith("/api/"):
        body = data.draw(JSON_VALUES | st.fixed_dictionaries({"action": JSON_VALUES, "seq": JSON_VALUES}))
        response = client.post(path, data=json.dumps(body), content_type="application/json")
    else:
        response = client.post(path, data=data.draw(form_bodies()))
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code >= 400:
        assert snapshot(app) == before
