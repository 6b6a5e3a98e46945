"""End to end through the service, on PostgreSQL with a real Celery worker on Redis.

Random players play whole games through the JSON API (the WSGI app in-process, the worker a separate
process). Prints full games per second, moves per second and the latency from a POST to the next
player's outbox row (written in the same transaction as the move's events, so a POST that answers
"accepted" has its row). Mail delivery is not part of the figure (SMTP unset: mail is kept).

    .venv/bin/python bench/end_to_end.py [--game red_black] [--games 10]
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from harness import fresh_database, percentile

from rules import get_game
from service import create_app
from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from tests.worker_process import worker_process

REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="red_black")
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    settings = {
        "DATABASE_URL": fresh_database("pbem_bench"),
        "REDIS_URL": REDIS,
        "SECRET_KEY": "bench",
        "MOVE_WAIT_SECONDS": 30,
        "RUN_MIGRATIONS": 0,
        "LOCAL_OUTBOX": 1,  # mail kept, not sent: a bench has no SMTP server
        "ALLOW_HTTP_BASE_URL": 1,
    }
    workdir = Path(tempfile.mkdtemp())
    with worker_process(settings, workdir / "worker.log"):
        app = create_app({**settings, "RUN_MIGRATIONS": False})
        rules = get_game(args.game)
        seats = max(rules.seat_counts)
        client = app.test_client()
        latencies: list[float] = []
        rng = random.Random(1)
        with app.app_context():
            rt = app.extensions["pbem"]
            client.get("/")  # warm up
            started = time.perf_counter()
            for n in range(args.games):
                players = [Player(f"P{i}", f"p{i}@example.org") for i in range(seats)]
                game_id = create_game(rt, args.game, players, players[0], seed=n)
                table = rt.read_table(game_id)
                links = [player_url(rt, table, s).removeprefix(rt.settings["BASE_URL"]) for s in range(seats)]
                while True:
                    state = client.get("/api" + links[0]).get_json()
                    if state["result"] is not None:
                        break
                    seat = rng.choice(state["to_act"])
                    mine = client.get("/api" + links[seat]).get_json()
                    action = rng.choice(mine["legal_actions"])
                    t0 = time.perf_counter()
                    response = client.post("/api" + links[seat], json={"action": action, "seq": mine["seq"]})
                    latencies.append(time.perf_counter() - t0)
                    assert response.get_json()["status"] == "accepted", response.get_json()
            elapsed = time.perf_counter() - started
        print(f"game {args.game}, {args.games} games, {len(latencies)} moves")
        print("PostgreSQL + a Celery worker process (4 threads) on Redis")
        print(f"full games per second:   {args.games / elapsed:8.2f}")
        print(f"moves per second:        {len(latencies) / elapsed:8.1f}  (one at a time, reads included)")
        print(f"POST -> outbox row p50:  {percentile(latencies, 50) * 1000:8.1f} ms")
        print(f"POST -> outbox row p95:  {percentile(latencies, 95) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
