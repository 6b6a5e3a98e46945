"""Moves nobody makes by hand: the seat-keeper's (for bot seats, and for players who ran out of time
until they return) and forced moves played for players who keep auto-play on.

A play the seat's player chose ahead (service/play/ahead.py) comes before the seat-keeper's, as the
player's own move, but after the other seats' automatic moves, where a quick move by hand would come.
A forced move under auto-play comes before it: the chosen play could only be that move, and made as
the player's own it would tell the other seats that a play had been chosen ahead.
Every other such move goes through `play_for`, which appends it with its origin and action like a move by
hand; `play_automatic` repeats it while the game waits on a seat that moves automatically.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlmodel import Session

from bots import decide, search_seed
from rules.base import KEEPER
from service.eventlog.models import EventOrigin
from service.eventlog.store import Table, append_move
from service.play.ahead import answering_seats, drop_replaced, play_chosen
from service.play.who_plays import automatic_origin, bot_level
from service.runtime import searching_now

# Moves played in one transaction; the rest (only when every seat plays automatically) is left to
# the next run of the beat task, which finds the open clocks marked automatic.
MAX_AUTOMATIC_MOVES = 200

log = logging.getLogger(__name__)


def waits_for_worker(table: Table, seat: int) -> bool:
    """Whether the seat's automatic move is a search bot's that this context may not make."""
    return not searching_now() and bot_level(table, seat) != KEEPER


def next_automatic(table: Table, skip: Collection[int] = ()) -> tuple[int, str] | None:
    """The first seat (in seat order, but those in `skip`) the game waits on that moves
    automatically, and how."""
    if table.result is not None:
        return None
    for seat in sorted(table.rules.to_act(table.state)):
        if seat in skip:
            continue
        origin = automatic_origin(table, seat)
        if origin == EventOrigin.BOT and waits_for_worker(table, seat):
            return None  # the worker plays it, and what follows it
        if origin is not None:
            return seat, origin
    return None


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


def play_for(session: Session, table: Table, seat: int, origin: str, now: datetime) -> Table:
    """Append the seat's automatic move (the seat-keeper's choice, or the only legal move)."""
    if origin == EventOrigin.BOT:
        action = keeper_action(table, seat)
    else:
        (action,) = table.rules.legal_actions(table.state, seat)
    events = table.rules.act(table.state, seat, action)
    after = append_move(session, table, seat, action, events, origin, now)
    if origin == EventOrigin.AUTO:
        drop_replaced(session, after, seat, now)
    return after


def play_kept_and_forced(session: Session, table: Table, now: datetime) -> Table:
    """Play the seat-keeper's and auto-play's moves while the game waits on one (at most
    MAX_AUTOMATIC_MOVES), leaving to the plays chosen ahead the seats kept by the seat-keeper whose
    player chose one that answers now."""
    for _ in range(MAX_AUTOMATIC_MOVES):
        turn = next_automatic(table, chosen_before_keeper(session, table))
        if turn is None:
            break
        table = play_for(session, table, *turn, now)
    return table


def chosen_before_keeper(session: Session, table: Table) -> set[int]:
    """The seats kept by their seat-keeper whose player chose ahead a play that answers now: that
    play is made, not the seat-keeper's."""
    answering = answering_seats(session, table)
    return {seat for seat in answering if automatic_origin(table, seat) == EventOrigin.BOT}


def play_until_chosen(session: Session, table: Table, now: datetime) -> tuple[Table, Table | None]:
    """The automatic moves the game waits on, up to the next play chosen ahead that is made: the
    table before that play and the table after it (None when none is made). A chosen play that no
    longer fits is dropped, and a seat-keeper then moves for its seat."""
    for _ in range(MAX_AUTOMATIC_MOVES):
        table = play_kept_and_forced(session, table, now)
        chosen = play_chosen(session, table, now)
        if chosen is not None:
            return table, chosen
        if next_automatic(table) is None:
            break
    return table, None


def play_automatic(session: Session, table: Table, now: datetime) -> Table:
    """Play every move nobody makes by hand now: the seat-keeper's, auto-play's and the plays chosen
    ahead (these before the seat-keeper of their own seat)."""
    table, chosen = play_until_chosen(session, table, now)
    while chosen is not None:
        table, chosen = play_until_chosen(session, chosen, now)
    return table
