"""Deadlines, pure: who owes since when (from the log), and when reminders and timeouts fall with and
without the weekend pause (in the game's time zone, across a daylight-saving change) and vacations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from rules import get_game
from service.eventlog.store import fold_on
from service.play.deadlines import Owed, clock_end, deadline, owed_moves
from service.play.time_control import TimeControl

PARIS = ZoneInfo("Europe/Paris")


def paris(*args: int) -> datetime:
    return datetime(*args, tzinfo=PARIS).astimezone(UTC)


def test_one_day_per_move_is_due_a_day_later_and_reminded_at_half_time() -> None:
    since = datetime(2026, 6, 2, 10, 0, tzinfo=UTC)  # a Tuesday
    due = deadline(TimeControl(move_days=1), since)
    assert due.due_at == since + timedelta(days=1)
    assert due.remind_at == since + timedelta(hours=12)


def test_longer_moves_are_reminded_a_day_before_or_as_the_game_chose() -> None:
    since = datetime(2026, 6, 2, 10, 0, tzinfo=UTC)
    assert deadline(TimeControl(move_days=3), since).remind_at == since + timedelta(days=2)
    assert deadline(TimeControl(move_days=3, remind_hours=6), since).remind_at == since + timedelta(hours=66)
    assert deadline(TimeControl(move_days=3, remind_hours=0), since).remind_at is None


def test_the_weekend_pause_stops_the_clock_from_saturday_to_monday_local_time() -> None:
    control = TimeControl(move_days=1, weekend_pause=True, timezone="Europe/Paris")
    friday_evening = paris(2026, 6, 5, 18, 0)
    due = deadline(control, friday_evening)
    assert due.due_at == paris(2026, 6, 8, 18, 0)  # 6 h on Friday, 18 h on Monday
    assert due.remind_at == paris(2026, 6, 8, 6, 0)  # 12 h of running clock before the deadline
    saturday = paris(2026, 6, 6, 10, 0)
    assert deadline(control, saturday).due_at == paris(2026, 6, 9, 0, 0)  # starts on Monday
    without = deadline(TimeControl(move_days=1, timezone="Europe/Paris"), friday_evening)
    assert without.due_at == paris(2026, 6, 6, 18, 0)


def test_the_weekend_is_local_even_when_the_clocks_change() -> None:
    # Summer time ends on Sunday 25 October 2026 in Paris: that weekend lasts 49 hours.
    control = TimeControl(move_days=1, weekend_pause=True, timezone="Europe/Paris")
    due = deadline(control, paris(2026, 10, 23, 12, 0)).due_at
    assert due == paris(2026, 10, 26, 12, 0)
    assert due - paris(2026, 10, 23, 12, 0) == timedelta(hours=24 + 49)
    # Friday 12:00 UTC is 21:00 in Tokyo: 3 h run before the Tokyo weekend, 21 h after it.
    tokyo = TimeControl(move_days=1, weekend_pause=True, timezone="Asia/Tokyo")
    friday_noon_utc = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
    assert deadline(tokyo, friday_noon_utc).due_at == datetime(2026, 10, 26, 12, 0, tzinfo=UTC)


def test_vacations_stop_the_clock_and_merge_with_weekends() -> None:
    monday = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
    away = [(datetime(2026, 6, 2, tzinfo=UTC), datetime(2026, 6, 4, tzinfo=UTC))]
    two_days = TimeControl(move_days=2)
    assert deadline(two_days, monday, away).due_at == datetime(2026, 6, 5, 10, 0, tzinfo=UTC)
    # Away Thursday to Saturday noon with the weekend paused too: nothing runs from Thursday to Monday.
    paused = TimeControl(move_days=2, weekend_pause=True)
    wednesday = datetime(2026, 6, 3, 10, 0, tzinfo=UTC)
    thursday_to_saturday = [(datetime(2026, 6, 4, tzinfo=UTC), datetime(2026, 6, 6, 12, tzinfo=UTC))]
    assert deadline(paused, wednesday, thursday_to_saturday).due_at == datetime(2026, 6, 9, 10, 0, tzinfo=UTC)


def test_clock_end_skips_overlapping_pauses_once() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    hour = timedelta(hours=1)
    pauses = [(start + hour, start + 3 * hour), (start + 2 * hour, start + 4 * hour)]
    assert clock_end(start, 2 * hour, pauses) == start + 5 * hour
    assert clock_end(start, hour, pauses) == start + hour  # ends right where the pause begins


def owed_after(events: list[dict], times: list[datetime]) -> dict[int, Owed]:
    """Who owes since when after the whole log, folded from its start as the event store does."""
    _, owing = fold_on(get_game("red_black"), None, {}, events, 1)
    return owed_moves(owing, times)


def test_a_seat_owes_since_the_event_after_which_it_waited_without_a_break() -> None:
    rules = get_game("red_black")
    events = rules.start(4, 2, {})
    t0 = datetime(2026, 6, 1, tzinfo=UTC)
    times = [t0] * len(events)
    dealt = owed_after(events, times)
    assert sorted(dealt) == [0, 1] and {owe.since for owe in dealt.values()} == {t0}
    state = rules.fold(events)
    camp = rules.act(state, 0, rules.legal_actions(state, 0)[0])
    owed = owed_after(events + camp, times + [t0 + timedelta(hours=5)] * len(camp))
    assert owed == {1: dealt[1]}  # seat 1 still owes its camp card since the deal
    reply = rules.act(rules.fold(events + camp), 1, rules.legal_actions(rules.fold(events + camp), 1)[0])
    later = t0 + timedelta(hours=7)
    after = owed_after(events + camp + reply, times + [t0] * len(camp) + [later] * len(reply))
    assert [(owe.since_seq, owe.since) for owe in after.values()] == [(len(events + camp + reply), later)]
