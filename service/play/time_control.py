"""A game's time control, chosen at creation and stored on its row: days per move, the weekend pause
in the game's time zone, the reminder, what happens to a player out of time, and the vacation
allowance. `MOVE_DAYS` is the one list of days per move: the create form, `pbem new --days` and the
host's "more time" choices all come from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from rules.messages import N_, Message
from service.eventlog.models import GameRecord, TimeoutPolicy
from service.zones import is_zone

MOVE_DAYS = (1, 2, 3, 7)  # days per move a game may have, and more days the host may give
NO_LIMIT = 0  # days per move of a game without a time limit
MAX_VACATION_DAYS = 60
DEFAULT_REMIND_HOURS = 24
DEFAULT_VACATION_DAYS = 14


@dataclass(frozen=True)
class TimeControl:
    """How a game runs against the clock. Field names are the game row's columns."""

    move_days: int = NO_LIMIT
    weekend_pause: bool = False  # the clocks stop from Saturday 00:00 to Monday 00:00 in `timezone`
    timezone: str = "UTC"  # the game's IANA zone
    remind_hours: int | None = None  # None: 24 h before the deadline, or half the time; 0: none
    timeout: TimeoutPolicy = TimeoutPolicy.BOT
    vacation_days: int = DEFAULT_VACATION_DAYS  # per seat and calendar year

    @classmethod
    def of(cls, record: GameRecord) -> TimeControl:
        """A game's time control, as chosen at creation."""
        return cls(
            record.move_days,
            record.weekend_pause,
            record.timezone,
            record.remind_hours,
            TimeoutPolicy(record.timeout),
            record.vacation_days,
        )

    def columns(self) -> dict[str, Any]:
        """The game row's columns that store this time control."""
        return {
            "move_days": self.move_days,
            "weekend_pause": self.weekend_pause,
            "timezone": self.timezone,
            "remind_hours": self.remind_hours,
            "timeout": self.timeout,
            "vacation_days": self.vacation_days,
        }

    @property
    def timed(self) -> bool:
        return self.move_days != NO_LIMIT

    def remind_before(self, allowed: timedelta) -> timedelta | None:
        """Running time before the deadline when the reminder goes: 24 h by default, or half the
        time when that is shorter (1-day games); None for no reminder."""
        if self.remind_hours == 0:
            return None
        before = timedelta(hours=self.remind_hours or DEFAULT_REMIND_HOURS)
        return min(before, allowed / 2)

    def refusal(self) -> Message | None:
        """Why the first setting that is not allowed is refused (a message for the host); None when
        every setting is allowed."""
        if self.move_days != NO_LIMIT and self.move_days not in MOVE_DAYS:
            days = ", ".join(map(str, MOVE_DAYS))
            return N_("Time per move is %(days)s days, or no time limit."), {"days": days}
        if not is_zone(self.timezone):
            return N_("%(zone)s is not a time zone we know; use a name like Europe/Paris."), {
                "zone": self.timezone[:64]
            }
        if self.remind_hours is not None and self.remind_hours < 0:
            return N_("The reminder cannot come after the deadline."), {}
        if self.timeout not in tuple(TimeoutPolicy):
            return N_("Choose what happens when a player runs out of time."), {}
        if not 0 <= self.vacation_days <= MAX_VACATION_DAYS:
            return N_("Vacation days per player and year are 0 to %(most)s."), {"most": MAX_VACATION_DAYS}
        return None
