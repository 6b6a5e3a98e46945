"""Playing whole games through the service the way players do: by the links in their mails."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import Form, mails, move_form, play_path

MOVE_LIMIT = 5000


def seat_links(app: Flask, emails: list[str]) -> list[str]:
    """Each seat's /play path, from its invitation mail."""
    return [play_path(mails(app, to=email, kind="invitation")[0]) for email in emails]


def choose(rng: random.Random, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A random choice that rarely folds (so rounds also end by play)."""
    plays = [a for a in actions if "fold" not in a]
    if plays and rng.random() > 0.03:
        return rng.choice(plays)
    return rng.choice(actions)


def play_by_pages(client: FlaskClient, links: list[str], rng: random.Random) -> int:
    """Play to the end by clicking buttons on the pages (confirming where asked); moves made."""
    for moves in range(MOVE_LIMIT):
        offers = [(link, move_form(client.get(link).get_data(as_text=True))) for link in links]
        waiting = [(link, form) for link, form in offers if form and _owes_move(client, link)]
        if not waiting:
            return moves
        link, form = rng.choice(waiting)
        action = choose(rng, offered_moves(client, link, form))
        data = form.data(action)
        response = client.post(link, data=data)
        if response.status_code == 200 and b'name="confirmed"' in response.data:
            response = client.post(link, data={**data, "confirmed": "yes"})
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    raise AssertionError("the game did not end")


def offered_moves(client: FlaskClient, link: str, form: Form) -> list[dict[str, Any]]:
    """The legal moves the page's form can submit; every legal move must be among them (a ticked
    pair the rules refuse, e.g. Tyranny with Benevolence, is offered by the boxes but not legal)."""
    legal = client.get("/api" + link).get_json()["legal_actions"]
    offered = form.actions()
    assert all(action in offered for action in legal), (legal, offered)
    return legal


def _owes_move(client: FlaskClient, link: str) -> bool:
    state = client.get("/api" + link).get_json()
    return state["seat"] in state["to_act"]


def play_by_api(client: FlaskClient, links: list[str], rng: random.Random) -> int:
    """Play to the end through the JSON API; moves made."""
    for moves in range(MOVE_LIMIT):
        states = [(link, client.get("/api" + link).get_json()) for link in links]
        waiting = [(link, s) for link, s in states if s["seat"] in s["to_act"]]
        if not waiting:
            assert all(s["result"] for _, s in states)
            return moves
        link, state = rng.choice(waiting)
        action = choose(rng, state["legal_actions"])
        response = client.post("/api" + link, json={"action": action, "seq": state["seq"]})
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["status"] == "accepted"
    raise AssertionError("the game did not end")
