"""Time zones: the IANA names a player or host may choose."""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

# Listed in the settings form (a select of all ~600 names would weigh down every player page); any
# other IANA name is accepted too, through the JSON API, and stays listed once chosen.
COMMON_ZONES = (
    "UTC",
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Denver",
    "America/Phoenix",
    "America/Chicago",
    "America/Mexico_City",
    "America/New_York",
    "America/Toronto",
    "America/Halifax",
    "America/Bogota",
    "America/Lima",
    "America/Santiago",
    "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires",
    "Atlantic/Reykjavik",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Madrid",
    "Europe/Berlin",
    "Europe/Rome",
    "Europe/Amsterdam",
    "Europe/Stockholm",
    "Europe/Warsaw",
    "Europe/Athens",
    "Europe/Helsinki",
    "Europe/Istanbul",
    "Europe/Kyiv",
    "Europe/Moscow",
    "Africa/Lagos",
    "Africa/Cairo",
    "Africa/Nairobi",
    "Africa/Johannesburg",
    "Asia/Dubai",
    "Asia/Tehran",
    "Asia/Karachi",
    "Asia/Kolkata",
    "Asia/Dhaka",
    "Asia/Bangkok",
    "Asia/Jakarta",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Manila",
    "Asia/Seoul",
    "Asia/Tokyo",
    "Australia/Perth",
    "Australia/Adelaide",
    "Australia/Brisbane",
    "Australia/Sydney",
    "Pacific/Auckland",
)


@cache
def known_zones() -> frozenset[str]:
    """Every IANA zone name this installation knows (tzdata), read once."""
    return frozenset(available_timezones())


def is_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone name."""
    return name in known_zones()


def zone_choices(current: str) -> list[str]:
    """The zones the settings form lists: the common ones, and the current one if it is not among them."""
    extra = [current] if current and current not in COMMON_ZONES else []
    return [*COMMON_ZONES, *extra]
