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
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bots import decide, search_seed
from rules.game import Event, Owed
from rules.shapes import Action
from rules.table import KEEPER, keep_decision
from service.eventlog.models import EventOrigin, SeatKeeper, SeatRecord
from service.eventlog.store import Table
from service.play.ahead import Queued, Settled, answering_seats, chosen_play, replaced
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
    """The table as the moves so far leave it, the queue still waiting and the seats taken back;
    what the game waits on at the table's version, asked of the rules once (`owed`)."""

    table: Table
    queue: list[Queued]
    now: datetime
    searching: bool
    back: set[int] = field(default_factory=set)
    moves: list[Move] = field(default_factory=list)
    settled: list[Settled] = field(default_factory=list)
    _owed: tuple[int, tuple[Owed, ...]] | None = None

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

    def keeper(self, seat: int) -> str:
        """Who plays the seat now (its player again if taken back during this run)."""
        return SeatKeeper.PLAYER if seat in self.back else self.table.seats[seat].keeper

    def owed(self) -> tuple[Owed, ...]:
        """What the game waits on now, with the views of the seats a bot plays: one question to the
        rules per state of the table."""
        if self._owed is None or self._owed[0] != self.table.version:
            bots = [
                record.seat for record in self.table.seats if self.keeper(record.seat) != SeatKeeper.PLAYER
            ]
            self._owed = (self.table.version, self.table.rules.waiting_on(self.table.state, bots))
        return self._owed[1]


def follow(table: Table, queue: Sequence[Queued], now: datetime, searching: bool) -> list[Step]:
    """Every move nobody makes by hand now, in steps: the seat-keeper's, auto-play's and the plays
    chosen ahead (these before the seat-keeper of their own seat), at most MAX_AUTOMATIC_MOVES
    automatic moves in a row. `searching`: whether search bots may move here (else the game waits
    for the worker at a search bot's seat)."""
    run = _Run(table, list(queue), now, searching)
    steps = []
    if not table.active:
        return [run.step()]
    for _ in range(MAX_AUTOMATIC_MOVES):
        _kept_and_forced(run)
        chosen, dropped = chosen_play(run.table, run.queue, run.owed()) if run.queue else (None, [])
        run.settle(dropped)
        if chosen is not None:
            steps.append(run.step(chosen_next=chosen[0]))
            _make_chosen(run, *chosen)
        elif _next(run.table, run.owed(), run.searching, run.keeper) is None:
            break
    return [*steps, run.step()]


def _kept_and_forced(run: _Run) -> None:
    """The seat-keeper's and auto-play's moves while the game waits on one, leaving to the plays
    chosen ahead the seats kept by their seat-keeper whose player chose one that answers now."""
    for _ in range(MAX_AUTOMATIC_MOVES):
        owed = run.owed()
        turn = _next(run.table, owed, run.searching, run.keeper, _chosen_before_keeper(run, owed))
        if turn is None:
            return
        move, origin = turn
        run.add(_made(run.table, move, origin))
        if origin == EventOrigin.AUTO and run.queue:
            run.settle(replaced(run.table, run.queue, move.seat))


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


def _chosen_before_keeper(run: _Run, owed: Sequence[Owed]) -> set[int]:
    """The seats kept by their seat-keeper whose player chose ahead a play that answers now: that
    play is made, not the seat-keeper's."""
    if not run.queue:
        return set()
    answering = answering_seats(run.table, run.queue, owed)
    return {seat for seat in answering if run.keeper(seat) != SeatKeeper.PLAYER}


def _next(
    table: Table,
    owed: Sequence[Owed],
    searching: bool,
    keeper: Callable[[int], str],
    skip: Collection[int] = (),
) -> tuple[Owed, str] | None:
    """The first move the game waits on (in seat order, but the seats in `skip`) that is made
    automatically, and how; None also at a search bot's seat where search bots may not move (the
    worker plays it, and what follows it). `keeper`: who plays a seat now."""
    for move in owed:
        if move.seat in skip:
            continue
        origin = origin_of(table.seats[move.seat], move.legal, keeper(move.seat))
        if origin == EventOrigin.BOT and not searching and bot_level(table, move.seat) != KEEPER:
            return None
        if origin is not None:
            return move, origin
    return None


def origin_of(record: SeatRecord, legal: Sequence[Action], keeper: str | None = None) -> str | None:
    """How an owed move of the seat is made without its player: by a bot (a bot's seat, or the
    seat-keeper standing in for a player who ran out of time), or played for the player as their
    only legal move (auto-play); None: the player makes it. `keeper`: who plays the seat, when its
    row does not say it yet."""
    if (keeper or record.keeper) != SeatKeeper.PLAYER:
        return EventOrigin.BOT
    if record.auto_play and len(legal) == 1:
        return EventOrigin.AUTO
    return None


def automatic_origin(table: Table, seat: int) -> str | None:
    """How the seat's owed move is made without its player, from its row and the rules (None: the
    seat owes none, or its player makes it)."""
    if not table.active or seat not in table.rules.to_act(table.state):
        return None
    return origin_of(table.seats[seat], table.rules.legal_actions(table.state, seat))


def bot_level(table: Table, seat: int) -> str:
    """The level of the bot playing a seat the seat-keeper has (the seat-keeper itself if none)."""
    return table.seats[seat].bot_level or KEEPER


def next_automatic(table: Table, searching: bool | None = None) -> tuple[int, str] | None:
    """The first seat the game waits on that moves automatically, and how (None also at a search
    bot's seat where search bots may not move: this context's, unless `searching` is given)."""
    if not table.active:
        return None
    searching = searching_now() if searching is None else searching
    owed = table.rules.waiting_on(table.state)
    turn = _next(table, owed, searching, lambda seat: table.seats[seat].keeper)
    return None if turn is None else (turn[0].seat, turn[1])


def bot_move(table: Table, seat: int) -> Move:
    """The move of the bot playing the seat now (the host's decision for a player out of time)."""
    (move,) = (owed for owed in table.rules.waiting_on(table.state, [seat]) if owed.seat == seat)
    return _made(table, move, EventOrigin.BOT)


def _made(table: Table, move: Owed, origin: str) -> Move:
    """An owed move made automatically: the bot's choice, or the only legal move."""
    if origin == EventOrigin.BOT:
        assert move.view is not None, "the rules gave the view of a seat a bot plays"
        action = keeper_action(table, move.seat, move.view, move.legal)
    else:
        (action,) = move.legal
    return Move(move.seat, action, table.rules.act(table.state, move.seat, action), origin)


def keeper_action(table: Table, seat: int, view: dict[str, Any], legal: list[Action]) -> dict[str, Any]:
    """The move of the bot playing a seat (the seat-keeper, or a search bot of the seat's level),
    chosen from what that seat may see (`view`) and nothing more. A search's randomness comes from
    the game's seed and the step, hashed: a re-run makes the same move. A search that fails or runs
    long gives the seat-keeper's move, and the log says why."""
    level = bot_level(table, seat)
    seed = search_seed(table.state.seed, table.version, seat)
    decision = decide(table.rules, view, legal, seat, level, seed)
    if decision.fallback:
        reason = decision.fallback
        log.warning(
            "game %s seat %s: the %s bot fell back to the seat-keeper: %s", table.game_id, seat, level, reason
        )
    return decision.action
