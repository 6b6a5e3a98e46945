"""Pace: calendar days per match when friends look at their mail a few times a day.

Whole matches of every game are played through the service (`submit_move`, `set_queue`, the
seat's auto-play setting; tasks in-process, SQLite in a temporary file: a match is a few hundred
short transactions and SQLite runs them fastest here) on an injected clock that jumps from one
look to the next, never sleeping. Games have no time limit, so no deadline or timeout can fire.

Players: each seat lives in a time zone of its own (drawn from ZONES), sleeps 23:00-07:00 local
time and looks at the game at random: a Poisson process of L / 16 looks per awake hour (L looks a
day on average). At each look the seat makes every move it owes (a random legal move; a forced one
needs no choice) and, with queued plays, then chooses a play for each situation the rules offer
(`game.ahead.situations`: its coming play's, and in the trick games those of the trick after; a random
one of `ahead.choices`, keeping for the trick after other cards than those chosen for the coming
trick where it can), unless the plays it chose before still cover them. Three modes, on the same
deals, look times and move choices:

* hand: every move by hand, auto-play off;
* auto: auto-play on (forced moves are played for the player);
* queued: auto-play on and plays chosen ahead.

Days count from the game's creation to the move that ends it. Per game and L it prints the median
and p90 of days per match in each mode, the ratio queued / hand of the medians, and what made the
moves in the queued mode (by hand at a look, a queued play, auto-play; and queued plays dropped).

    .venv/bin/python bench/pace.py [--matches 10] [--looks 2,3,6] [--games dualis,iso,...] [--quick]
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from rules.ahead import THEN
from service import create_app
from service.eventlog.models import AheadPlay, AheadStatus, EventOrigin
from service.eventlog.store import Table
from service.play.ahead import queue_of, set_queue
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move
from service.play.seat_settings import set_auto_play
from service.runtime import Clock, Runtime


@dataclass(frozen=True)
class Match:
    """A game as it is set up for a standard match: its rules' name, seats and options."""

    key: str
    title: str
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)


MATCHES = {
    match.key: match
    for match in (
        Match("dualis", "Duālis", "dualis", 4),
        Match("iso", "Duālis Iso Play", "dualis", 4, {"iso": True}),
        Match("double_side", "Double Side Play", "double_side", 4),
        Match("dupli", "Dupli", "dupli", 4),
        Match("red_black", "Red and Black Duel", "red_black", 2),
    )
}


# Iso Play takes as long as the standard match again; it runs when asked for (--games iso).
DEFAULT_GAMES = "dualis,double_side,dupli,red_black"


@dataclass(frozen=True)
class Mode:
    """How the players move: auto-play of forced moves, plays chosen ahead."""

    name: str
    auto_play: bool
    queued: bool


MODES = (Mode("hand", False, False), Mode("auto", True, False), Mode("queued", True, True))

# UTC offsets (hours) friends might live at: the Americas, Europe, India, East Asia.
ZONES = (-8.0, -5.0, -3.0, 0.0, 1.0, 2.0, 5.5, 8.0, 9.0)
WAKE, SLEEP = 7.0, 23.0  # local hours: 16 awake hours a day
AWAKE_HOURS = SLEEP - WAKE
EPOCH = datetime(2025, 3, 3, tzinfo=UTC)  # a Monday (no time limit, so the weekday does not matter)
MAX_LOOKS = 200_000  # a match that has not ended after this many looks is a bug, not slowness
# The database lives in memory-backed /dev/shm where there is one: every transaction's fsync
# would otherwise dominate a match of several hundred short transactions.
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None


class SimClock(Clock):
    """The service's wall clock, set to each simulated look (hours after EPOCH). It never goes
    back: each match begins on a later day than the one before ended."""

    def __init__(self) -> None:
        self.hours = 0.0

    def now(self) -> datetime:
        return EPOCH + timedelta(hours=self.hours)

    def next_day(self) -> float:
        """The start (hours) of the first whole day after every move so far."""
        return (self.hours // 24 + 1) * 24


def awake_after(start: float, offset: float, awake: float) -> float:
    """The time (hours) when `awake` awake hours have passed since `start` for someone at UTC
    `offset` (the night's hours do not count)."""
    t = start
    while True:
        local = (t + offset) % 24
        if local < WAKE:
            t += WAKE - local
        elif local >= SLEEP:
            t += 24 - local + WAKE
        left = SLEEP - (t + offset) % 24
        if awake <= left:
            return t + awake
        awake -= left
        t += left


@dataclass
class Seat:
    """One player: their zone, their looks (a Poisson process in awake time) and their choices."""

    offset: float
    looks_per_day: float
    looks: random.Random
    moves: random.Random
    queue: random.Random
    seen: int = 0  # the game's version at the end of the player's last look

    def next_look(self, after: float) -> float:
        """The time of the player's first look after `after`."""
        gap = self.looks.expovariate(self.looks_per_day / AWAKE_HOURS)
        return awake_after(after, self.offset, gap)


def seats_of(match: Match, number: int, looks_per_day: float) -> list[Seat]:
    """The players of match `number`: the same zones, look times and choices in every mode."""
    zones = random.Random(f"zones:{match.key}:{number}")
    return [
        Seat(
            zones.choice(ZONES),
            looks_per_day,
            random.Random(f"looks:{match.key}:{number}:{looks_per_day}:{seat}"),
            random.Random(f"moves:{match.key}:{number}:{seat}"),
            random.Random(f"queue:{match.key}:{number}:{seat}"),
        )
        for seat in range(match.seats)
    ]


@dataclass
class Outcome:
    """One match played: its calendar days and how its moves were made."""

    days: float
    by_hand: int = 0
    queued: int = 0
    auto: int = 0
    dropped: int = 0
    looks: int = 0


def owes(table: Table, seat: int) -> bool:
    """Whether the game waits on the seat's move now."""
    return table.result is None and table.active and seat in table.rules.to_act(table.state)


def move_by_hand(rt: Runtime, table: Table, seat: int, player: Seat) -> Table:
    """The seat's owed move, chosen at random (a forced one takes no choice, so hand and auto-play
    draw the same choices); the table after it and whatever followed automatically."""
    legal = table.rules.legal_actions(table.state, seat)
    action = legal[0] if len(legal) == 1 else player.moves.choice(legal)
    outcome = submit_move(rt, table.game_id, seat, table.version, action, table)
    assert outcome.status == MoveStatus.ACCEPTED, outcome
    return rt.read_table(table.game_id)


def queue_is_current(rt: Runtime, table: Table, seat: int, situations: Sequence[str]) -> bool:
    """Whether the plays the seat chose before still answer every situation offered now (then the
    player leaves them as they are)."""
    chosen = {play.situation: play.action for play in queue_of(rt, table, seat)}
    if not set(situations) <= set(chosen):
        return False
    fitting = {situation: table.rules.ahead.choices(table.state, seat, situation) for situation in situations}
    return all(any(chosen[s] == action for action, _ in fitting[s]) for s in situations)


def choose_ahead(rt: Runtime, table: Table, seat: int, player: Seat) -> None:
    """Queue a random play for each situation offered (unless already chosen): the seat's coming
    play, and the one after where the rules offer it, for which the player keeps other cards than
    those chosen for the coming play where it can."""
    rules = table.rules
    situations = rules.ahead.situations(table.state, seat)
    if not situations or queue_is_current(rt, table, seat, situations):
        return
    plays: list[dict[str, Any]] = []
    for situation in situations:
        choices = [action for action, _ in rules.ahead.choices(table.state, seat, situation)]
        if situation.startswith(THEN):
            coming = {play["action"].get("card") for play in plays if not play["situation"].startswith(THEN)}
            choices = [action for action in choices if action.get("card") not in coming] or choices
        if choices:
            plays.append({"situation": situation, "action": player.queue.choice(choices)})
    if plays:
        set_queue(rt, table.game_id, seat, plays)


def look(rt: Runtime, game_id: str, seat: int, player: Seat, mode: Mode) -> Table | None:
    """One look at the game: every owed move, then (queued mode) the plays chosen ahead. None when
    the game has not changed since the seat's last look (it found nothing to do then, so there is
    nothing to do now: only the seat itself changes its queue)."""
    if rt.read_version(game_id) == player.seen:
        return None
    table = rt.read_table(game_id)
    while owes(table, seat):
        table = move_by_hand(rt, table, seat, player)
    if mode.queued and table.result is None:
        choose_ahead(rt, table, seat, player)
    player.seen = table.version
    return table


def new_match(rt: Runtime, match: Match, number: int, mode: Mode) -> str:
    """The match's game (no time limit), its seats' auto-play set for the mode. Each match has
    addresses of its own, so that no address reaches the daily mail cap of one person."""
    tag = f"{match.key}-{number}-{mode.name}-{rt.clock.now():%Y%m%d}"
    players = [Player(f"P{seat}", f"p{seat}-{tag}@example.org") for seat in range(match.seats)]
    game_id = create_game(rt, match.game, players, players[0], match.options, seed=1000 + number)
    if not mode.auto_play:
        for seat in range(match.seats):
            set_auto_play(rt, game_id, seat, False)
    return game_id


def play_match(rt: Runtime, clock: SimClock, match: Match, number: int, looks: float, mode: Mode) -> Outcome:
    """Match `number` played to its end at `looks` looks a day in `mode`. It is created at the
    same hour of a day in every mode, so its players' looks fall at the same hours."""
    start = clock.next_day() + random.Random(f"start:{match.key}:{number}").uniform(0, 24)
    clock.hours = start
    game_id = new_match(rt, match, number, mode)
    seats = seats_of(match, number, looks)
    upcoming = [(player.next_look(start), seat) for seat, player in enumerate(seats)]
    heapq.heapify(upcoming)
    for count in range(1, MAX_LOOKS):
        clock.hours, seat = heapq.heappop(upcoming)
        table = look(rt, game_id, seat, seats[seat], mode)
        if table is not None and table.result is not None:
            return tallied(rt, table, (clock.hours - start) / 24, count)
        heapq.heappush(upcoming, (seats[seat].next_look(clock.hours), seat))
    raise RuntimeError(f"{match.key} {number} did not end after {MAX_LOOKS} looks")


def tallied(rt: Runtime, table: Table, days: float, looks: int) -> Outcome:
    """The match's days and how its moves were made (player moves that were queued plays apart)."""
    outcome = Outcome(days, looks=looks)
    with Session(rt.engine) as session:
        rows = session.exec(select(AheadPlay).where(AheadPlay.game_id == table.game_id)).all()
    outcome.queued = sum(row.status == AheadStatus.PLAYED for row in rows)
    outcome.dropped = sum(row.status == AheadStatus.DROPPED and row.reason is not None for row in rows)
    for index, origin in enumerate(table.origins):
        if table.starts_move(index):
            if origin == EventOrigin.PLAYER:
                outcome.by_hand += 1
            elif origin == EventOrigin.AUTO:
                outcome.auto += 1
    outcome.by_hand -= outcome.queued
    return outcome


@dataclass
class Cell:
    """The matches of one game, L and mode."""

    outcomes: list[Outcome] = field(default_factory=list)

    def days(self) -> list[float]:
        return [outcome.days for outcome in self.outcomes]

    def median(self) -> float:
        return statistics.median(self.days())

    def mean_of(self, name: str) -> float:
        return statistics.mean(getattr(outcome, name) for outcome in self.outcomes)

    def p90(self) -> float:
        """The 90th percentile of days (interpolated between matches, never beyond the last)."""
        days = self.days()
        return statistics.quantiles(days, n=10, method="inclusive")[8] if len(days) > 1 else days[0]

    def spread(self) -> str:
        """Median / p90 days."""
        return f"{self.median():5.1f} / {self.p90():5.1f}"


def row(match: Match, looks: float, cells: dict[str, Cell]) -> str:
    """One line of the table."""
    hand, queued = cells["hand"], cells["queued"]
    made = (
        f"{queued.mean_of('by_hand'):5.1f} {queued.mean_of('queued'):5.1f} "
        f"{queued.mean_of('auto'):4.1f} {queued.mean_of('dropped'):4.1f}"
    )
    spreads = "   ".join(cells[mode.name].spread() for mode in MODES)
    return f"{match.title:<19} {looks:>3g}   {spreads}   {queued.median() / hand.median():5.2f}   {made}"


HEADER = (
    f"{'game':<19} {'L':>3}   {'hand':^13}   {'auto-play':^13}   {'queued':^13}   {'q/h':>5}   "
    "queued mode, moves per match\n"
    f"{'':<19} {'':>3}   {'med / p90':^13}   {'med / p90':^13}   {'med / p90':^13}   {'':>5}   "
    " hand queue auto drop"
)


def run(matches: Sequence[Match], looks: Sequence[float], count: int) -> None:
    """Every game x L x mode, `count` matches each, printed a line at a time. Each game and L has a
    database of its own, so that later lines do not pay for the rows of earlier ones."""
    print(HEADER)
    for match in matches:
        for rate in looks:
            started = time.perf_counter()
            cells = {mode.name: Cell() for mode in MODES}
            with service() as (rt, clock):
                for number, mode in ((n, m) for n in range(count) for m in MODES):
                    cells[mode.name].outcomes.append(play_match(rt, clock, match, number, rate, mode))
            seconds = time.perf_counter() - started
            print(f"{row(match, rate, cells)}   ({seconds:.0f} s)", flush=True)


def looks_list(text: str) -> list[float]:
    return [float(part) for part in text.split(",")]


def games_list(text: str) -> list[Match]:
    unknown = [key for key in text.split(",") if key not in MATCHES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown game {unknown}; games are {', '.join(MATCHES)}")
    return [MATCHES[key] for key in text.split(",")]


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10, help="matches per game, L and mode")
    parser.add_argument("--looks", type=looks_list, default=[2.0, 3.0, 6.0], help="looks a day, e.g. 2,3,6")
    parser.add_argument("--games", type=games_list, default=games_list(DEFAULT_GAMES), help=",".join(MATCHES))
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 matches, L = 3")
    args = parser.parse_args(argv)
    if args.quick:
        args.matches, args.looks = 2, [3.0]
    return args


@contextmanager
def service() -> Iterator[tuple[Runtime, SimClock]]:
    """The embedded service on a fresh SQLite file (removed afterwards: /dev/shm is memory), its
    clock the simulation's."""
    with tempfile.TemporaryDirectory(dir=SCRATCH) as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{folder}/pace.sqlite3", "SECRET_KEY": "bench"})
        with app.app_context():
            rt = app.extensions["pbem"]
            clock = SimClock()
            rt.clock = clock
            yield rt, clock
            rt.engine.dispose()


def main() -> None:
    args = arguments()
    print(
        f"Calendar days per match, {args.matches} matches per cell (same deals, looks and choices "
        "in each mode); queued = auto-play + plays chosen ahead"
    )
    run(args.games, args.looks, args.matches)


if __name__ == "__main__":
    main()
