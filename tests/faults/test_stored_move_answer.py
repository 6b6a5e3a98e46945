"""A move that was stored is never answered 503: the database goes away while the POST waits for a
worker (none reads the queue here), and the answer still says "pending" with the stored command."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session, select
from werkzeug.test import TestResponse

from service import create_app
from service.db import migrate
from service.eventlog.models import CommandRecord
from service.play.hosting import Player, create_game
from tests.conftest import app_config
from tests.faults.servers import OwnPostgres, OwnRedis
from tests.helpers import mails, play_path

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
EMAILS = ["ann@example.org", "bo@example.org"]


def test_a_stored_move_is_answered_pending_when_the_database_goes_away(
    servers: tuple[OwnPostgres, OwnRedis], tmp_path: Path
) -> None:
    postgres, broker = servers
    migrate(postgres.url)
    app = create_app(app_config(tmp_path, postgres.url, REDIS_URL=broker.url, MOVE_WAIT_SECONDS=3.0))
    with app.app_context():
        create_game(
            app.extensions["pbem"],
            "red_black",
            [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
            Player("Host", "host@example.org"),
            seed=4,
        )
        link = play_path(mails(app, to=EMAILS[0], kind="invitation")[-1])
        client = app.test_client()
        state = client.get("/api" + link).get_json()
        answers: list[TestResponse] = []

        def move() -> None:
            with app.app_context():
                move = {"action": state["legal_actions"][0], "seq": state["seq"]}
                answers.append(client.post("/api" + link, json=move))

        poster = threading.Thread(target=move)
        poster.start()
        deadline = time.monotonic() + 10
        while not stored(app) and time.monotonic() < deadline:
            time.sleep(0.01)
        postgres.halt()  # while the POST waits for the worker's decision
        poster.join()
        postgres.start()
    app.extensions["pbem"].engine.dispose()
    (answer,) = answers
    assert answer.status_code == 202, answer.get_data(as_text=True)
    assert answer.get_json()["status"] == "pending" and answer.get_json()["command"] is not None


def stored(app: Flask) -> bool:
    with Session(app.extensions["pbem"].engine) as session:
        return session.exec(select(CommandRecord.id)).first() is not None
