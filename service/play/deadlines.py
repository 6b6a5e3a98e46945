"""Deadlines, pure: who owes a move since when (from the event log), and when their reminder and
timeout fall, with the clock stopped on weekends (Saturday and Sunday in the game's time zone) and
during the seat's vacations. No database, no clock: times go in and come out.

A seat owes a move since the event after which it entered `to_act` and stayed there through every
later event; a day of the time control is 24 hours of running clock. The host's DeadlineExtended
(an event of the log) gives the owed move a fresh clock of its days from when it was appended.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from service.eventlog.owing import Owing
from service.play.time_control import TimeControl

Interval = tuple[datetime, datetime]
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Owed:
    """A seat owes a move since the event numbered `since_seq` (1-based), appended at `since`; the
    host gave it a fresh clock of `granted_days` from `granted_at` (the latest DeadlineExtended)."""

    seat: int
    since_seq: int
    since: datetime
    granted_at: datetime | None = None
    granted_days: int = 0


@dataclass(frozen=True)
class Deadline:
    remind_at: datetime | None
    due_at: datetime


def owed_moves(owing: Owing, times: Sequence[datetime]) -> dict[int, Owed]:
    """Each seat the game waits on, with since when it owes continuously and the host's latest more
    time for that move (`owing` is folded with the log by the event store; `times` are the events')."""
    return {
        seat: Owed(
            seat,
            owes.since_seq,
            times[owes.since_seq - 1],
            times[owes.granted_seq - 1] if owes.granted_seq else None,
            owes.granted_days,
        )
        for seat, owes in owing.items()
    }


def local_midnight(day: date, zone: ZoneInfo) -> datetime:
    """The start of a local date, in UTC."""
    return datetime.combine(day, time(), tzinfo=zone).astimezone(UTC)


def weekends(start: datetime, zone: ZoneInfo) -> Iterator[Interval]:
    """Every weekend (Saturday 00:00 to Monday 00:00, local time) from the one around `start` on."""
    today = start.astimezone(zone).date()
    saturday = today - timedelta(days=(today.weekday() - 5) % 7)
    while True:
        yield local_midnight(saturday, zone), local_midnight(saturday + timedelta(days=2), zone)
        saturday += timedelta(days=7)


def clock_end(start: datetime, running: timedelta, pauses: Iterable[Interval]) -> datetime:
    """When a clock started at `start` has run for `running`, stopped during `pauses` (sorted by
    their start; they may overlap)."""
    now, left = start, running
    for pause_start, pause_end in pauses:
        if pause_end <= now:
            continue
        if pause_start > now:
            if now + left <= pause_start:
                return now + left
            left -= pause_start - now
        now = max(now, pause_end)
    return now + left


def pauses(control: TimeControl, start: datetime, away: Iterable[Interval]) -> Iterator[Interval]:
    """The seat's clock stops: its vacations, and weekends when the game pauses for them."""
    vacations = sorted(away)
    if not control.weekend_pause:
        return iter(vacations)
    return heapq.merge(vacations, weekends(start, ZoneInfo(control.timezone)))


def deadline(
    control: TimeControl, since: datetime, away: Iterable[Interval] = (), days: int | None = None
) -> Deadline:
    """The reminder and due time of a move owed since `since` in a timed game, with the game's days
    per move or `days` (more time the host gave, from `since`)."""
    allowed = (control.move_days if days is None else days) * DAY
    away = list(away)
    due = clock_end(since, allowed, pauses(control, since, away))
    before = control.remind_before(allowed)
    remind = None if before is None else clock_end(since, allowed - before, pauses(control, since, away))
    return Deadline(remind, due)
