"""Times as a reader sees them: in their time zone (the seat's own setting, else the game's), in their
language, and on pages as `<time>` elements that static/local-time.js may localise to the browser's
zone (when the reader chose no zone of their own)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_skeleton
from babel.dates import format_time as babel_time
from flask_babel import get_locale
from markupsafe import Markup

from service.eventlog.store import Table


def zone_name(table: Table, seat: int | None) -> str:
    """The reader's zone: the seat's own setting if any, else the game's (the host and onlookers)."""
    own = table.seats[seat].timezone if seat is not None else ""
    return own or table.record.timezone


def browser_may_localise(table: Table, seat: int | None) -> bool:
    """Whether a page's script may show times in the browser's zone: the reader chose none."""
    return seat is None or not table.seats[seat].timezone


def as_utc(moment: datetime) -> datetime:
    """A stored moment, timezone-aware (SQLite hands times back without their zone: UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def next_local_hour(moment: datetime, zone: str, hour: int) -> datetime:
    """The first time after `moment` that the clock in the zone reads `hour`:00 (in UTC)."""
    tz = ZoneInfo(zone)
    local = as_utc(moment).astimezone(tz)
    at = datetime.combine(local.date(), time(hour), tzinfo=tz)
    if at <= local:
        at = datetime.combine(local.date() + timedelta(days=1), time(hour), tzinfo=tz)
    return at.astimezone(UTC)


def format_time(moment: datetime, zone: str) -> str:
    """A moment as a date and time of day in the zone and the reader's language, zone named."""
    moment = as_utc(moment)
    tz = ZoneInfo(zone)
    locale = get_locale() or Locale.parse("en")
    text = locale.datetime_formats["medium"].format(
        babel_time(moment, "short", tzinfo=tz, locale=locale),
        format_skeleton("MMMEd", moment, tzinfo=tz, locale=locale),
    )
    return f"{text} ({zone})"


def last_day(end: datetime, zone: str) -> str:
    """The last day a span ending at `end` covers, in the zone and the reader's language ("Tue,
    Jun 2" for a vacation that ends at Wednesday 00:00): an end date that reads as inclusive."""
    day = (as_utc(end) - timedelta(microseconds=1)).astimezone(ZoneInfo(zone))
    return format_skeleton("MMMEd", day, tzinfo=ZoneInfo(zone), locale=get_locale() or Locale.parse("en"))


def local_day(moment: datetime, zone: str) -> str:
    """The day of a moment in the zone, in the reader's language ("Tue, Dec 8, 2026")."""
    day = as_utc(moment).astimezone(ZoneInfo(zone))
    return format_skeleton("yMMMEd", day, tzinfo=ZoneInfo(zone), locale=get_locale() or Locale.parse("en"))


def time_tag(moment: datetime, zone: str, localise: bool = True) -> Markup:
    """`<time>` with the moment in ISO (UTC) and formatted in the zone; `localise` lets the page's
    script show it in the browser's zone instead."""
    flag = Markup(" data-localise") if localise else Markup("")
    return Markup('<time datetime="{}"{}>{}</time>').format(
        as_utc(moment).isoformat(), flag, format_time(moment, zone)
    )
