"""What pages and the JSON API show of a game's turns: who the game waits on and until when, the
time control, and for a player their seat-keeper, auto-play and vacations."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from service.eventlog.models import TurnClock, Vacation
from service.eventlog.store import Table
from service.localtime import browser_may_localise, zone_name
from service.play.clocks import Waiting, vacations, waiting_on
from service.play.time_control import TimeControl
from service.play.timeouts import timed_out_clocks
from service.play.vacations import days_left, local_today
from service.runtime import Runtime


@dataclass(frozen=True)
class TurnView:
    """A game's turns as one reader (a seat, or None for the host and onlookers) sees them."""

    waiting: list[Waiting]
    control: TimeControl
    zone: str  # the reader's time zone
    localise: bool  # the reader chose no zone: the page's script may show the browser's
    seat: int | None = None
    keeper: str | None = None
    auto_play: bool = False
    vacations: list[Vacation] = field(default_factory=list)  # the seat's, not yet over
    days_left: int = 0  # the seat's vacation days left this year
    timed_out: list[TurnClock] = field(default_factory=list)  # for the host: waiting for a decision


def turn_view(rt: Runtime, table: Table, seat: int | None, host: bool = False) -> TurnView:
    """The turns of a game for a seat's page (or the host's, or an onlooker's)."""
    now = rt.clock.now()
    with rt.reading() as session:
        taken = vacations(session, table.game_id)
        waiting = waiting_on(session, table, now, taken)
        timed_out = timed_out_clocks(session, table.game_id) if host and table.active else []
    view = TurnView(
        waiting,
        TimeControl.of(table.record),
        zone_name(table, seat),
        browser_may_localise(table, seat),
        timed_out=timed_out,
    )
    if seat is None:
        return view
    record = table.seats[seat]
    return replace(
        view,
        seat=seat,
        keeper=record.keeper,
        auto_play=record.auto_play,
        vacations=[v for v in taken if v.seat == seat and v.ends_at > now],
        days_left=days_left(table, taken, seat, local_today(table, now).year),
    )


def turn_json(view: TurnView) -> dict[str, Any]:
    """The turns for the JSON API (times in ISO, UTC)."""
    data: dict[str, Any] = {
        "waiting_on": [waiting.as_json() for waiting in view.waiting],
        "time_control": {
            "days_per_move": view.control.move_days,
            "weekend_pause": view.control.weekend_pause,
            "timezone": view.control.timezone,
            "timeout": view.control.timeout,
            "vacation_days_per_year": view.control.vacation_days,
        },
    }
    if view.seat is not None:
        data["my_seat"] = {
            "kept_by": view.keeper,
            "auto_play": view.auto_play,
            "vacations": [
                {"id": v.id, "starts": v.starts_at.isoformat(), "ends": v.ends_at.isoformat()}
                for v in view.vacations
            ],
            "vacation_days_left": view.days_left,
        }
    return data
