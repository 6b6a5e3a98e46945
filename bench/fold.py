"""Events folded per second, per game: random legal games are recorded, then their logs folded.

.venv/bin/python bench/fold.py [--games 40]
"""

from __future__ import annotations

import argparse
import random
import time

from rules import GAMES, get_game


def random_log(name: str, seed: int, rng: random.Random) -> list[dict]:
    """The event log of one random legal game (the first seat count and default options)."""
    game = get_game(name)
    seats = max(game.seat_counts)
    events = game.start(seed, seats, {})
    state = game.fold(events)
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        new = game.act(state, seat, rng.choice(game.legal_actions(state, seat)))
        for event in new:
            state = game.apply(state, event)
        events += new
    return events


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    print(f"{'game':<12} {'logs':>5} {'events/log':>11} {'events folded/s':>16}")
    for name in GAMES:
        rng = random.Random(name)
        logs = [random_log(name, seed, rng) for seed in range(args.games)]
        game = get_game(name)
        total = sum(len(log) for log in logs)
        start = time.perf_counter()
        rounds = 0
        while time.perf_counter() - start < 2.0:
            for log in logs:
                game.fold(log)
            rounds += 1
        elapsed = time.perf_counter() - start
        print(f"{name:<12} {len(logs):>5} {total / len(logs):>11.0f} {total * rounds / elapsed:>16,.0f}")


if __name__ == "__main__":
    main()
