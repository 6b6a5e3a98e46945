"""The seat-keeper against random players: win rate over seeded matches, and the keeper's speed.

A random player picks uniformly among the legal actions with a seeded random.Random. The keeper's
seats alternate from match to match (Duālis partnerships: seats 0+2, then 1+3; one-seat games: the
keeper's seat rotates). Moves per second count only the keeper's own decisions (choose_action).

.venv/bin/python bench/bots.py [--dualis 100] [--iso 40] [--red-black 200] [--double-side 40] [--dupli 100]
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import get_game
from rules.base import Action, Game


def load_keeper() -> Callable[[Game, dict[str, Any], list[Action], int], Action]:
    """bots.choose_action. Run as a script, this file's folder leads sys.path and its own name would
    hide the `bots` package, so that folder is dropped first."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.modules.pop("bots", None)
    return importlib.import_module("bots").choose_action


choose_action = load_keeper()


@dataclass
class Tally:
    """Matches won, drawn (a shared win) and played by the keeper, and the time its moves took."""

    won: int = 0
    drawn: int = 0
    played: int = 0
    moves: int = 0
    seconds: float = 0.0

    def line(self, label: str) -> str:
        """The tally as one printed line."""
        lost = self.played - self.won - self.drawn
        rate = 100 * self.won / self.played if self.played else 0.0
        return f"{label}: bot won {self.won}/{self.played} ({rate:.0f}%), draws {self.drawn}, lost {lost}"


def play_match(
    name: str, seed: int, seats: int, options: dict[str, Any], keeper: set[int], tally: Tally
) -> dict[str, Any]:
    """One match with the keeper in `keeper` seats and random players elsewhere; the result."""
    game = get_game(name)
    rng = random.Random(f"bench:{name}:{seed}")
    state = game.fold(game.start(seed, seats, options))
    while (result := game.result(state)) is None:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if seat in keeper:
            view = game.view(state, seat)
            start = time.perf_counter()
            action = choose_action(game, view, legal, seat)
            tally.seconds += time.perf_counter() - start
            tally.moves += 1
        else:
            action = rng.choice(legal)
        for event in game.act(state, seat, action):
            state = game.apply(state, event)
    return result


def record(result: dict[str, Any], keeper: set[int], tally: Tally) -> None:
    """Count a result: won when only keeper seats won, drawn when they shared the win."""
    winners = set(result["winners"])
    tally.played += 1
    if winners and winners <= keeper:
        tally.won += 1
    elif winners & keeper:
        tally.drawn += 1


def run(label: str, matches: int, one_match: Callable[[int, Tally], None]) -> Tally:
    """Play the seeded matches and print the tally with the keeper's speed."""
    tally = Tally()
    start = time.perf_counter()
    for seed in range(matches):
        one_match(seed, tally)
    elapsed = time.perf_counter() - start
    speed = tally.moves / tally.seconds if tally.seconds else 0.0
    print(f"{tally.line(label)}  [{tally.moves} bot moves, {speed:,.0f} moves/s, {elapsed:.1f}s]", flush=True)
    return tally


def partnership(options: dict[str, Any]) -> Callable[[int, Tally], None]:
    """Duālis partnerships: the keeper holds seats 0+2 in even matches and 1+3 in odd ones."""

    def one(seed: int, tally: Tally) -> None:
        keeper = {0, 2} if seed % 2 == 0 else {1, 3}
        record(play_match("dualis", seed, 4, options, keeper, tally), keeper, tally)

    return one


def single_seat(name: str, seats: int, options: dict[str, Any]) -> Callable[[int, Tally], None]:
    """The keeper in one seat (rotating with the seed) against random players in the others."""

    def one(seed: int, tally: Tally) -> None:
        keeper = {seed % seats}
        record(play_match(name, seed, seats, options, keeper, tally), keeper, tally)

    return one


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dualis", type=int, default=100, help="Duālis partnership matches")
    parser.add_argument("--iso", type=int, default=40, help="Duālis Iso Play matches (4 seats)")
    parser.add_argument("--red-black", type=int, default=200, help="Red and Black Duel matches")
    parser.add_argument("--double-side", type=int, default=40, help="Double Side Play matches (4 seats)")
    parser.add_argument("--dupli", type=int, default=100, help="Dupli matches (4 seats)")
    args = parser.parse_args()
    print("seat-keeper against random players (seeded matches, keeper seats alternate)")
    if args.dualis:
        run("dualis", args.dualis, partnership({}))
    if args.iso:
        run("dualis iso (1 bot, 3 random; chance 25%)", args.iso, single_seat("dualis", 4, {"iso": True}))
    if args.red_black:
        run("red_black", args.red_black, single_seat("red_black", 2, {}))
    if args.double_side:
        label = "double_side (1 bot, 3 random; chance 25%)"
        run(label, args.double_side, single_seat("double_side", 4, {}))
    if args.dupli:
        run("dupli (1 bot, 3 random; chance 25%)", args.dupli, single_seat("dupli", 4, {}))


if __name__ == "__main__":
    main()
