"""A table's pace, from its log alone: how long each seat's moves waited for their player, and when
the match would end at the pace it has kept so far.

A move "waited" from the event that made its seat owe it to the move itself; only moves made by hand
count (an automatic or seat-keeper move waits for nobody). The end is estimated from the moves the
match still takes (a typical match of this variant, played out at random by the rules alone with
fixed seeds, less the moves made) at the table's own rate of moves per day so far. Every input is
public: times, who moved, and the number of moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from statistics import median
from typing import Any

from rules import get_game
from service.eventlog.models import EventOrigin
from service.eventlog.store import Table
from service.replay.steps import Replay

TYPICAL_SAMPLE = 12  # random matches played to know a variant's typical length
MIN_MOVES = 6  # moves made before a rate is worth telling


@dataclass(frozen=True)
class SeatPace:
    """One seat's moves by hand and the median time they waited (None before its first)."""

    seat: int
    name: str
    moves: int
    median_wait: timedelta | None


@dataclass(frozen=True)
class Pace:
    """A table's pace: each seat's waits and, while the match runs and enough moves were made to
    tell, its estimated end."""

    seats: tuple[SeatPace, ...]
    moves: int  # made so far, by anyone
    typical_moves: int  # in a match of this variant
    estimated_end: datetime | None


def table_pace(table: Table, replay: Replay, now: datetime) -> Pace:
    """The pace of a loaded game as of `now`."""
    waits = seat_waits(table, replay)
    seats = tuple(SeatPace(seat, table.names[seat], len(each), _median(each)) for seat, each in waits.items())
    moves = sum(1 for action in table.actions if action is not None)
    typical = typical_moves(table.record.game, len(table.seats), _frozen(table.record.options))
    return Pace(seats, moves, typical, estimated_end(table, moves, typical, now))


def seat_waits(table: Table, replay: Replay) -> dict[int, list[timedelta]]:
    """Each seat's waits, one per move it made by hand: from the event after which it owed the move
    (without a break) to the move."""
    rules = table.rules
    waits: dict[int, list[timedelta]] = {seat.seat: [] for seat in table.seats}
    owing_since: dict[int, datetime] = {}
    for number, (actor, origin, action, time) in enumerate(
        zip(table.actors, table.origins, table.actions, table.times, strict=True)
    ):
        if action is not None and actor is not None and origin == EventOrigin.PLAYER and actor in owing_since:
            waits[actor].append(time - owing_since[actor])
        restarted = actor if action is not None else None  # a seat that moves owes anew from its move
        owing_since = {
            seat: owing_since[seat] if seat in owing_since and seat != restarted else time
            for seat in rules.to_act(replay.states[number])
        }
    return waits


def estimated_end(table: Table, moves: int, typical: int, now: datetime) -> datetime | None:
    """When the match would end at its rate so far (None once over, or too early to tell)."""
    if not table.active or moves < MIN_MOVES:
        return None
    per_move = (now - table.times[0]) / moves
    left = max(typical - moves, 1)
    return now + per_move * left


@cache
def typical_moves(game: str, seats: int, options: tuple[tuple[str, Any], ...]) -> int:
    """The median number of moves of a match of this variant, played out at random (fixed seeds)."""
    rules = get_game(game)
    rng = random.Random(f"{game}/{seats}/{options}")
    lengths = []
    for seed in range(TYPICAL_SAMPLE):
        state = rules.fold(rules.start(seed, seats, dict(options)))
        moves = 0
        while rules.result(state) is None:
            seat = rng.choice(sorted(rules.to_act(state)))
            for event in rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))):
                state = rules.apply(state, event)
            moves += 1
        lengths.append(moves)
    return round(median(lengths))


def pace_json(pace: Pace) -> dict[str, Any]:
    """The pace for the JSON twins: waits in seconds, the estimated end in ISO (UTC)."""
    return {
        "seats": [
            {
                "seat": seat.seat,
                "moves_by_hand": seat.moves,
                "median_wait_seconds": None if seat.median_wait is None else seat.median_wait.total_seconds(),
            }
            for seat in pace.seats
        ],
        "moves": pace.moves,
        "typical_moves": pace.typical_moves,
        "estimated_end": None if pace.estimated_end is None else pace.estimated_end.isoformat(),
    }


def _median(waits: list[timedelta]) -> timedelta | None:
    return timedelta(seconds=median(wait.total_seconds() for wait in waits)) if waits else None


def _frozen(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Options as a cache key (the deck option may be a list: kept out, a fixed deck's length is the
    same as a shuffled one's)."""
    return tuple(sorted((key, value) for key, value in options.items() if not isinstance(value, list)))
