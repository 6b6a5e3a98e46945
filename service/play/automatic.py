"""Moves nobody makes by hand: the seat-keeper's (for bot seats, and for players who ran out of time
until they return) and forced moves played for players who keep auto-play on.

A play the seat's player chose ahead (service/play/ahead.py) comes first, as the player's own move.
Every other such move goes through `play_for`, which appends it with its origin and action like a move by
hand; `play_automatic` repeats it while the game waits on a seat that moves automatically.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session

from bots import choose_action
from service.eventlog.models import EventOrigin, SeatKeeper
from service.eventlog.store import Table, append_move
from service.play.ahead import play_chosen

# Moves played in one transaction; the rest (only when every seat plays automatically) is left to
# the next run of the beat task, which finds the open clocks marked automatic.
MAX_AUTOMATIC_MOVES = 200


def automatic_origin(table: Table, seat: int) -> str | None:
    """How the seat's owed move is made without its player: by the seat-keeper (a bot seat, or a
    player who ran out of time), or played for the player as their only legal move (auto-play)."""
    if not table.active or seat not in table.rules.to_act(table.state):
        return None
    record = table.seats[seat]
    if record.keeper != SeatKeeper.PLAYER:
        return EventOrigin.BOT
    if record.auto_play and len(table.rules.legal_actions(table.state, seat)) == 1:
        return EventOrigin.AUTO
    return None


def next_automatic(table: Table) -> tuple[int, str] | None:
    """The first seat (in seat order) the game waits on that moves automatically, and how."""
    if table.result is not None:
        return None
    for seat in sorted(table.rules.to_act(table.state)):
        origin = automatic_origin(table, seat)
        if origin is not None:
            return seat, origin
    return None


def keeper_action(table: Table, seat: int) -> dict[str, Any]:
    """The seat-keeper's move for a seat, chosen from what that seat may see and nothing more."""
    rules = table.rules
    return choose_action(rules, rules.view(table.state, seat), rules.legal_actions(table.state, seat), seat)


def play_for(session: Session, table: Table, seat: int, origin: str, now: datetime) -> Table:
    """Append the seat's automatic move (the seat-keeper's choice, or the only legal move)."""
    if origin == EventOrigin.BOT:
        action = keeper_action(table, seat)
    else:
        (action,) = table.rules.legal_actions(table.state, seat)
    events = table.rules.act(table.state, seat, action)
    return append_move(session, table, seat, action, events, origin, now)


def play_automatic(session: Session, table: Table, now: datetime) -> Table:
    """Play automatic moves while the game waits on a seat that moves automatically (at most
    MAX_AUTOMATIC_MOVES of them): first the plays its players chose ahead, which take precedence over
    the seat-keeper, then the seat-keeper's and auto-play's."""
    for _ in range(MAX_AUTOMATIC_MOVES):
        chosen = play_chosen(session, table, now)
        if chosen is not None:
            table = chosen
            continue
        turn = next_automatic(table)
        if turn is None:
            break
        table = play_for(session, table, *turn, now)
    return table
