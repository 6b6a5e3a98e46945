"""A cold read of a long table against a short one: `Runtime.read_table` with the per-process cache
empty, so what the read costs is the database's rows and the fold, whatever the log's length.

Games of Double Side Play are written to a fresh PostgreSQL database by random legal moves, padded
with the host's "more time" decisions (each an event of the log that changes nothing of the play)
until each is as long as asked: by default 10 events, 2,000 (a snapshot's version) and 2,024 (the
most events a read folds past a snapshot). Reads of the games alternate, so that a machine loaded
by other work weighs on all alike; the ratio of each median to the first game's is what counts.

    .venv/bin/python bench/cold_read.py [--lengths 10 2000 2024] [--reads 60]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import UTC, datetime
from typing import Any

from harness import fresh_database, percentile
from sqlmodel import Session

from rules import Game, get_game
from rules.table import extend_decision
from service import create_app
from service.eventlog.models import EventOrigin
from service.eventlog.store import FoldCache, append_move, load_table
from service.play.hosting import Player, create_game
from service.runtime import Runtime

GAME = "double_side"
PLAYERS = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy", "Di")]


def grow(rt: Runtime, game_id: str, length: int, rng: random.Random) -> None:
    """Append random legal moves, each followed by more time for a seat that owes one, until the log
    is `length` events long (the game still running)."""
    rules = get_game(GAME)
    now = datetime.now(UTC)
    with Session(rt.engine, expire_on_commit=False) as session:
        table = load_table(session, game_id)
        while table.version < length:
            seat = rng.choice(sorted(rules.to_act(table.state)))
            if table.version + 8 < length:
                action = rng.choice(rules.legal_actions(table.state, seat))
                events = rules.act(table.state, seat, action)
                if rules.result(folded(rules, table.state, events)) is None:
                    table = append_move(session, table, seat, action, events, EventOrigin.PLAYER, now)
            decision = extend_decision(min(rules.to_act(table.state)), 1)
            events = rules.table.decide(table.state, decision, len(table.seats))
            table = append_move(session, table, None, decision, events, EventOrigin.HOST, now)
        session.commit()


def folded(rules: Game[Any], state: Any, events: list[dict[str, Any]]) -> Any:
    """`state` with `events` applied."""
    for event in events:
        state = rules.apply(state, event)
    return state


def cold_read(rt: Runtime, game_id: str) -> float:
    """Milliseconds of one read of the table with an empty per-process cache."""
    rt.cache = FoldCache()
    started = time.perf_counter()
    rt.read_table(game_id)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[10, 2000, 2024])
    parser.add_argument("--reads", type=int, default=60)
    args = parser.parse_args()
    settings = {
        "DATABASE_URL": fresh_database(f"{os.environ.get('PBEM_TEST_DB_PREFIX', 'pbem')}_bench_cold_read"),
        "SECRET_KEY": "bench",
        "RUN_MIGRATIONS": 0,
        "LOCAL_OUTBOX": 1,
        "ALLOW_HTTP_BASE_URL": 1,
    }
    app = create_app(settings)
    rng = random.Random(1)
    with app.app_context():
        rt: Runtime = app.extensions["pbem"]
        games = {}
        for length in args.lengths:
            game_id = create_game(rt, GAME, PLAYERS, PLAYERS[0], seed=length)
            grow(rt, game_id, length, rng)
            games[length] = game_id
        times: dict[int, list[float]] = {length: [] for length in games}
        for _ in range(args.reads):
            for length, game_id in games.items():
                times[length].append(cold_read(rt, game_id))
        versions = {length: rt.read_table(game_id).version for length, game_id in games.items()}
    print(f"cold read_table ({GAME}), {args.reads} reads each, interleaved")
    first = statistics.median(times[args.lengths[0]])
    for length, values in times.items():
        print(
            f"{versions[length]:6,} events  p50 {statistics.median(values):7.2f} ms"
            f"  p95 {percentile(values, 95):7.2f} ms  p50 / first's {statistics.median(values) / first:5.2f}x"
        )


if __name__ == "__main__":
    main()
