"""Bot tournament: a search bot level against the seat-keeper over duplicate deals, for each game.

Each deal (a seed) is played twice with sides swapped: Duālis a bot partnership (0+2, then 1+3)
against a keeper partnership; Red and Black Duel the bot in seat 0, then seat 1; Double Side Play and
Dupli one bot seat among keepers, in seat s then seat s + n/2 (s rotating with the deal). A match
counts 1 for a bot win, 1/k for a win shared by k seats of which the bot holds one. Printed: the bot's
score with a 95% Wilson interval against the bar (Duālis and Red and Black 50% of two sides; the
n-player games the 1/n share); beside it what the seat-keeper itself scores in the same seats of the
same deals (a four-seat deal favours some seats, so in Double Side Play and Dupli that is not quite
1/n) and the level's gain over it, match by match, with its 95% interval; then the CPU time of the
bot's decisions (median, p95) and fallbacks.

Runs in parallel-safe chunks: `--chunk K/M` plays the deals whose index is K modulo M and writes one
JSON line per match to `--out`; `--first-deal` extends an earlier run with the deals after it;
`--report FILE ...` adds up such files and prints the table.

Two measurements of what bounds a search: `--larger K` also searches each bot decision with K times
the level's budget (the same seed: the level's worlds and more) and prints how often the two choose
alike and how much better the larger search rates its own choice; `--sees-all` lets the bot search
the real state instead of dealt worlds (the search's ceiling; a bot in play never holds it).

    nice -n 10 .venv/bin/python bench/bots.py --games dualis,red_black --deals 200 --level strong \\
        --chunk 0/2 --out /tmp/t0.jsonl &
    nice -n 10 .venv/bin/python bench/bots.py ... --chunk 1/2 --out /tmp/t1.jsonl
    .venv/bin/python bench/bots.py --report /tmp/t0.jsonl /tmp/t1.jsonl
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from rules import get_game
from rules.game import Game
from rules.shapes import Action
from rules.table import KEEPER


def load_bots() -> Any:
    """The `bots` package. Run as a script, this file's folder leads sys.path and its own name would
    hide the package, so that folder is dropped first."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.modules.pop("bots", None)
    importlib.import_module("bots.search")
    return importlib.import_module("bots")


bots_package = load_bots()
choose_action, decide, search_seed = bots_package.choose_action, bots_package.decide, bots_package.search_seed

SEATS = {"dualis": 4, "red_black": 2, "double_side": 4, "dupli": 4}


@dataclass
class Match:
    """One match of a deal: the game, the deal, the bot's seats, its score and its decisions' CPU."""

    game: str
    deal: int
    bot_seats: list[int]
    score: float
    level: str
    times: list[float] = field(default_factory=list)
    fallbacks: int = 0
    larger: int = 0
    agreements: list[bool] = field(default_factory=list)
    regrets: list[float] = field(default_factory=list)


def bot_sides(game: str, deal: int) -> list[set[int]]:
    """The bot's seats in the two plays of a deal (sides swapped)."""
    if game == "dualis":
        return [{0, 2}, {1, 3}]
    n = SEATS[game]
    first = deal % n
    return [{first}, {(first + n // 2) % n}]


def level_search(game: Any, seat: int, budget: Any, seed: int, view: Any) -> Any:
    """The bots' own search for one decision, with a budget other than a level's."""
    return bots_package.search.Search(game, seat, budget, seed, view)


def larger(
    game: Game[Any], view: Any, legal: list[Action], seat: int, level: str, seed: int, times: int
) -> tuple[Action, list[float]]:
    """What a search of `times` the level's budget (the same seed: the level's worlds and more) would
    choose, with each action's mean value over its worlds."""
    budget = bots_package.search.LEVELS[level]
    search = level_search(
        game,
        seat,
        replace(
            budget,
            moves=budget.moves * times,
            max_worlds=budget.max_worlds * times,
            cpu_seconds=budget.cpu_seconds * times,
        ),
        seed,
        view,
    )
    preferred = choose_action(game, view, legal, seat)
    values = search.values(legal, preferred)
    chosen = search.choose(legal, preferred, values)
    return chosen, [statistics.fmean(found) for found in values]


class SeesAll:
    """The game, but every world a search deals is the real state: what the search could do if it
    knew the hidden cards, its ceiling against the keeper. For this bench alone: a bot in play never
    holds the real state."""

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.game, self.state = game, state

    def determinize(self, view: Any, rng: Any) -> Any:
        return self.state

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def sees_all(game: Game[Any], state: Any, legal: list[Action], seat: int, level: str, seed: int) -> Action:
    """The level's search over the real state: one world where rollouts play as the keeper (every
    world would be the same), the level's worlds where they play at random."""
    budget = bots_package.search.LEVELS[level]
    if bots_package.search.OUTCOMES[game.name].keeper_cost:
        budget = replace(budget, min_worlds=1, max_worlds=1)
    view = game.view(state, seat)
    search = level_search(SeesAll(game, state), seat, budget, seed, view)
    chosen: Action = search.best(legal, choose_action(game, view, legal, seat))
    return chosen


def play(
    game: Game[Any], deal: int, bots: set[int], level: str, times: int = 0, omniscient: bool = False
) -> Match:
    """One match: the bot of `level` in `bots`, the seat-keeper elsewhere. With `times`, each bot
    decision is also searched with that many times the budget (the match goes on with the level's
    move): whether the two agree, and how much better the larger search values its own choice than
    the level's, by its own worlds (which overstates the gain: its choice is the one its noise
    favoured). `omniscient`: the bot searches the real state instead (`SeesAll`)."""
    state = game.fold(game.start(deal, SEATS[game.name], {}))
    name = f"{level}, sees all" if omniscient else level
    match = Match(game.name, deal, sorted(bots), 0.0, name, larger=times)
    step = 0
    while (result := game.result(state)) is None:
        seat = min(game.to_act(state))
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        step += 1
        if seat in bots:
            start = time.process_time()
            if omniscient and len(legal) > 1:
                action = sees_all(game, state, legal, seat, level, search_seed(deal, step, seat))
            else:
                decision = decide(game, view, legal, seat, level, search_seed(deal, step, seat))
                match.fallbacks += decision.fallback is not None
                action = decision.action
            match.times.append(time.process_time() - start)
            if times and len(legal) > 1:
                chosen, means = larger(game, view, legal, seat, level, search_seed(deal, step, seat), times)
                match.agreements.append(chosen == action)
                match.regrets.append(means[legal.index(chosen)] - means[legal.index(action)])
        else:
            action = choose_action(game, view, legal, seat)
        for event in game.act(state, seat, action):
            state = game.apply(state, event)
    winners = set(result["winners"])
    match.score = (
        len(winners & bots) / len(winners)
        if winners and game.name != "dualis"
        else float(bool(winners) and winners <= bots)
    )
    return match


def run(
    games: list[str],
    deals: range,
    level: str,
    chunk: tuple[int, int],
    out: Path,
    times: int,
    omniscient: bool,
) -> None:
    """Play this chunk's deals of every game, one JSON line per match."""
    part, parts = chunk
    with out.open("a") as sink:
        for deal in deals:
            if deal % parts != part:
                continue
            for name in games:
                for bots in bot_sides(name, deal):
                    match = play(get_game(name), deal, bots, level, times, omniscient)
                    sink.write(json.dumps(asdict(match)) + "\n")
                    sink.flush()


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion `score / n`."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@cache
def keeper_score(game: str, deal: int, seats: tuple[int, ...]) -> float:
    """What the seat-keeper itself scores in those seats of that deal: in Duālis and Red and Black
    the two plays of a deal share out exactly one win, but among four single seats a deal favours
    some, so a level's gain is read against the keeper in the same seats, match by match."""
    return play(get_game(game), deal, set(seats), KEEPER).score


def gain(matches: list[dict[str, Any]]) -> tuple[float, float]:
    """The mean of a level's score less the keeper's in the same matches, and its 95% half-width."""
    differences = [m["score"] - keeper_score(m["game"], m["deal"], tuple(m["bot_seats"])) for m in matches]
    spread = statistics.stdev(differences) if len(differences) > 1 else 0.0
    return statistics.fmean(differences), 1.96 * spread / math.sqrt(len(differences))


def report(files: Iterable[Path]) -> None:
    """Add up the matches of the files and print the table."""
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for path in files:
        for line in path.read_text().splitlines():
            match = json.loads(line)
            rows.setdefault((match["game"], match["level"]), []).append(match)
    width = max([7, *(len(level) for _, level in rows)])
    print(
        f"{'game':12} {'level':{width}} {'deals':>5} {'matches':>7} {'score':>6} {'95% CI':>15} {'bar':>5} "
        f"{'clears':>6} {'keeper':>6} {'gain, 95% CI':>14} {'median s':>8} {'p95 s':>6} {'fallbacks':>9}"
    )
    for (game, level), matches in sorted(rows.items()):
        n, score = len(matches), sum(m["score"] for m in matches)
        low, high = wilson(score, n)
        mean_gain, half = gain(matches)
        kept = score / n - mean_gain  # the keeper's own mean in the same matches
        bar = 0.55 if SEATS[game] == 2 or game == "dualis" else 1.3 / SEATS[game]
        times = sorted(t for m in matches for t in m["times"])
        p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
        median = statistics.median(times) if times else 0.0
        deals = len({m["deal"] for m in matches})
        fallbacks = sum(m["fallbacks"] for m in matches)
        print(
            f"{game:12} {level:{width}} {deals:5d} {n:7d} {score / n:6.1%} [{low:5.1%}, {high:5.1%}] "
            f"{bar:5.0%} {'yes' if low > bar else 'no':>6} {kept:6.1%} {mean_gain:+6.1%} ±{half:5.1%} "
            f"{median:8.3f} {p95:6.3f} {fallbacks:9d}"
        )
    report_larger(rows)


def report_larger(rows: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    """Where decisions were also searched with a larger budget: how often the two chose alike, and
    the larger search's gain over the level's choice by its own worlds (mean, and how often over 0.05,
    in the game's outcome values: a round or a game won counts about 1)."""
    checked = {key: matches for key, matches in rows.items() if any(m.get("agreements") for m in matches)}
    if not checked:
        return
    header = f"{'game':12} {'level':7} {'larger':>6} {'decisions':>9} {'agree':>6} {'mean gain':>9}"
    print(f"\n{header} {'gain>0.05':>9}")
    for (game, level), matches in sorted(checked.items()):
        agreements = [a for m in matches for a in m.get("agreements", [])]
        regrets = [r for m in matches for r in m.get("regrets", [])]
        times = {m.get("larger", 0) for m in matches}
        print(
            f"{game:12} {level:7} {'/'.join(f'x{t}' for t in sorted(times)):>6} {len(agreements):9d} "
            f"{statistics.fmean(agreements):6.1%} {statistics.fmean(regrets):9.4f} "
            f"{statistics.fmean(r > 0.05 for r in regrets):9.1%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="dualis,red_black,double_side,dupli", help="comma-separated games")
    parser.add_argument("--deals", type=int, default=200, help="deals per game (each played twice)")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's number (to extend a run)")
    parser.add_argument("--level", default="strong", help="the bot level against the seat-keeper")
    parser.add_argument("--chunk", default="0/1", help="K/M: play the deals whose index is K modulo M")
    parser.add_argument("--out", type=Path, help="JSON lines of the matches (default: print the table only)")
    parser.add_argument(
        "--larger", type=int, default=0, help="also search each bot decision with this many times the budget"
    )
    parser.add_argument(
        "--sees-all", action="store_true", help="the bot searches the real state (the search's ceiling)"
    )
    parser.add_argument("--report", type=Path, nargs="+", help="print the table of these JSON-lines files")
    args = parser.parse_args()
    if args.larger < 0:
        parser.error("--larger is a whole number of times the budget, 1 or more (0: no second search)")
    if args.report:
        report(args.report)
        return
    part, parts = (int(x) for x in args.chunk.split("/"))
    out = args.out or Path(f"/tmp/bench-bots-{args.level}-{part}-{parts}.jsonl")
    deals = range(args.first_deal, args.first_deal + args.deals)
    run(args.games.split(","), deals, args.level, (part, parts), out, args.larger, args.sees_all)
    report([out])


if __name__ == "__main__":
    main()
