"""Faults under play: PostgreSQL restarted (at once, and down for several seconds), Redis restarted,
the SMTP server down, the move worker killed whole and one of its pool children killed under a move,
while real Celery workers (a prefork one for moves, one for mail and periodic work, as the Procfile
splits them) and beat play games through the JSON API, on servers this test starts itself on spare
ports. No request may answer 500 (a 503 carries Retry-After), the workers and beat stay up (the
killed worker is started again, as its supervisor would), every game finishes, each mail goes out
once (twice at most once per fault), and no move waits longer than the fault near it plus 5 s, nor
a move far from every fault 1 s, give or take a margin for a busy CI machine. The table of moves
over budget per kind of fault is printed.

A longer run outside CI: PBEM_FAULT_ROUNDS=N repeats the faults at least N times,
PBEM_FAULT_GAMES=N plays at least N games (the faults go on round after round until they are
played), PBEM_FAULT_TABLES=N plays N games at once."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine
from sqlmodel import Session, select
from werkzeug.test import TestResponse

from service import create_app
from service.db import migrate
from service.eventlog.models import CommandRecord, CommandStatus, MailStatus, OutboxMail
from service.mail.delivery import lease_seconds
from service.play.hosting import Player, create_game
from tests.conftest import app_config
from tests.faults.pool_children import child_in_transaction
from tests.faults.servers import OwnPostgres, OwnRedis
from tests.helpers import mails, play_path
from tests.service.play import choose
from tests.smtp_sink import SmtpSink
from tests.worker_process import (
    WORKER_READY,
    beat_process,
    start_celery,
    stop,
    worker_arguments,
    worker_process,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
KINDS = ("postgres", "redis", "smtp", "postgres_long", "worker", "pool_child")
ROUNDS = int(os.environ.get("PBEM_FAULT_ROUNDS", "1"))
GAMES = int(os.environ.get("PBEM_FAULT_GAMES", "1"))
TABLES = int(os.environ.get("PBEM_FAULT_TABLES", "1"))
MOVE_CHILDREN = 2  # the prefork move worker's pool children
FAULT_GAP_SECONDS = 6.0  # more than NEAR_SECONDS: each move is judged by one fault
LONG_RESTART_SECONDS = 6.0  # PostgreSQL down this long: well past a single quick retry
REDIS_DOWN_SECONDS = 4.0
SMTP_DOWN_SECONDS = 8.0  # a relay that takes connections and never answers (each send waits SMTP_TIMEOUT)
NEAR_SECONDS = 5.0  # a move's budget beyond the fault near it
FAR_SECONDS = 1.0  # the budget of a move more than NEAR_SECONDS from every fault
CI_MARGIN_SECONDS = 3.0  # what a shared 2-core machine may add to either budget
PLAY_LIMIT_SECONDS = 240


@dataclass(frozen=True)
class Fault:
    kind: str
    start: float
    end: float

    def near(self, move: Move) -> bool:
        """Whether the move ran during the fault or began within NEAR_SECONDS after it."""
        return move.start < self.end + NEAR_SECONDS and move.end > self.start


@dataclass(frozen=True)
class Move:
    """A stored move, from its first POST until the client learnt its outcome."""

    start: float
    end: float

    def budget(self, faults: list[Fault]) -> tuple[str, float]:
        """The kind of fault the move is judged by ("none" if far from all) and its time budget."""
        near = [fault for fault in faults if fault.near(self)]
        if not near:
            return "none", FAR_SECONDS
        longest = max(near, key=lambda fault: fault.end - fault.start)
        return longest.kind, longest.end - longest.start + NEAR_SECONDS


@dataclass
class Tally:
    """What the players' requests got, and how long each stored move took."""

    requests: int = 0
    codes: Counter[int] = field(default_factory=Counter)
    moves_unavailable: int = 0  # POSTs of a move answered 503
    unavailable_without_retry_after: int = 0
    moves: list[Move] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)  # the tables play at once

    def answer(self, response: TestResponse, move: bool = False) -> TestResponse:
        with self.lock:
            self.requests += 1
            self.codes[response.status_code] += 1
            if response.status_code == 503:
                self.moves_unavailable += move
                self.unavailable_without_retry_after += "Retry-After" not in response.headers
        return response

    def moved(self, move: Move) -> None:
        with self.lock:
            self.moves.append(move)


class Players:
    """Two players who keep asking until the service answers, as a patient client would."""

    def __init__(self, client: FlaskClient, tally: Tally, rng: random.Random) -> None:
        self.client, self.tally, self.rng = client, tally, rng

    def get(self, path: str) -> tuple[int, dict[str, Any]]:
        while True:
            response = self.tally.answer(self.client.get(path))
            if response.status_code != 503:
                assert response.status_code < 500, response.get_data(as_text=True)
                return response.status_code, response.get_json()
            time.sleep(0.3)

    def play(self, links: list[str]) -> None:
        """Play one game to its end."""
        deadline = time.monotonic() + PLAY_LIMIT_SECONDS
        while time.monotonic() < deadline:
            states = [(link, self.get("/api" + link)[1]) for link in links]
            if all(state["result"] for _, state in states):
                return
            waiting = [(link, s) for link, s in states if s["seat"] in s["to_act"] and s["legal_actions"]]
            if not waiting:
                time.sleep(0.05)  # a move is still being played
                continue
            link, state = self.rng.choice(waiting)
            self.move(link, {"action": choose(self.rng, state["legal_actions"]), "seq": state["seq"]})
        raise AssertionError("the game did not end")

    def move(self, link: str, move: dict[str, Any]) -> None:
        """Send a move until it is answered, then follow it until it is decided."""
        start = time.monotonic()
        while True:
            response = self.tally.answer(self.client.post("/api" + link, json=move), move=True)
            if response.status_code != 503:
                break
            time.sleep(0.3)  # not stored: sending it again is safe
        assert response.status_code in (200, 202, 409, 422), response.get_data(as_text=True)
        answer = response.get_json()
        if answer["command"] is None or answer["status"] == "earlier_pending":
            return  # refused or not stored: the client reads the page again
        while answer["status"] == "pending":
            time.sleep(0.05)
            answer = self.get(f"/api{link}/commands/{answer['command']}")[1]
        self.tally.moved(Move(start, time.monotonic()))


class Tables:
    """Games played at once, each by its own pair of players, until the faults are over."""

    def __init__(self, app: Flask, tally: Tally) -> None:
        self.app, self.tally = app, tally
        self.finished = 0
        self.errors: list[BaseException] = []
        self.lock = threading.Lock()  # one game created at a time: its invitations are the newest mails

    def play(self, faults: threading.Thread) -> None:
        tables = [threading.Thread(target=self._table, args=(faults, table)) for table in range(TABLES)]
        for table in tables:
            table.start()
        for table in tables:
            table.join()
        if self.errors:
            raise self.errors[0]

    def _table(self, faults: threading.Thread, table: int) -> None:
        try:
            with self.app.app_context():
                players = Players(self.app.test_client(), self.tally, random.Random(13 + table))
                played = 0
                while (faults.is_alive() or played == 0) and not self.errors:
                    with self.lock:
                        links = new_game_patiently(self.app, 1000 * table + played)
                    players.play(links)
                    played += 1
                    with self.lock:
                        self.finished += 1
        except BaseException as error:
            self.errors.append(error)


class MoveWorker:
    """The worker of the moves queue, prefork as the Procfile runs it, which faults kill: whole
    (SIGKILL to its process group; its supervisor starts it again) or one pool child under a move
    (the worker starts another child itself)."""

    def __init__(self, settings: dict[str, Any], logs: Path) -> None:
        self.settings, self.logs, self.starts = settings, logs, 0
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        self.starts += 1
        log = self.logs / f"moves-worker-{self.starts}.log"
        arguments = worker_arguments(MOVE_CHILDREN, "moves", pool="prefork")
        return start_celery(self.settings, log, arguments, WORKER_READY, own_group=True)

    def kill_and_restart(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = self._start()

    def child_under_move(self, engine: Engine) -> int:
        """A pool child inside a transaction while a move is still pending (not yet committed: a
        child caught after its move's commit would cost that move nothing), once one is."""
        deadline = time.monotonic() + 30
        while (child := child_in_transaction(self.process.pid, engine)) is None or not pending(engine):
            assert time.monotonic() < deadline, "no pool child was seen playing a move"
            time.sleep(0.001)
        return child

    def log_text(self) -> str:
        return "".join(log.read_text() for log in sorted(self.logs.glob("moves-worker-*.log")))


@dataclass
class Stage:
    """What the faults act on."""

    postgres: OwnPostgres
    broker: OwnRedis
    smtp: SmtpSink
    worker: MoveWorker
    engine: Engine
    faults: list[Fault] = field(default_factory=list)

    def inject(self, kind: str) -> None:
        start = time.monotonic()
        if kind == "worker":
            await_pending_command(self.engine)
            start = time.monotonic()
            self.worker.kill_and_restart()
        elif kind == "pool_child":
            child = self.worker.child_under_move(self.engine)
            start = time.monotonic()
            os.kill(child, signal.SIGKILL)
        elif kind == "postgres":
            self.postgres.restart()
        elif kind == "postgres_long":
            self.postgres.restart(pause=LONG_RESTART_SECONDS)
        elif kind == "redis":
            self.broker.restart(pause=REDIS_DOWN_SECONDS)
        elif kind == "smtp":
            self.smtp.stop()
            with hanging_server(self.smtp.port):
                time.sleep(SMTP_DOWN_SECONDS)
            self.smtp.start()
        self.faults.append(Fault(kind, start, time.monotonic()))

    def run(self, tables: Tables) -> None:
        """Round after round of every fault, at least ROUNDS and until GAMES games are played."""
        rounds = 0
        while (rounds < ROUNDS or tables.finished < GAMES) and not tables.errors:
            for kind in KINDS:
                time.sleep(FAULT_GAP_SECONDS)
                self.inject(kind)
            rounds += 1


@contextmanager
def hanging_server(port: int) -> Iterator[None]:
    """A server on `port` that takes connections (the kernel completes them) and never says a word."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", port))
        server.listen(128)
        yield


def pending(engine: Engine) -> bool:
    """Whether a move is pending (being played)."""
    with Session(engine) as session:
        found = select(CommandRecord.id).where(CommandRecord.status == CommandStatus.PENDING).limit(1)
        return session.exec(found).first() is not None


def await_pending_command(engine: Engine) -> None:
    """Until a move is pending (being played), for at most 10 s."""
    deadline = time.monotonic() + 10
    while not pending(engine) and time.monotonic() < deadline:
        time.sleep(0.002)


def new_game(app: Flask, seed: int) -> list[str]:
    """A game whose players and host have addresses of its own: a long run's games to the same
    addresses would pass the daily cap on mails to one address, and those mails are never sent."""
    emails = [f"ann.{seed}@example.org", f"bo.{seed}@example.org"]
    create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", emails[0]), Player("Bo", emails[1])],
        Player("Host", f"host.{seed}@example.org"),
        seed=seed,
    )
    return [play_path(mails(app, to=e, kind="invitation")[-1]) for e in emails]


def test_faults_under_play_cost_moves_seconds_and_lose_nothing(
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
        MOVE_WAIT_SECONDS=3.0,  # the default: the tests' own is 0
        MAIL_MAX_BACKOFF_SECONDS=5,  # a mail that failed during an outage is tried again within the test
    )
    tally = Tally()
    load = os.getloadavg()
    with (
        worker_process(settings, tmp_path / "mail-worker.log", queues="mail,periodic") as mail_worker,
        beat_process(settings, tmp_path / "beat.log", tmp_path / "beat-schedule") as beat,
    ):
        app = create_app(settings)
        stage = Stage(
            postgres, broker, smtp_sink, MoveWorker(settings, tmp_path), app.extensions["pbem"].engine
        )
        try:
            tables = Tables(app, tally)
            faults = threading.Thread(target=stage.run, args=(tables,))
            faults.start()
            try:
                tables.play(faults)  # games go on until every fault happened
            finally:
                faults.join()
            print(
                f"\nfault run: {len(stage.faults)} faults, {tables.finished} games ({TABLES} at once), "
                f"{len(tally.moves)} moves, {tally.requests} requests, codes {dict(tally.codes)}, "
                f"moves answered 503 {tally.moves_unavailable}, "
                f"load average {load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end\n"
                f"{budget_table(tally.moves, stage.faults)}"
            )
            with app.app_context():
                wait_for_every_mail(app)
                rows = read_outbox(app)
            alive = {
                "moves worker": stage.worker.process.poll() is None,
                "mail worker": mail_worker.poll() is None,
                "beat": beat.poll() is None,
            }
            app.extensions["pbem"].engine.dispose()
        finally:
            stop(stage.worker.process)
    received = Counter(message["Message-ID"] for message in smtp_sink.collector.messages)
    children_lost = stage.worker.log_text().count("exited with 'signal 9 (SIGKILL)'")
    duplicates = sum(count - 1 for count in received.values())
    print(f"alive {alive}, {len(rows)} mails, {duplicates} duplicates, pool children lost {children_lost}")
    rounds = len(stage.faults) // len(KINDS)
    assert [fault.kind for fault in stage.faults] == list(KINDS) * rounds
    assert rounds >= ROUNDS and tables.finished >= GAMES
    # each pool child killed was seen lost by its worker, which played its move again
    assert children_lost == rounds
    assert all(alive.values()), alive
    logs = stage.worker.log_text() + (tmp_path / "mail-worker.log").read_text()
    assert "Unrecoverable error" not in logs
    assert not [code for code in tally.codes if code >= 500 and code != 503]
    assert tally.unavailable_without_retry_after == 0
    assert tally.moves_unavailable == 0  # every restart here is ridden out
    assert {row.message_id for row in rows} == set(received)
    assert max(received.values()) <= 2
    assert duplicates <= len(stage.faults)
    late = [
        (kind, round(move.end - move.start, 1))
        for move, kind, over in judged(tally.moves, stage.faults)
        if over
    ]
    assert not late, f"moves later than their budget plus {CI_MARGIN_SECONDS} s: {late}"


def judged(moves: list[Move], faults: list[Fault]) -> Iterator[tuple[Move, str, bool]]:
    """Each move with the kind of fault it is judged by and whether it overran its budget plus the
    CI margin."""
    for move in moves:
        kind, budget = move.budget(faults)
        yield move, kind, move.end - move.start > budget + CI_MARGIN_SECONDS


def budget_table(moves: list[Move], faults: list[Fault]) -> str:
    """Per kind of fault: how many, the moves judged by it, those over their budget (no margin) and
    the slowest."""
    lines = [f"{'fault':<14} {'faults':>6} {'moves':>6} {'over budget':>11} {'slowest s':>9}"]
    for kind in (*KINDS, "none"):
        judged_here = [(move, move.budget(faults)) for move in moves if move.budget(faults)[0] == kind]
        over = sum(move.end - move.start > budget for move, (_, budget) in judged_here)
        slowest = max((move.end - move.start for move, _ in judged_here), default=0.0)
        count = sum(fault.kind == kind for fault in faults) if kind != "none" else 0
        lines.append(f"{kind:<14} {count:>6} {len(judged_here):>6} {over:>11} {slowest:>9.1f}")
    return "\n".join(lines)


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
    it waits out its lease (then the sweep sends it). A lease may be taken while the workers'
    connections are still coming back after the last fault, so the wait is two leases long from the
    last mail sent (a long run leaves a backlog that the mail worker is still sending)."""
    patience = 2 * lease_seconds(app.extensions["pbem"]) + 60
    deadline, left = time.monotonic() + patience, None
    while unsent := [
        (row.kind, row.status, row.last_error) for row in read_outbox(app) if row.status != MailStatus.SENT
    ]:
        if len(unsent) != left:
            deadline, left = time.monotonic() + patience, len(unsent)
        assert time.monotonic() < deadline, f"some mail was never sent: {unsent[:20]}"
        time.sleep(0.5)
