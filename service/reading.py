"""What a reader's page or mail may be given about a game: plain values read off the table, never the
table itself. Templates and mail bodies receive these (with the rules' views and the replay's lines),
so the folded state, which holds every hand, is not sent to a template at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.eventlog.models import GameStatus, SeatKeeper
from service.eventlog.store import Table


@dataclass(frozen=True)
class SeatReading:
    """A seat as pages and mails name it."""

    seat: int
    name: str
    email: str
    keeper: SeatKeeper


@dataclass(frozen=True)
class TableReading:
    """A game as pages and mails read it: its record's public fields and its seats; no state, no log."""

    game_id: str
    game: str
    status: GameStatus
    options: dict[str, Any]
    host_name: str
    host_email: str
    host_notify: bool
    public_replay: bool
    seats: tuple[SeatReading, ...]
    version: int
    move_days: int  # 0: no time limit
    weekend_pause: bool
    timezone: str  # the game's

    @property
    def active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def reader_language(table: Table, seat: int | None) -> str:
    """The language a reader chose: a seat's own, else the table's (the host's choice at creation);
    "" when neither was chosen (a page then follows the browser, a mail is in English)."""
    own = table.seats[seat].language if seat is not None else ""
    return own or table.record.language


def table_reading(table: Table) -> TableReading:
    """What a page or mail may read of a loaded game."""
    record = table.record
    return TableReading(
        game_id=table.game_id,
        game=record.game,
        status=table.status,
        options=dict(record.options),
        host_name=record.host_name,
        host_email=record.host_email,
        host_notify=record.host_notify,
        public_replay=record.public_replay,
        seats=tuple(
            SeatReading(seat.seat, seat.name, seat.email, SeatKeeper(seat.keeper)) for seat in table.seats
        ),
        version=table.version,
        move_days=record.move_days,
        weekend_pause=record.weekend_pause,
        timezone=record.timezone,
    )
