"""The floor of this architecture on this machine: what a move of bench/load.py's shape (an HTML
page, two JSON reads and a POST, then the worker's task) would cost if the service did nothing but
what such a move must do. Three measurements, each as CPU per unit:

- a minimal move transaction in PostgreSQL on the service's own schema (lock the game's row, bump
  its version, append an event, write an outbox row, commit), run by pgbench: PostgreSQL's CPU and
  pgbench's per transaction;
- a request to a Flask app that does nothing (bench/empty_app.py), served by the Procfile's gunicorn
  settings (2 processes x 4 threads): gunicorn's CPU per request;
- an empty Celery task's round trip on Redis (bench/empty_tasks.py: sent, run by a prefork worker of
  2 processes, its answer awaited): the worker's, Redis's and the sender's CPU per round trip.

A move's floor is one transaction, four requests and one round trip. bench/load.py's players part
measures it between its own phases, so that both are read in the same minutes.

    .venv/bin/python bench/floor.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from http.client import HTTPConnection
from pathlib import Path

import redis
from celery import Celery
from harness import (
    PG_SERVER,
    ROOT,
    answers,
    bench_env,
    free_port,
    fresh_database,
    processes_cpu_seconds,
    started,
    tree_cpu_seconds,
)
from sqlmodel import Session, create_engine

from service.eventlog.models import GameRecord

FLOOR_REDIS = "redis://127.0.0.1:6379/13"
FLOOR_GAMES = 100
TASK = "empty_tasks.nothing"
PGBENCH = ("pgbench", "-n", "-U", "postgres", "-c", "2", "-j", "2")
MOVE_SQL = """\\set n random(1, {games})
BEGIN;
SELECT version FROM games WHERE id = 'floor' || :n FOR UPDATE;
UPDATE games SET version = version + 1 WHERE id = 'floor' || :n;
INSERT INTO events (game_id, seq, type, v, data, seat, created_at, origin)
  SELECT id, version, 'card_played', 1, '{{"card": 12}}', 0, now(), 'player' FROM games
  WHERE id = 'floor' || :n;
INSERT INTO outbox (game_id, kind, seat, to_name, to_email, subject, text_body, html_body, message_id,
  thread_id, unsubscribe_url, language, reply_to, status, attempts, created_at, next_attempt_at, channel)
  VALUES ('floor' || :n, 'your_turn', 1, 'Bo', 'bo@example.org', 'Your move', 'Your move.',
  '<p>Your move.</p>', '<m@example.org>', '<t@example.org>', '', 'en', '', 'pending', 0, now(), now(),
  'mail');
COMMIT;
"""


@dataclass(frozen=True)
class Floor:
    """CPU milliseconds of each unit."""

    transaction: float
    request: float
    round_trip: float

    @property
    def per_move(self) -> float:
        return self.transaction + 4 * self.request + self.round_trip

    def line(self) -> str:
        return (
            f"floor: PostgreSQL transaction {self.transaction:5.2f} ms, empty request {self.request:5.2f} ms,"
            f" empty task round trip {self.round_trip:5.2f} ms: per move {self.per_move:5.2f} ms"
        )


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def floor_database() -> str:
    """A database of the service's schema with FLOOR_GAMES games' rows: its name."""
    name = "pbem_bench_floor"
    engine = create_engine(fresh_database(name))
    now = datetime.now(UTC)
    with Session(engine) as session:
        session.add_all(
            GameRecord(id=f"floor{n}", game="red_black", host_email="host@example.org", created_at=now)
            for n in range(1, FLOOR_GAMES + 1)
        )
        session.commit()
    engine.dispose()
    return name


def transaction_floor(database: str, seconds: float) -> float:
    """CPU ms of PostgreSQL and pgbench per minimal move transaction."""
    host_port = PG_SERVER.rsplit("@", 1)[1]
    host, port = host_port.split(":")
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
        script.write(MOVE_SQL.format(games=FLOOR_GAMES))
        script.flush()
        before = processes_cpu_seconds("postgres") + children_cpu_seconds()
        done = subprocess.run(
            [
                *PGBENCH,
                "-h",
                host,
                "-p",
                port,
                "-T",
                str(max(1, round(seconds))),
                "-f",
                script.name,
                database,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        spent = processes_cpu_seconds("postgres") + children_cpu_seconds() - before
    found = re.search(r"number of transactions actually processed: (\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    return spent / max(int(found.group(1)), 1) * 1000


def counted(clients: int, seconds: float, one: Callable[[], Callable[[], None]]) -> tuple[int, float]:
    """Run C threads, each repeating the action `one()` gives it for `seconds`: the actions done and
    the CPU seconds the threads spent."""
    counts = [0] * clients
    spent = [0.0] * clients
    until = time.monotonic() + seconds

    def run(n: int) -> None:
        action = one()
        begun = time.thread_time()
        while time.monotonic() < until:
            action()
            counts[n] += 1
        spent[n] = time.thread_time() - begun

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts), sum(spent)


def request_floor(seconds: float, clients: int, port: int, workdir: Path) -> float:
    """gunicorn's CPU ms per request to an app that does nothing."""
    command = "gunicorn -c python:service.gunicorn_conf empty_app:app"
    env = bench_env(ROOT / "bench", PORT=str(port), WEB_CONCURRENCY="2")
    with started(command, env, workdir / "empty_app.log", cwd=ROOT / "bench") as web:
        deadline = time.monotonic() + 30
        while not answers(port):
            if time.monotonic() > deadline or web.poll() is not None:
                raise RuntimeError(f"the empty app did not start; see {workdir / 'empty_app.log'}")
            time.sleep(0.2)

        def one() -> Callable[[], None]:
            connection = HTTPConnection("127.0.0.1", port, timeout=10)

            def get() -> None:
                connection.request("GET", "/")
                connection.getresponse().read()

            return get

        one()()  # every process warm
        before = tree_cpu_seconds(web.pid)
        requests, _ = counted(clients, seconds, one)
        return (tree_cpu_seconds(web.pid) - before) / max(requests, 1) * 1000


def round_trip_floor(seconds: float, clients: int, workdir: Path) -> float:
    """CPU ms of the worker, Redis and the sender per empty task's round trip."""
    redis.Redis.from_url(FLOOR_REDIS).flushdb()
    sender = Celery("floor", broker=FLOOR_REDIS, backend=FLOOR_REDIS)
    command = "celery -A empty_tasks worker --concurrency=2 --loglevel=WARNING"
    env = bench_env(ROOT / "bench", REDIS_URL=FLOOR_REDIS)
    with started(command, env, workdir / "empty_tasks.log", cwd=ROOT / "bench") as worker:
        sender.send_task(TASK).get(timeout=60)

        def one() -> Callable[[], None]:
            return lambda: sender.send_task(TASK).get(timeout=30)

        one()()
        before = tree_cpu_seconds(worker.pid) + processes_cpu_seconds("redis-server")
        trips, senders = counted(clients, seconds, one)
        spent = tree_cpu_seconds(worker.pid) + processes_cpu_seconds("redis-server") - before + senders
    redis.Redis.from_url(FLOOR_REDIS).flushdb()
    return spent / max(trips, 1) * 1000


def measure_floor(database: str, seconds: float, clients: int, port: int) -> Floor:
    with tempfile.TemporaryDirectory(prefix="pbem-floor-") as folder:
        return Floor(
            transaction_floor(database, seconds),
            request_floor(seconds, clients, port, Path(folder)),
            round_trip_floor(seconds, clients, Path(folder)),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    print(measure_floor(floor_database(), args.seconds, args.clients, free_port()).line())


if __name__ == "__main__":
    main()
