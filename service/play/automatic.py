"""What follows a step, pure: the moves nobody makes by hand that the game now waits on (the
seat-keeper's or a search bot's, for bot seats and for players who ran out of time until they
return; forced moves played for players who keep auto-play on) and the plays chosen ahead that
answer now (service/play/ahead.py), computed from the table (its log and seat rows), the queue of
plays chosen ahead and whether search bots may move here. No session, no clock: the master
(service/play/master.py) appends what `follow` returns, step by step, and hands each step to the
mail policy.

A play the seat's player chose ahead comes before the seat-keeper's, as the player's own move (a
seat the seat-keeper stood in for is taken back first, as by a move by hand), but after the other
seats' automatic moves, where a quick move by hand would come. A forced move under auto-play comes
before it: the chosen play could only be that move, and made as the player's own it would tell the
other seats that a play had been chosen ahead. Each chosen play begins a step of its own: the mails
of the moves before it are written as the game stood then.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bots import decide, search_seed
from rules.game import Event
from rules.shapes import Action
from rules.table import KEEPER, keep_decision
from service.eventlog.models import EventOrigin, SeatKeeper
from service.eventlog.store import Table
from service.play.ahead import Queued, Settled, answering_seats, chosen_play, replaced
from service.play.who_plays import automatic_origin, bot_level
from service.runtime import searching_now

# Moves played in one transaction; the rest (only when every seat plays automatically) is left to
# the next run of the beat task, which finds the open clocks marked automatic.
MAX_AUTOMATIC_MOVES = 200

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Move:
    """One move that follows, as it is appended: the seat that made it (None: a decision about the
    table), its action, its events and how it was made."""

    seat: int | None
    action: Action
    events: list[Event]
    origin: str


@dataclass(frozen=True)
class Step:
    """Moves that follow, told by one round of mails: `chosen_next` is the seat whose play chosen
    ahead begins the next step (this step's mails skip it), and `settled` what became of plays
    chosen ahead meanwhile."""

    moves: tuple[Move, ...]
    settled: tuple[Settled, ...]
    chosen_next: int | None = None


@dataclass
class _Run:
    """The table as the moves so far leave it, the queue still waiting and the seats taken back."""

    table: Table
    queue: list[Queued]
    now: datetime
    searching: bool
    back: set[int] = field(default_factory=set)
    moves: list[Move] = field(default_factory=list)
    settled: list[Settled] = field(default_factory=list)

    def add(self, move: Move) -> None:
        self.table = self.table.extended(move.events, move.seat, move.action, move.origin, self.now)
        self.moves.append(move)

    def settle(self, outcomes: Sequence[Settled]) -> None:
        done = {outcome.id for outcome in outcomes}
        self.queue = [row for row in self.queue if row.id not in done]
        self.settled += outcomes

    def step(self, chosen_next: int | None = None) -> Step:
        step = Step(tuple(self.moves), tuple(self.settled), chosen_next)
        self.moves, self.settled = [], []
        return step


def follow(table: Table, queue: Sequence[Queued], now: datetime, searching: bool) -> list[Step]:
    """Every move nobody makes by hand now, in steps: the seat-keeper's, auto-play's and the plays
    chosen ahead (these before the seat-keeper of their own seat), at most MAX_AUTOMATIC_MOVES
    automatic moves in a row. `searching`: whether search bots may move here (else the game waits
    for the worker at a search bot's seat)."""
    run = _Run(table, list(queue), now, searching)
    steps = []
    for _ in range(MAX_AUTOMATIC_MOVES):
        _kept_and_forced(run)
        chosen, dropped = chosen_play(run.table, run.queue)
        run.settle(dropped)
        if chosen is not None:
            steps.append(run.step(chosen_next=chosen[0]))
            _make_chosen(run, *chosen)
        elif next_automatic(run.table, (), run.searching, run.back) is None:
            break
    return [*steps, run.step()]


def _kept_and_forced(run: _Run) -> None:
    """The seat-keeper's and auto-play's moves while the game waits on one, leaving to the plays
    chosen ahead the seats kept by their seat-keeper whose player chose one that answers now."""
    for _ in range(MAX_AUTOMATIC_MOVES):
        turn = next_automatic(run.table, _chosen_before_keeper(run), run.searching, run.back)
        if turn is None:
            return
        seat, origin = turn
        run.add(automatic_move(run.table, seat, origin))
        if origin == EventOrigin.AUTO:
            run.settle(replaced(run.table, run.queue, seat))


def _make_chosen(run: _Run, seat: int, action: Action, row: int) -> None:
    """A play chosen ahead made as the player's own move, taking the seat back from a bot first."""
    events = run.table.rules.act(run.table.state, seat, action)
    if seat not in run.back and run.table.seats[seat].keeper == SeatKeeper.STAND_IN:
        back = keep_decision(seat, False)
        decided = run.table.rules.table.decide(run.table.state, back, len(run.table.seats))
        run.add(Move(None, back, decided, EventOrigin.PLAYER))
        run.back.add(seat)
    run.settle([Settled(row, seq=run.table.version + 1)])
    run.add(Move(seat, action, events, EventOrigin.PLAYER))


def _origin(run: _Run, seat: int) -> str | None:
    return automatic_origin(run.table, seat, SeatKeeper.PLAYER if seat in run.back else None)


def _chosen_before_keeper(run: _Run) -> set[int]:
    """The seats kept by their seat-keeper whose player chose ahead a play that answers now: that
    play is made, not the seat-keeper's."""
    answering = answering_seats(run.table, run.queue)
    return {seat for seat in answering if _origin(run, seat) == EventOrigin.BOT}


def next_automatic(
    table: Table, skip: Collection[int] = (), searching: bool | None = None, back: Collection[int] = ()
) -> tuple[int, str] | None:
    """The first seat (in seat order, but those in `skip`) the game waits on that moves
    automatically, and how. `searching`: whether search bots may move here (this context's unless
    given: else the game waits for the worker at a search bot's seat); `back`: seats their players
    took back since the rows were read."""
    if searching is None:
        searching = searching_now()
    if table.result is not None:
        return None
    for seat in sorted(table.rules.to_act(table.state)):
        if seat in skip:
            continue
        origin = automatic_origin(table, seat, SeatKeeper.PLAYER if seat in back else None)
        if origin == EventOrigin.BOT and not searching and bot_level(table, seat) != KEEPER:
            return None  # the worker plays it, and what follows it
        if origin is not None:
            return seat, origin
    return None


def automatic_move(table: Table, seat: int, origin: str) -> Move:
    """The seat's automatic move: the bot's choice, or the only legal move."""
    if origin == EventOrigin.BOT:
        action = keeper_action(table, seat)
    else:
        (action,) = table.rules.legal_actions(table.state, seat)
    return Move(seat, action, table.rules.act(table.state, seat, action), origin)


def keeper_action(table: Table, seat: int) -> dict[str, Any]:
    """The move of the bot playing a seat (the seat-keeper, or a search bot of the seat's level),
    chosen from what that seat may see and nothing more. A search's randomness comes from the game's
    seed and the step, hashed: a re-run makes the same move. A search that fails or runs long gives
    the seat-keeper's move, and the log says why."""
    rules, level = table.rules, bot_level(table, seat)
    view, legal = rules.view(table.state, seat), rules.legal_actions(table.state, seat)
    decision = decide(rules, view, legal, seat, level, search_seed(table.state.seed, table.version, seat))
    if decision.fallback:
        reason = decision.fallback
        log.warning(
            "game %s seat %s: the %s bot fell back to the seat-keeper: %s", table.game_id, seat, level, reason
        )
    return decision.action
