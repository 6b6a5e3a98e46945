"""Helpers for games against the clock: a stepping clock from a fixed Monday, moves through the
service functions, and the beat task's runs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Flask

from service.eventlog.models import EventOrigin
from service.eventlog.store import Table
from service.play.hosting import Player, create_game
from service.play.moves import MoveOutcome, submit_move
from service.play.time_control import TimeControl
from service.play.timeouts import ClockRun, run_due_clocks
from service.runtime import Runtime
from tests.helpers import SteppingClock

MONDAY = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
HOST = Player("Host", "host@example.org")


def stepping(app: Flask, start: datetime = MONDAY) -> tuple[Runtime, SteppingClock]:
    """The app's runtime with a clock that moves only when the test says so."""
    rt = app.extensions["pbem"]
    rt.clock = SteppingClock(start)
    return rt, rt.clock


def people(*names: str) -> list[Player]:
    return [Player(name, f"{name.lower()}@example.org") for name in names]


def new_game(
    rt: Runtime, game: str, players: list[Player], seed: int = 1, options: dict | None = None, **turns: Any
) -> str:
    """A game created through the service with the given time control (1 day per move by default)."""
    control = TimeControl(**{"move_days": 1, **turns})
    return create_game(rt, game, players, HOST, options=options, seed=seed, control=control)


def play(rt: Runtime, game_id: str, seat: int, action: dict[str, Any] | None = None) -> MoveOutcome:
    """The seat's move (its first legal one unless given), submitted on the current version."""
    table = rt.read_table(game_id)
    chosen = action or table.rules.legal_actions(table.state, seat)[0]
    return submit_move(rt, game_id, seat, table.version, chosen)


def beat(rt: Runtime, clock: SteppingClock, **step: float) -> ClockRun:
    """Move the clock on, then run the beat task's work once."""
    clock.advance(**step)
    return run_due_clocks(rt)


def to_act(rt: Runtime, game_id: str) -> set[int]:
    table = rt.read_table(game_id)
    return set(table.rules.to_act(table.state)) if table.active else set()


def assert_bot_moves_legal(table: Table, seat: int) -> int:
    """Every move the seat-keeper made was legal where it was made; how many it made."""
    made, state = 0, None
    for index, event in enumerate(table.events):
        if table.starts_move(index) and table.origins[index] == EventOrigin.BOT:
            assert table.actors[index] == seat
            assert table.actions[index] in table.rules.legal_actions(state, seat)
            made += 1
        state = table.rules.apply(state, event)
    return made
