"""Faults under play: PostgreSQL and Redis restarted while a real Celery worker (and beat) play games
through the JSON API, on servers this test starts itself on spare ports. No request may answer 500
(a 503 carries Retry-After), the worker and beat stay up, every game finishes, and each mail goes out
once, or twice at most once per fault."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select
from werkzeug.test import TestResponse

from service import create_app
from service.db import migrate
from service.eventlog.models import MailStatus, OutboxMail
from service.mail.delivery import lease_seconds
from service.play.hosting import Player, create_game
from tests.conftest import REQUIRE_SERVICES, app_config
from tests.faults.servers import OwnPostgres, OwnRedis
from tests.helpers import mails, play_path
from tests.service.play import choose
from tests.smtp_sink import SmtpSink
from tests.worker_process import beat_process, worker_process

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
EMAILS = ["ann@example.org", "bo@example.org"]
FAULTS = ("postgres", "redis", "postgres", "redis")
FAULT_GAP_SECONDS = 3.0
PLAY_LIMIT_SECONDS = 240


@pytest.fixture
def servers() -> Iterator[tuple[OwnPostgres, OwnRedis]]:
    try:
        postgres, broker = OwnPostgres(), OwnRedis()
        postgres.start()
    except Exception as error:
        message = f"cannot start a PostgreSQL and Redis of the test's own ({type(error).__name__}: {error})"
        if REQUIRE_SERVICES:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    broker.start()
    yield postgres, broker
    broker.stop()
    postgres.stop()


@dataclass
class Tally:
    """What the players' requests got."""

    requests: int = 0
    codes: Counter[int] = field(default_factory=Counter)
    unavailable_without_retry_after: int = 0
    moves: int = 0

    def answer(self, response: TestResponse) -> TestResponse:
        self.requests += 1
        self.codes[response.status_code] += 1
        if response.status_code == 503 and "Retry-After" not in response.headers:
            self.unavailable_without_retry_after += 1
        return response


class Players:
    """Two players who keep asking until the service answers, as a patient client would."""

    def __init__(self, client: FlaskClient, tally: Tally, rng: random.Random) -> None:
        self.client, self.tally, self.rng = client, tally, rng

    def get(self, path: str) -> dict[str, Any]:
        while True:
            response = self.tally.answer(self.client.get(path))
            if response.status_code == 200:
                return response.get_json()
            assert response.status_code == 503, (response.status_code, response.get_data(as_text=True))
            time.sleep(0.3)

    def play(self, links: list[str]) -> None:
        """Play one game to its end."""
        deadline = time.monotonic() + PLAY_LIMIT_SECONDS
        while time.monotonic() < deadline:
            states = [(link, self.get("/api" + link)) for link in links]
            if all(state["result"] for _, state in states):
                return
            waiting = [(link, s) for link, s in states if s["seat"] in s["to_act"] and s["legal_actions"]]
            if not waiting:
                time.sleep(0.05)  # a move is still being played
                continue
            link, state = self.rng.choice(waiting)
            action = choose(self.rng, state["legal_actions"])
            response = self.tally.answer(
                self.client.post("/api" + link, json={"action": action, "seq": state["seq"]})
            )
            assert response.status_code in (200, 202, 409, 503), response.get_data(as_text=True)
            if response.status_code == 503:
                time.sleep(0.3)  # the move may be stored: the next read of the page tells
            self.tally.moves += response.status_code in (200, 202)
        raise AssertionError("the game did not end")


def restart_each(postgres: OwnPostgres, broker: OwnRedis, done: list[str]) -> None:
    for fault in FAULTS:
        time.sleep(FAULT_GAP_SECONDS)
        (postgres if fault == "postgres" else broker).restart()
        done.append(fault)


def new_game(app: Flask, seed: int) -> list[str]:
    create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=seed,
    )
    return [play_path(mails(app, to=e, kind="invitation")[-1]) for e in EMAILS]


def test_restarts_of_postgres_and_redis_under_play(
    servers: tuple[OwnPostgres, OwnRedis], smtp_sink: SmtpSink, tmp_path: Path
) -> None:
    postgres, broker = servers
    migrate(postgres.url)
    settings = app_config(
        tmp_path,
        postgres.url,
        REDIS_URL=broker.url,
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=smtp_sink.port,
        RUN_MIGRATIONS=False,
        MOVE_WAIT_SECONDS=5.0,
        SWEEP_INTERVAL_SECONDS=1.0,
        COMMAND_REQUEUE_SECONDS=2,
        MAIL_MAX_BACKOFF_SECONDS=5,  # a mail that failed during an outage is tried again within the test
    )
    tally = Tally()
    with (
        worker_process(settings, tmp_path / "worker.log") as worker,
        beat_process(settings, tmp_path / "beat.log", tmp_path / "beat-schedule") as beat,
    ):
        app = create_app(settings)
        with app.app_context():
            players = Players(app.test_client(), tally, random.Random(13))
            done: list[str] = []
            restarter = threading.Thread(target=restart_each, args=(postgres, broker, done))
            restarter.start()
            games = 0
            while restarter.is_alive() or games == 0:  # games go on until every fault happened
                players.play(new_game_patiently(app, games))
                games += 1
            restarter.join()
            assert done == list(FAULTS)
            wait_for_every_mail(app)
            rows = read_outbox(app)
        worker_alive, beat_alive = worker.poll() is None, beat.poll() is None
        app.extensions["pbem"].engine.dispose()
    received = Counter(message["Message-ID"] for message in smtp_sink.collector.messages)
    duplicates = sum(count - 1 for count in received.values())
    print(
        f"\nfault run: {len(FAULTS)} restarts, {games} games, {tally.moves} moves, "
        f"{tally.requests} requests, codes {dict(tally.codes)}, "
        f"worker alive {worker_alive}, beat alive {beat_alive}, "
        f"{len(rows)} mails, {duplicates} duplicates"
    )
    assert worker_alive, (tmp_path / "worker.log").read_text()[-3000:]
    assert beat_alive, (tmp_path / "beat.log").read_text()[-3000:]
    assert "Unrecoverable error" not in (tmp_path / "worker.log").read_text()
    assert not [code for code in tally.codes if code >= 500 and code != 503]
    assert tally.unavailable_without_retry_after == 0
    assert {row.message_id for row in rows} == set(received)
    assert max(received.values()) <= 2
    assert duplicates <= len(FAULTS)


def new_game_patiently(app: Flask, seed: int) -> list[str]:
    """A new game, tried again while the database restarts (creating is not what is under test)."""
    for _ in range(50):
        try:
            return new_game(app, seed)
        except Exception:
            time.sleep(0.3)
    return new_game(app, seed)


def read_outbox(app: Flask) -> list[OutboxMail]:
    with Session(app.extensions["pbem"].engine) as session:
        return list(session.exec(select(OutboxMail)).all())


def wait_for_every_mail(app: Flask) -> None:
    """Until every mail is sent: a mail whose worker lost the database between leasing and sending
    it waits out its lease (then the sweep sends it), so the wait is longer than a lease."""
    deadline = time.monotonic() + lease_seconds(app.extensions["pbem"]) + 60
    while unsent := [
        (row.kind, row.status, row.last_error) for row in read_outbox(app) if row.status != MailStatus.SENT
    ]:
        assert time.monotonic() < deadline, f"some mail was never sent: {unsent}"
        time.sleep(0.5)
