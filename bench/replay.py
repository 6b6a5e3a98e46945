"""Replay pages of a 3-round Duālis match: the time to render any step, face up and as a seat sees it.

A partnership match that goes to a third round is found by random play, then played through the
service (`submit_move`, SQLite, tasks in-process) twice: to the end (its replay is face up) and up
to its last move (still running: a seat's replay, with collected tricks face down). Every step of
each is then fetched through the Flask test client. The log is folded once per version and the
state after each event kept (cached per process), so a step costs one view and one page, never a
fold of the events before it; the first request pays for that fold.

    .venv/bin/python bench/replay.py [--seed-from 1] [--passes 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from typing import Any

from flask import Flask

from rules import get_game
from service import create_app
from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move
from service.play.seat_settings import set_auto_play
from service.replay.steps import replay_of

RULES = get_game("dualis")
OPTIONS: dict[str, Any] = {}


def three_round_match(seed_from: int) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    """A seed and the moves of a random match that needs a third round."""
    for seed in range(seed_from, seed_from + 500):
        rng = random.Random(seed)
        state = RULES.fold(RULES.start(seed, 4, OPTIONS))
        moves = []
        while RULES.result(state) is None:
            seat = next(iter(RULES.to_act(state)))
            action = rng.choice(RULES.legal_actions(state, seat))
            moves.append((seat, action))
            for event in RULES.act(state, seat, action):
                state = RULES.apply(state, event)
        if len(state.results) == 3:
            return seed, moves
    raise SystemExit("no 3-round match found")


def played(app: Flask, seed: int, moves: list[tuple[int, dict[str, Any]]]) -> str:
    """The match created and played through the service; returns the game id."""
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy", "Di")]
    game_id = create_game(rt, "dualis", players, players[0], OPTIONS, seed)
    for seat in range(len(players)):  # every move of the scripted match by hand, forced ones too
        set_auto_play(rt, game_id, seat, False)
    for seat, action in moves:
        outcome = submit_move(rt, game_id, seat, rt.read_table(game_id).version, action)
        assert outcome.status == MoveStatus.ACCEPTED, outcome
    return game_id


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1]


def timed_steps(app: Flask, path: str, steps: int, passes: int) -> list[float]:
    """Milliseconds per page, every step, `passes` times over (in step order, then reversed...)."""
    client = app.test_client()
    times = []
    for n in range(passes):
        order = range(1, steps + 1) if n % 2 == 0 else range(steps, 0, -1)
        for step in order:
            t0 = time.perf_counter()
            response = client.get(f"{path}/{step}")
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200, (path, step)
    return times


def summary(what: str, times: list[float]) -> str:
    p50, p95 = percentile(times, 50), percentile(times, 95)
    worst, first = max(times[1:]), times[0]
    return (
        f"  {what} per step  p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   max {worst:6.1f}   first {first:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed-from", type=int, default=1)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    seed, moves = three_round_match(args.seed_from)
    app = create_app({"DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3", "SECRET_KEY": "bench"})
    with app.app_context():
        rt = app.extensions["pbem"]
        finished = played(app, seed, moves)
        running = played(app, seed, moves[:-1])
        base = rt.settings["BASE_URL"]
        print(f"Duālis, 3 rounds, {len(moves)} moves (seed {seed}); SQLite; every step {args.passes} times")
        for label, game_id in (("face up (finished)", finished), ("seat 0 (running)", running)):
            table = rt.read_table(game_id)
            rt.replays = type(rt.replays)(64)  # cold: the fold and the kept states are built anew
            t0 = time.perf_counter()
            replay_of(rt.replays, table)
            fold_ms = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            replay_of(rt.replays, table)
            cached_ms = (time.perf_counter() - t0) * 1000
            path = player_url(rt, table, 0).removeprefix(base) + "/replay"
            pages = timed_steps(app, path, table.version, args.passes)
            data = timed_steps(app, "/api" + path, table.version, args.passes)
            t0 = time.perf_counter()
            RULES.fold(table.events)
            whole_ms = (time.perf_counter() - t0) * 1000
            print(f"{label}: {table.version} steps")
            print(
                f"  states kept (fold, actions read): {fold_ms:6.1f} ms per version, then {cached_ms:.3f} ms"
            )
            print(
                f"  (a fold of the whole log: {whole_ms:.1f} ms, what a page folding to its step would pay)"
            )
            print(summary("page", pages))
            print(summary("JSON", data))


if __name__ == "__main__":
    main()
