"""Load: many tables at once on the deployed stack, and what a move costs as logs and games grow.

Part 1 starts the Procfile's `web` (gunicorn) and `worker` (Celery) commands, unchanged, on a
database and a Redis database of their own (loopback only), creates games of every kind, and drives
them with C concurrent clients through the JSON API: each client takes one of its games, reads the
page of the seat that owes a move (the HTML page, then its JSON twin for the legal moves) and posts a
random legal move, for a bounded time. For C = 1, 4, 16, 64 it prints:

* moves per second (accepted moves over the phase);
* POST -> answer p50/p95/p99 (the answer comes after the move's transaction committed);
* POST -> next player's outbox row p50/p95/p99 (the row's `created_at`, written in the move's
  transaction, against the POST's start);
* GET page p50/p95 (the seat's HTML page, seen from the client on loopback);
* CPU seconds per move of the web and of the worker process trees (from /proc);
* SQL statements per move (counted in each process by bench/probe/sitecustomize.py).

Part 2 runs in this process on PostgreSQL with tasks in-process (the move applied inside the POST):
the cost of a move as the game's log grows, the same with 100,000 games in the database (cloned in
SQL from a real game's rows), and the beat's `run_clocks` with 1% of the running games due.

Part 3 (channels) sets mail only against three channels on every seat, phase by phase, on the stack
with its mailer: both arms of a round deal the same games and play the same moves, and one client
plays by default (`--channel-clients`), so that the machine has cores to spare and each figure is
what a move costs, not what two saturated cores do to every process (with four clients the web
costs 5-10 ms more a move in the channels' phases while it serves the very same requests).

Part 4 (players) runs the whole Procfile stack (web, worker, mailer, periodic and beat), mail sent
to a local SMTP server, with 1,000 running games (more than the processes' caches hold) and C = 16
clients that play as people do (the JSON to see whose move it is, that seat's page and its JSON, a
move), after 8 s of play not counted (the processes' first pages compile templates and fill caches);
between its phases, the floor of the architecture (bench/floor.py: a minimal move
transaction in PostgreSQL, empty requests to gunicorn, an empty Celery round trip), so that both are
measured in the same minutes: CPU per move of every process (PostgreSQL and Redis too), the floor's,
and their ratio.

Part 5 (reads) reads seats' JSON and pages over and over while nothing moves, without and then with
`If-None-Match` (each client sends the tag of its last answer for that path): reads per second, the
share answered 304 and CPU per read of the web, PostgreSQL and Redis; once with no seat pictures kept,
once with them kept in Redis (a read without a tag then finds the picture an earlier read built).

Part 6 (periodic) asks whether a move waits on periodic work: one client plays on the Procfile's
whole stack (beat and the periodic worker running the turn clocks every minute) beside `--games`
running games with turn clocks, in phases of at least 130 s (two of the clocks' runs): with no clock
due, then with another 1% of those games' clocks made due every minute, twice each (ABAB; a quiet
phase starts once every due clock was acted on). POST -> answer p50/p95 per phase.

    .venv/bin/python bench/load.py [--clients 1,4,16,64] [--seconds 20] [--games 100000]
        [--skip load|scale|channels|players|reads|periodic] [--player-clients 16] [--player-games 1000]
        [--read-games 64]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.client import HTTPConnection
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import redis
from aiosmtpd.controller import Controller
from floor import Floor, floor_database, measure_floor
from harness import (
    ROOT,
    answers,
    bench_env,
    free_port,
    fresh_database,
    percentile,
    processes_cpu_seconds,
    started,
    tree_cpu_seconds,
)
from sqlalchemy import func, text
from sqlmodel import Session, col, select

from rules import GAMES
from service import create_app
from service.channels.seats import add_channel
from service.eventlog.models import MailStatus, OutboxMail
from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move
from service.play.time_control import TimeControl
from service.play.timeouts import run_due_clocks
from service.runtime import Runtime

REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
NAMES = ("Ann", "Bo", "Cy", "Di")
SEATS = {"dualis": 4, "double_side": 4, "dupli": 4, "red_black": 2}


# --- the stack -------------------------------------------------------------------------------------


def procfile_command(process: str) -> str:
    """The Procfile's command line for `process`, bound to loopback."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == process:
            return command.strip().replace("0.0.0.0", "127.0.0.1")
    raise LookupError(process)


@dataclass
class Stack:
    base: str
    processes: dict[str, subprocess.Popen]  # by the Procfile's name
    probe_dir: Path

    @property
    def web(self) -> subprocess.Popen:
        return self.processes["web"]

    @property
    def worker(self) -> subprocess.Popen:
        return self.processes["worker"]


@contextmanager
def deployed_stack(
    settings: dict[str, Any], workdir: Path, names: tuple[str, ...] = ("web", "worker")
) -> Iterator[Stack]:
    """The Procfile's web and worker processes (gunicorn 2x4 threads, Celery with 2 processes), and
    the others named (the mailer, with 2 processes)."""
    port = free_port()
    probe_dir = workdir / "probe"
    probe_dir.mkdir()
    env = bench_env(
        ROOT / "bench" / "probe",
        **{key: str(value) for key, value in settings.items()},
        BASE_URL=f"http://127.0.0.1:{port}",
        PORT=str(port),
        WEB_CONCURRENCY="2",
        WORKER_CONCURRENCY="2",
        MAILER_CONCURRENCY="2",
        PBEM_PROBE_DIR=str(probe_dir),
    )
    with ExitStack() as running:
        processes = {
            name: running.enter_context(started(procfile_command(name), env, workdir / f"{name}.log"))
            for name in names
        }
        stack = Stack(f"http://127.0.0.1:{port}", processes, probe_dir)
        wait_until_ready(stack, workdir)
        yield stack


def wait_until_ready(stack: Stack, workdir: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for process in stack.processes.values():
            if process.poll() is not None:
                raise RuntimeError(f"a process exited; see the logs in {workdir}")
        celery = [name for name in stack.processes if name not in ("web", "beat")]  # beat says no "ready."
        worker_ready = all("ready." in (workdir / f"{name}.log").read_text() for name in celery)
        if worker_ready and answers(int(stack.base.rsplit(":", 1)[1])):
            return
        time.sleep(0.3)
    raise RuntimeError(f"the stack did not start; see the logs in {workdir}")


def statements(probe_dir: Path, pids: set[int]) -> int:
    """SQL statements counted so far by the given processes."""
    total = 0
    for path in probe_dir.iterdir():
        if int(path.name) in pids:
            try:
                total += int(path.read_text() or 0)
            except (OSError, ValueError):
                continue
    return total


def tree_pids(root_pid: int) -> set[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, stack = set(), [root_pid]
    while stack:
        pid = stack.pop()
        found.add(pid)
        stack.extend(child for child, parent in parents.items() if parent == pid)
    return found


# --- the clients -----------------------------------------------------------------------------------


@dataclass
class BenchGame:
    game_id: str
    paths: list[str]  # each seat's page, relative to the server
    over: bool = False


@dataclass
class Measures:
    answers: list[float] = field(default_factory=list)  # seconds, POST -> answer
    pages: list[float] = field(default_factory=list)  # seconds, GET of the HTML page
    posts: list[tuple[str, datetime]] = field(default_factory=list)  # (game, when the POST began)
    accepted: int = 0
    other: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def new_games(rt: Runtime, count: int, seed: int) -> list[BenchGame]:
    games = []
    kinds = sorted(GAMES)
    for n in range(count):
        kind = kinds[n % len(kinds)]
        players = [Player(name, f"{name.lower()}{seed + n}@example.org") for name in NAMES[: SEATS[kind]]]
        game_id = create_game(rt, kind, players, players[0], {}, seed + n)
        table = rt.read_table(game_id)
        base = rt.settings["BASE_URL"].rstrip("/")
        paths = [player_url(rt, table, seat).removeprefix(base) for seat in range(SEATS[kind])]
        games.append(BenchGame(game_id, paths))
    return games


def client(base: str, games: list[BenchGame], until: float, seed: int, into: Measures) -> None:
    """One player's browser after another: read the owed seat's page and post a random legal move."""
    rng = random.Random(seed)
    host, port = base.removeprefix("http://").split(":")
    connection = HTTPConnection(host, int(port), timeout=60)

    def call(method: str, path: str, body: dict | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read()
        is_json = response.getheader("Content-Type", "").startswith("application/json")
        return response.status, json.loads(data) if is_json else data

    while time.monotonic() < until:
        running = [game for game in games if not game.over]
        if not running:
            return
        game = rng.choice(running)
        _, state = call("GET", "/api" + game.paths[0])
        if state["result"] is not None or not state["to_act"]:
            game.over = state["result"] is not None
            continue
        path = game.paths[rng.choice(state["to_act"])]
        t0 = time.perf_counter()
        status, _ = call("GET", path)
        into.pages.append(time.perf_counter() - t0)
        assert status == 200, (status, path)
        _, mine = call("GET", "/api" + path)
        if not mine["legal_actions"]:
            continue
        action = rng.choice(mine["legal_actions"])
        began = datetime.now(UTC)
        t0 = time.perf_counter()
        _, answer = call("POST", "/api" + path, {"action": action, "seq": mine["seq"]})
        into.answers.append(time.perf_counter() - t0)
        if answer.get("status") == MoveStatus.ACCEPTED:
            into.accepted += 1
            into.posts.append((game.game_id, began))
        else:
            into.other[str(answer.get("status"))] += 1


def played(
    base: str, games: list[BenchGame], clients: int, seconds: float, seed: int
) -> tuple[list[Measures], float]:
    """C clients playing for `seconds`, each on its own share of the games: what each measured,
    and the seconds they played."""
    started = time.monotonic()
    measures = [Measures() for _ in range(clients)]
    threads = [
        threading.Thread(target=client, args=(base, games[n::clients], started + seconds, seed + n, into))
        for n, into in enumerate(measures)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return measures, time.monotonic() - started


def outbox_latencies(rt: Runtime, posts: list[tuple[str, datetime]]) -> list[float]:
    """Seconds from each accepted POST to the first outbox row of its game written after it and
    before the game's next POST (a move that mailed nobody has no figure)."""
    rows: dict[str, list[datetime]] = defaultdict(list)
    with Session(rt.engine) as session:
        game_ids = list({game for game, _ in posts})
        for row in session.exec(select(OutboxMail).where(OutboxMail.game_id.in_(game_ids))):  # type: ignore[union-attr]
            rows[str(row.game_id)].append(row.created_at.replace(tzinfo=UTC))
    starts: dict[str, list[datetime]] = defaultdict(list)
    for game_id, began in posts:
        starts[game_id].append(began)
    latencies = []
    for game_id, began_list in starts.items():
        ordered = sorted(began_list)
        for began, following in zip(ordered, [*ordered[1:], None], strict=True):
            written = [m for m in rows[game_id] if m >= began and (following is None or m < following)]
            if written:
                latencies.append((min(written) - began).total_seconds())
    return latencies


def load_phase(rt: Runtime, stack: Stack, clients: int, seconds: float, seed: int) -> None:
    games = new_games(rt, max(2 * clients, 8), seed)
    cpu_before = {name: tree_cpu_seconds(process.pid) for name, process in stack.processes.items()}
    time.sleep(0.6)  # the probes' last write
    sql_before = statements(stack.probe_dir, stack_pids(stack))
    measures, elapsed = played(stack.base, games, clients, seconds, seed)
    drafted(rt)
    cpu_after = {name: tree_cpu_seconds(process.pid) for name, process in stack.processes.items()}
    time.sleep(0.6)
    sql_after = statements(stack.probe_dir, stack_pids(stack))
    answers = [s * 1000 for m in measures for s in m.answers]
    pages = [s * 1000 for m in measures for s in m.pages]
    moves = sum(m.accepted for m in measures)
    others: dict[str, int] = defaultdict(int)
    for m in measures:
        for status, count in m.other.items():
            others[status] += count
    rows = [s * 1000 for s in outbox_latencies(rt, [p for m in measures for p in m.posts])]
    per_move = max(moves, 1)

    def p(values: list[float], q: int) -> str:
        return f"{percentile(values, q):6.1f}"

    spent = {name: (cpu_after[name] - cpu_before[name]) / per_move * 1000 for name in cpu_after}
    cpu = "  ".join(f"{name} {ms:5.1f} ms" for name, ms in spent.items())
    print(
        f"C={clients:<3} {moves / elapsed:7.1f} moves/s ({moves} in {elapsed:4.1f} s"
        f"{', other answers ' + str(dict(others)) if others else ''})\n"
        f"      POST->answer     p50 {p(answers, 50)}  p95 {p(answers, 95)}  p99 {p(answers, 99)} ms\n"
        f"      POST->outbox row p50 {p(rows, 50)}  p95 {p(rows, 95)}  p99 {p(rows, 99)} ms\n"
        f"      GET page         p50 {p(pages, 50)}  p95 {p(pages, 95)} ms\n"
        f"      CPU per move     {cpu}   SQL statements per move {(sql_after - sql_before) / per_move:5.1f}"
        " (web, worker and mailer, page reads included)",
        flush=True,
    )


# --- cost of a move as logs and games grow ---------------------------------------------------------


def timed_moves(rt: Runtime, game_id: str, count: int, rng: random.Random) -> list[tuple[int, float]]:
    """(log length before the move, seconds) for up to `count` random moves through the service."""
    costs = []
    for _ in range(count):
        table = rt.read_table(game_id)
        if table.result is not None:
            break
        seat = rng.choice(sorted(table.rules.to_act(table.state)))
        action = rng.choice(table.rules.legal_actions(table.state, seat))
        t0 = time.perf_counter()
        outcome = submit_move(rt, game_id, seat, table.version, action)
        costs.append((table.version, time.perf_counter() - t0))
        assert outcome.status == MoveStatus.ACCEPTED, outcome
    return costs


def move_cost_by_log_length(rt: Runtime, games: int) -> dict[int, float]:
    """Mean milliseconds per move, by the length of the log before it (Double Side Play's logs
    are the longest our rules make: about 190-250 events for a whole match)."""
    buckets = (10, 50, 100, 150, 200)
    costs: dict[int, list[float]] = defaultdict(list)
    rng = random.Random(7)
    players = [Player(name, f"{name.lower()}@example.org") for name in NAMES]
    for n in range(games):
        game_id = create_game(rt, "double_side", players, players[0], {}, 1000 + n)
        for length, seconds in timed_moves(rt, game_id, 400, rng):
            bucket = max((b for b in buckets if b <= length), default=buckets[0])
            costs[bucket].append(seconds * 1000)
    return {bucket: sum(values) / len(values) for bucket, values in sorted(costs.items())}


def clone_games(rt: Runtime, template: str, count: int, first: int, due_every: int) -> None:
    """`count` copies of a game's rows (game, seats, events, turn clocks), every `due_every`-th with
    its clock due now; written in SQL, the same rows the store appends."""
    past = rt.clock.now() - timedelta(minutes=5)
    with rt.engine.begin() as conn:
        columns = {
            table: [
                row[0]
                for row in conn.execute(
                    text(
                        "SELECT column_name FROM information_schema.columns WHERE table_name = :t "
                        "AND column_name NOT IN ('id', 'game_id') ORDER BY ordinal_position"
                    ),
                    {"t": table},
                )
            ]
            for table in ("games", "seats", "events", "turn_clocks")
        }
        games_columns = [c for c in columns["games"] if c != "id"]
        conn.execute(
            text(
                f"INSERT INTO games (id, {', '.join(games_columns)}) "
                f"SELECT 'bench' || n, {', '.join(games_columns)} FROM games, "
                "generate_series(CAST(:first AS int), CAST(:last AS int)) AS n WHERE id = :template"
            ),
            {"first": first, "last": first + count - 1, "template": template},
        )
        for table in ("seats", "events", "turn_clocks"):
            names = ", ".join(columns[table])
            conn.execute(
                text(
                    f"INSERT INTO {table} (game_id, {names}) SELECT 'bench' || n, {names} FROM {table}, "
                    "generate_series(CAST(:first AS int), CAST(:last AS int)) AS n WHERE game_id = :template"
                ),
                {"first": first, "last": first + count - 1, "template": template},
            )
        conn.execute(
            text(
                "UPDATE turn_clocks SET due_at = :past, remind_at = :past WHERE settled_at IS NULL "
                "AND game_id LIKE 'bench%' AND substr(game_id, 6)::int % CAST(:every AS int) = 0 "
                "AND substr(game_id, 6)::int BETWEEN CAST(:first AS int) AND CAST(:last AS int)"
            ),
            {"past": past, "every": due_every, "first": first, "last": first + count - 1},
        )
        conn.execute(text("ANALYZE"))


def scale_part(games_wanted: int) -> None:
    settings = {
        "DATABASE_URL": fresh_database("pbem_bench_scale"),
        "REDIS_URL": None,
        "SMTP_HOST": None,
        "SECRET_KEY": "bench",
        "RUN_MIGRATIONS": False,
        "LOCAL_OUTBOX": 1,  # mail kept, not sent: a bench has no SMTP server
        "ALLOW_HTTP_BASE_URL": 1,
    }
    app = create_app(settings)
    with app.app_context():
        rt: Runtime = app.extensions["pbem"]
        by_length = move_cost_by_log_length(rt, 3)
        print("\nPer-move cost by log length (Double Side Play, tasks in-process, PostgreSQL):")
        print("  " + "   ".join(f"{length:>3}+ events {ms:5.1f} ms" for length, ms in by_length.items()))

        players = [Player(name, f"{name.lower()}@example.org") for name in NAMES[:2]]
        template = create_game(rt, "red_black", players, players[0], {}, 5, TimeControl(move_days=1))
        rng = random.Random(3)
        print("\nWith more games in the database (red_black, 1 day per move; 1% of clocks due):")
        cloned = 0
        for total in (1_000, 10_000, games_wanted):
            if total <= cloned:
                continue
            clone_games(rt, template, total - cloned, cloned + 1, 100)
            cloned = total
            t0 = time.perf_counter()
            run = run_due_clocks(rt)
            clocks_ms = (time.perf_counter() - t0) * 1000
            game_id = create_game(rt, "red_black", players, players[0], {}, total)
            costs = [s * 1000 for _, s in timed_moves(rt, game_id, 40, rng)]
            print(
                f"  {total:>7} games: move {sum(costs) / len(costs):5.1f} ms mean"
                f" (p95 {percentile(costs, 95):5.1f})   run_clocks {clocks_ms:8.1f} ms"
                f" for {total // 100} due clocks ({run.reminders} reminders, {run.timeouts} timeouts)",
                flush=True,
            )
    app.extensions["pbem"].engine.dispose()


# --- what three channels per seat cost against mail only -------------------------------------------

ARMS = ("mail only", "3 channels per seat")


class Sink:
    """An SMTP server's handler that takes every message and keeps nothing."""

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


class Answering(BaseHTTPRequestHandler):
    """Stands for Discord, ntfy, Mattermost and someone's webhook: 200 to every notice, on
    connections kept between requests as those services keep them."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # the answer's head and body written at once

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def receivers() -> Iterator[tuple[int, int]]:
    """A local SMTP server and a local HTTP receiver for the channels: their ports."""
    smtp = Controller(Sink(), hostname="127.0.0.1", port=free_port())
    smtp.start()
    http = ThreadingHTTPServer(("127.0.0.1", 0), Answering)
    http.daemon_threads = True
    threading.Thread(target=http.serve_forever, daemon=True).start()
    try:
        yield smtp.port, http.server_address[1]
    finally:
        http.shutdown()
        smtp.stop()


def with_channels(rt: Runtime, games: list[BenchGame], port: int) -> None:
    """Three channels on every seat: a signed webhook, ntfy and Mattermost (Apprise)."""
    for game in games:
        for seat in range(len(game.paths)):
            for url in (
                f"http://127.0.0.1:{port}/hook/{game.game_id}/{seat}",
                f"ntfy://127.0.0.1:{port}/topic{seat}",
                f"mmost://127.0.0.1:{port}/token{seat}",
            ):
                add_channel(rt, game.game_id, seat, url)


def drafted(rt: Runtime, limit: float = 180) -> None:
    """Wait until the mailer has drafted every mail a move wrote (the load part keeps its mail)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with Session(rt.engine) as session:
            waiting = session.exec(
                select(func.count()).select_from(OutboxMail).where(col(OutboxMail.draft).is_not(None))
            ).one()
        if not waiting:
            return
        time.sleep(0.2)
    raise RuntimeError("the mailer did not draft everything in time")


def drained(rt: Runtime, limit: float = 180) -> None:
    """Wait until the mailer has sent every mail and notice due."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with Session(rt.engine) as session:
            pending = session.exec(
                select(func.count()).select_from(OutboxMail).where(OutboxMail.status == MailStatus.PENDING)
            ).one()
        if not pending:
            return
        time.sleep(0.5)
    raise RuntimeError("the mailer did not send everything in time")


def arm_phase(
    rt: Runtime, stack: Stack, arm: str, clients: int, seconds: float, seed: int, port: int
) -> tuple[int, float, dict[str, float]]:
    """One phase of C clients on new games (with channels or not), until the mailer sent what the
    moves caused: the moves, the seconds of play, and CPU seconds by process tree."""
    games = new_games(rt, max(2 * clients, 8), seed)
    if arm != ARMS[0]:
        with_channels(rt, games, port)
    drained(rt)  # the invitations: not the moves' cost
    before = {name: tree_cpu_seconds(process.pid) for name, process in stack.processes.items()}
    measures, elapsed = played(stack.base, games, clients, seconds, seed)
    drained(rt)
    after = {name: tree_cpu_seconds(process.pid) for name, process in stack.processes.items()}
    return sum(m.accepted for m in measures), elapsed, {name: after[name] - before[name] for name in after}


def keeping_stack(database: str) -> dict[str, Any]:
    """The settings of a stack on a fresh database `database` that keeps its mail in the outbox."""
    return {
        "DATABASE_URL": fresh_database(database),
        "REDIS_URL": REDIS,
        "SECRET_KEY": "bench",
        "MOVE_WAIT_SECONDS": 10,
        "RUN_MIGRATIONS": 0,
        "LOCAL_OUTBOX": 1,  # mail kept, not sent
        "ALLOW_HTTP_BASE_URL": 1,
    }


def mailing_stack(database: str, smtp_port: int, **extra: object) -> dict[str, Any]:
    """The settings of a stack on a fresh database `database` that really sends its mail to the
    local SMTP server at `smtp_port`."""
    return {
        **keeping_stack(database),
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": smtp_port,
        "LOCAL_OUTBOX": 0,
        **extra,
    }


def channels_part(clients: int, seconds: float, rounds: int) -> None:
    """Mail only against three channels per seat, phase by phase alternately on one stack (web,
    worker, mailer), mail really sent to a local SMTP server and notices to a local receiver."""
    totals = {arm: [0, 0.0, defaultdict(float)] for arm in ARMS}
    with receivers() as (smtp_port, http_port):
        settings = mailing_stack("pbem_bench_channels", smtp_port, CHANNEL_ALLOW_LOOPBACK=1)
        redis.Redis.from_url(REDIS).flushdb()
        workdir = Path(tempfile.mkdtemp(prefix="pbem-channels-"))
        print(f"\nChannels (web, worker and mailer): C={clients}, {seconds:.0f} s a phase, {rounds} rounds")
        with deployed_stack(settings, workdir, ("web", "worker", "mailer")) as stack:
            app = create_app({**settings, "RUN_MIGRATIONS": False, "BASE_URL": stack.base})
            with app.app_context():
                rt = app.extensions["pbem"]
                arm_phase(rt, stack, ARMS[1], clients, seconds / 2, 1, http_port)  # warm-up, not counted
                for round_ in range(rounds):
                    order = ARMS if round_ % 2 == 0 else ARMS[::-1]  # ABBA: drift falls on both
                    for arm in order:
                        seed = 100_000 * (round_ + 1)  # both arms deal the same games and play the same moves
                        moves, elapsed, cpu = arm_phase(rt, stack, arm, clients, seconds, seed, http_port)
                        total = totals[arm]
                        total[0] += moves
                        total[1] += elapsed
                        for name, spent in cpu.items():
                            total[2][name] += spent
                        print(f"  round {round_ + 1} {arm:<20} {cost_line(moves, elapsed, cpu)}", flush=True)
    print("  side by side, all rounds:")
    for arm in ARMS:
        moves, elapsed, cpu = totals[arm]
        print(f"    {arm:<20} {cost_line(moves, elapsed, cpu)}")
    (base_moves, base_time, base_cpu), (moves, elapsed, cpu) = (totals[arm] for arm in ARMS)
    base_per_move = sum(base_cpu.values()) / max(base_moves, 1)
    per_move = sum(cpu.values()) / max(moves, 1)
    print(
        f"    channels / mail only: CPU per move x{per_move / base_per_move:.3f}, "
        f"moves/s x{(moves / elapsed) / (base_moves / base_time):.3f}"
    )


def cost_line(moves: int, elapsed: float, cpu: dict[str, float]) -> str:
    per = {name: spent / max(moves, 1) * 1000 for name, spent in cpu.items()}
    return (
        f"{moves / elapsed:6.1f} moves/s ({moves:4d})  CPU per move "
        + "  ".join(f"{name} {ms:5.1f}" for name, ms in per.items())
        + f"  total {sum(per.values()):5.1f} ms"
    )


# --- what players cost against the floor of the architecture --------------------------------------

PROCESSES = ("web", "worker", "mailer", "periodic", "beat")
# Play before the first round, not counted: each process's first pages and mails of each game compile
# its templates and fill its caches (a game's typical pace), which cost a first round ~15 ms a move.
WARM_UP_SECONDS = 8
SHARED = ("postgres", "redis-server")  # the servers' processes, counted by name


def running_games(rt: Runtime, count: int) -> list[BenchGame]:
    """`count` running games: one of each kind created through the service, the rest copies of
    their rows (`clone_games`), each seat with an address of its own (the daily cap is per address)."""
    templates = new_games(rt, 4, 900_000)
    share = max(count // len(templates) - 1, 0)
    for n, template in enumerate(templates):
        clone_games(rt, template.game_id, share, 1 + n * share, due_every=10 * count + 1)
    with rt.engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE seats SET email = lower(name) || '.' || game_id || '@example.org' "
                "WHERE game_id LIKE 'bench%'"
            )
        )
    with rt.engine.connect() as conn:
        ids = [
            row[0] for row in conn.execute(text("SELECT id FROM games WHERE id LIKE 'bench%' ORDER BY id"))
        ]
    base = rt.settings["BASE_URL"].rstrip("/")
    games = list(templates)
    for game_id in ids:
        table = rt.read_table(game_id)
        paths = [player_url(rt, table, seat).removeprefix(base) for seat in range(len(table.seats))]
        games.append(BenchGame(game_id, paths))
    return games


def cpu_now(stack: Stack) -> dict[str, float]:
    return {name: tree_cpu_seconds(process.pid) for name, process in stack.processes.items()} | {
        name: processes_cpu_seconds(name) for name in SHARED
    }


def service_phase(
    rt: Runtime, stack: Stack, games: list[BenchGame], clients: int, seconds: float, seed: int
) -> tuple[int, float, dict[str, float], str]:
    """One phase of play, until the mailer has sent what it caused: the moves accepted, the seconds
    of play, CPU seconds by process, and the latencies in a line."""
    before = cpu_now(stack)
    time.sleep(0.6)  # the probes' last write
    sql_before = statements(stack.probe_dir, stack_pids(stack))
    measures, elapsed = played(stack.base, games, clients, seconds, seed)
    drained(rt)
    after = cpu_now(stack)
    time.sleep(0.6)
    sql_after = statements(stack.probe_dir, stack_pids(stack))
    moves = sum(m.accepted for m in measures)
    answers = [s * 1000 for m in measures for s in m.answers]
    pages = [s * 1000 for m in measures for s in m.pages]
    rows = [s * 1000 for s in outbox_latencies(rt, [p for m in measures for p in m.posts])]

    def p(values: list[float], q: int) -> str:
        return f"{percentile(values, q):6.1f}"

    line = (
        f"POST->answer p50 {p(answers, 50)} p95 {p(answers, 95)}"
        f"  POST->outbox row p50 {p(rows, 50)} p95 {p(rows, 95)}"
        f"  page p50 {p(pages, 50)} p95 {p(pages, 95)} ms"
        f"  SQL statements per move {(sql_after - sql_before) / max(moves, 1):4.1f}"
    )
    return moves, elapsed, {name: after[name] - before[name] for name in after}, line


def stack_pids(stack: Stack) -> set[int]:
    return set().union(*(tree_pids(process.pid) for process in stack.processes.values()))


def players_part(clients: int, seconds: float, game_count: int, rounds: int) -> None:
    """Players on the whole stack against the floor, phase by phase alternately (see the top)."""
    floor_database_name = floor_database()
    with receivers() as (smtp_port, _):
        workdir = Path(tempfile.mkdtemp(prefix="pbem-players-"))
        settings = mailing_stack(
            "pbem_bench_players", smtp_port, BEAT_SCHEDULE_FILE=str(workdir / "beat-schedule")
        )
        redis.Redis.from_url(REDIS).flushdb()
        print(
            f"\nPlayers: C={clients}, {game_count} running games, {seconds:.0f} s a phase, {rounds} rounds,"
        )
        print(
            f"on the Procfile's {', '.join(PROCESSES)}, mail sent to a local SMTP server; the floor between"
        )
        moves, elapsed, cpu = 0, 0.0, defaultdict(float)
        floors: list[Floor] = []
        with deployed_stack(settings, workdir, PROCESSES) as stack:
            app = create_app({**settings, "RUN_MIGRATIONS": False, "BASE_URL": stack.base})
            with app.app_context():
                rt = app.extensions["pbem"]
                games = running_games(rt, game_count)
                drained(rt)  # the invitations: not the moves' cost
                warmed = sum(m.accepted for m in played(stack.base, games, clients, WARM_UP_SECONDS, 0)[0])
                drained(rt)
                print(f"  warm-up: {warmed} moves in {WARM_UP_SECONDS} s, not counted")
                for round_ in range(1, rounds + 1):
                    floors.append(
                        measure_floor(floor_database_name, max(seconds / 4, 3), clients, free_port())
                    )
                    print(f"  round {round_} {floors[-1].line()}", flush=True)
                    done, spent, used, line = service_phase(
                        rt, stack, games, clients, seconds, 1_000 * round_
                    )
                    print(
                        f"  round {round_} service {cost_line(done, spent, used)}\n{' ' * 16}{line}",
                        flush=True,
                    )
                    moves, elapsed = moves + done, elapsed + spent
                    for name, seconds_used in used.items():
                        cpu[name] += seconds_used
    per_move = sum(cpu.values()) / max(moves, 1) * 1000
    floor = sum(f.per_move for f in floors) / len(floors)
    print(f"  all rounds: {cost_line(moves, elapsed, cpu)}")
    print(f"  the floor: {floor:5.2f} ms a move; the service costs x{per_move / floor:.1f} the floor")


# --- unchanged reads: what a client polling a game that has not moved costs -------------------------

READ_KINDS = ("JSON", "page")


def reader(
    base: str, paths: list[str], until: float, seed: int, tags: dict[str, str] | None, into: Counter[int]
) -> None:
    """One polling client: reads of its seats' JSON or pages at random, each (unless `tags` is None)
    with the tag its last answer for that path gave; the statuses it got, counted."""
    rng = random.Random(seed)
    host, port = base.removeprefix("http://").split(":")
    connection = HTTPConnection(host, int(port), timeout=60)
    while time.monotonic() < until:
        path = rng.choice(paths)
        headers = {"If-None-Match": tags[path]} if tags is not None and path in tags else {}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        into[response.status] += 1
        if tags is not None and response.getheader("ETag"):
            tags[path] = response.getheader("ETag", "")


def read_phase(
    stack: Stack, paths: list[str], seconds: float, tags: list[dict[str, str]], conditional: bool
) -> str:
    """A client per dict of `tags` polling its share of `paths` for `seconds` (with the tags it kept
    when `conditional`): reads per second, the share answered 304, CPU per read."""
    clients = len(tags)
    counts: list[Counter[int]] = [Counter() for _ in range(clients)]
    until = time.monotonic() + seconds
    before = cpu_now(stack)
    threads = [
        threading.Thread(
            target=reader,
            args=(stack.base, paths[n::clients], until, n, tags[n] if conditional else None, counts[n]),
        )
        for n in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = cpu_now(stack)
    total = sum(counts, Counter())
    reads = sum(total.values())
    per = {name: (after[name] - before[name]) / max(reads, 1) * 1000 for name in after}
    return (
        f"{reads / seconds:7.1f} reads/s ({reads:5d}), {total[304] / max(reads, 1):4.0%} 304  CPU per read "
        + "  ".join(f"{name} {ms:5.2f}" for name, ms in per.items())
        + f"  total {sum(per.values()):5.2f} ms"
    )


def reads_part(clients: int, seconds: float, game_count: int) -> None:
    """Seats' JSON and pages read over and over while nothing moves, without and with If-None-Match,
    on the Procfile's web (gunicorn 2x4) with PostgreSQL and Redis: first with no seat pictures kept
    (every read without a tag is built), then with them (service/web/pictures.py)."""
    print(
        f"\nUnchanged reads: C={clients}, {game_count} games, {seconds:.0f} s a phase, on the Procfile's web"
    )
    for kept in (False, True):
        settings = keeping_stack("pbem_bench_reads")
        if not kept:
            settings["PICTURE_CACHE_URL"] = "none"
        redis.Redis.from_url(REDIS).flushdb()
        workdir = Path(tempfile.mkdtemp(prefix="pbem-reads-"))
        print("  seat pictures kept in Redis" if kept else "  no seat pictures kept")
        with deployed_stack(settings, workdir, ("web",)) as stack:
            app = create_app({**settings, "RUN_MIGRATIONS": False, "BASE_URL": stack.base})
            with app.app_context():
                games = new_games(app.extensions["pbem"], game_count, 500_000)
            pages = [path for game in games for path in game.paths]
            for kind, paths in zip(READ_KINDS, (["/api" + path for path in pages], pages), strict=True):
                tags: list[dict[str, str]] = [{} for _ in range(clients)]
                # A warm-up, not counted: it gathers the tags (and keeps the pictures, where kept).
                read_phase(stack, paths, seconds / 4, tags, conditional=True)
                for conditional in (False, True):
                    asked = "with If-None-Match   " if conditional else "without If-None-Match"
                    figures = read_phase(stack, paths, seconds, tags, conditional)
                    print(f"    {kind:<4} {asked} {figures}", flush=True)


# --- moves while the turn clocks run: does a move wait on periodic work? ---------------------------

CLOCK_SLICES = 100  # a slice of the cloned games' clocks made due each minute: 1%
GAMES_A_PHASE = 128  # new games for each phase, more than one client finishes in it


def due_slice(rt: Runtime, slice_: int) -> int:
    """Make the open clocks of one slice (1%) of the cloned games due now; how many."""
    past = rt.clock.now() - timedelta(minutes=1)
    with rt.engine.begin() as conn:
        return conn.execute(
            text(
                "UPDATE turn_clocks SET due_at = :past, remind_at = :past WHERE settled_at IS NULL "
                "AND game_id LIKE 'bench%' AND substr(game_id, 6)::int % :slices = :slice"
            ),
            {"past": past, "slices": CLOCK_SLICES, "slice": slice_},
        ).rowcount


def open_due_clocks(rt: Runtime) -> int:
    with rt.engine.connect() as conn:
        return int(
            conn.execute(
                text("SELECT count(*) FROM turn_clocks WHERE settled_at IS NULL AND due_at <= now()")
            ).scalar_one()
        )


def periodic_phase(rt: Runtime, stack: Stack, games: list[BenchGame], seconds: float, due: bool) -> str:
    """One client playing for `seconds` while (when `due`) another 1% of the clocks comes due every
    minute; POST -> answer and the clocks made due and left due, in a line."""
    stop = threading.Event()
    made: list[int] = []

    def every_minute() -> None:
        minute = 0
        while due and not stop.is_set():
            made.append(due_slice(rt, minute % CLOCK_SLICES))
            minute += 1
            stop.wait(60)

    ticking = threading.Thread(target=every_minute)
    ticking.start()
    measures, elapsed = played(stack.base, games, 1, seconds, 7 if due else 5)
    stop.set()
    ticking.join()
    answers = [s * 1000 for m in measures for s in m.answers]
    moves = sum(m.accepted for m in measures)
    return (
        f"{moves / elapsed:5.1f} moves/s  POST->answer p50 {percentile(answers, 50):6.1f}"
        f" p95 {percentile(answers, 95):6.1f} ms  clocks made due {sum(made):5d},"
        f" still due {open_due_clocks(rt):5d}"
    )


def settled(rt: Runtime, limit: float = 300) -> None:
    """Wait until the periodic worker has acted on every due clock (a quiet phase starts quiet)."""
    deadline = time.monotonic() + limit
    while open_due_clocks(rt) and time.monotonic() < deadline:
        time.sleep(1)


def periodic_part(game_count: int, seconds: float) -> None:
    """Moves at C=1 on the Procfile's whole stack (beat and the periodic worker running the clocks
    every CLOCK_INTERVAL_SECONDS) with `game_count` running games with turn clocks: without a clock
    due, then with 1% of them made due every minute, alternately twice."""
    workdir = Path(tempfile.mkdtemp(prefix="pbem-periodic-"))
    settings = {
        **keeping_stack("pbem_bench_periodic"),
        "BEAT_SCHEDULE_FILE": str(workdir / "beat-schedule"),
        "CLOCK_INTERVAL_SECONDS": 60,
    }
    redis.Redis.from_url(REDIS).flushdb()
    print(f"\nMoves while the clocks run: C=1, {game_count} games with turn clocks, {seconds:.0f} s a phase")
    with deployed_stack(settings, workdir, PROCESSES) as stack:
        app = create_app({**settings, "RUN_MIGRATIONS": False, "BASE_URL": stack.base})
        with app.app_context():
            rt = app.extensions["pbem"]
            players = [Player(name, f"{name.lower()}@example.org") for name in NAMES[:2]]
            template = create_game(rt, "red_black", players, players[0], {}, 5, TimeControl(move_days=1))
            clone_games(rt, template, game_count, 1, due_every=game_count + 1)
            drained(rt)
            played(stack.base, new_games(rt, 8, 700_000), 1, WARM_UP_SECONDS, 0)
            for n, due in enumerate((False, True, False, True)):
                if not due:
                    settled(rt)
                games = new_games(rt, GAMES_A_PHASE, 710_000 + 1_000 * n)  # a phase plays ~2,000 moves
                label = "1% due a minute" if due else "no clock due   "
                print(f"  {label} {periodic_phase(rt, stack, games, seconds, due)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,4,16,64")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--games", type=int, default=100_000, help="games in the database for part 2")
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds of the channels part (each arm once a round)"
    )
    parser.add_argument("--channel-clients", type=int, default=1, help="clients in the channels part")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("load", "scale", "channels", "players", "reads", "periodic"),
        help="leave a part out",
    )
    parser.add_argument("--player-clients", type=int, default=16, help="clients in the players part")
    parser.add_argument("--player-games", type=int, default=1000, help="running games in the players part")
    parser.add_argument(
        "--read-games", type=int, default=64, help="games whose seats are read in the reads part"
    )
    args = parser.parse_args()
    if "load" not in args.skip:
        settings = keeping_stack("pbem_bench_load")
        redis.Redis.from_url(REDIS).flushdb()
        workdir = Path(tempfile.mkdtemp(prefix="pbem-load-"))
        print(f"Deployed stack: {procfile_command('web')!r}, {procfile_command('worker')!r} and the mailer,")
        print("WEB_CONCURRENCY=2, WORKER_CONCURRENCY=2, MAILER_CONCURRENCY=2, PostgreSQL and Redis; clients")
        print("in this process; each phase counted until the mailer has drafted what it caused (mail kept).")
        with deployed_stack(settings, workdir, ("web", "worker", "mailer")) as stack:
            app = create_app({**settings, "RUN_MIGRATIONS": False, "BASE_URL": stack.base})
            with app.app_context():
                rt = app.extensions["pbem"]
                for n, clients in enumerate(int(c) for c in args.clients.split(",")):
                    load_phase(rt, stack, clients, args.seconds, 10_000 * (n + 1))
    if "scale" not in args.skip:
        scale_part(args.games)
    if "channels" not in args.skip:
        channels_part(args.channel_clients, args.seconds, args.rounds)
    if "players" not in args.skip:
        players_part(args.player_clients, args.seconds, args.player_games, args.rounds)
    if "reads" not in args.skip:
        reads_part(args.player_clients, args.seconds, args.read_games)
    if "periodic" not in args.skip:
        periodic_part(args.games, max(args.seconds, 130))


if __name__ == "__main__":
    main()
