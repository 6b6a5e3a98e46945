"""Who makes a seat's owed move, from the seat's row (a projection of the log) and the rules: its
player, a bot (the seat-keeper or a search bot of the seat's level), or the player's auto-play for
an only legal move. Pure: no session, no clock."""

from __future__ import annotations

from rules.table import KEEPER
from service.eventlog.models import EventOrigin, SeatKeeper
from service.eventlog.store import Table


def bot_level(table: Table, seat: int) -> str:
    """The level of the bot playing a seat the seat-keeper has (the seat-keeper itself if none)."""
    return table.seats[seat].bot_level or KEEPER


def automatic_origin(table: Table, seat: int, keeper: str | None = None) -> str | None:
    """How the seat's owed move is made without its player: by the seat-keeper (a bot seat, or a
    player who ran out of time), or played for the player as their only legal move (auto-play).
    `keeper`: who plays the seat, when the row does not say it yet (the seat's row otherwise)."""
    if not table.active or seat not in table.rules.to_act(table.state):
        return None
    record = table.seats[seat]
    if (keeper or record.keeper) != SeatKeeper.PLAYER:
        return EventOrigin.BOT
    if record.auto_play and len(table.rules.legal_actions(table.state, seat)) == 1:
        return EventOrigin.AUTO
    return None
