"""Decisions about the table outside play, appended to the log like moves (no seat's move: the
event's seat is None): the host's, the game's own (a timeout), and a player's taking their seat back
from the seat-keeper. Each is made by the rules (`decide`), so the fairness re-run makes it again
from its logged action, and the seat rows follow at once."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from rules.shapes import Action
from rules.table import keep_decision
from service.eventlog.models import EventOrigin, SeatKeeper
from service.eventlog.store import Table, append_move
from service.play.projections import project_seats


def decided(session: Session, table: Table, decision: Action, origin: str, now: datetime) -> Table:
    """The table once a decision is appended to its log (the seat rows following it); IllegalAction
    if the rules refuse it now. The game row and clocks follow at the step's end."""
    events = table.rules.table.decide(table.state, decision, len(table.seats))
    after = append_move(session, table, None, decision, events, origin, now)
    project_seats(session, after, table.version)
    return after


def player_back(session: Session, table: Table, seat: int, now: datetime) -> Table:
    """The player takes their seat back from the bot that stood in for them (by "take my seat back",
    or by a move of their own): a SeatKept of the player's origin, when a bot stands in now."""
    if table.seats[seat].keeper != SeatKeeper.STAND_IN:
        return table
    return decided(session, table, keep_decision(seat, False), EventOrigin.PLAYER, now)


def stand_in(session: Session, table: Table, seat: int, now: datetime) -> Table:
    """The seat-keeper plays for a player who ran out of time, until they return: a SeatKept of the
    game's origin."""
    return decided(session, table, keep_decision(seat, True), EventOrigin.GAME, now)
