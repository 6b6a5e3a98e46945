"""A player's own settings on their seat (how they hear of their turns, their time zone, auto-play
of their forced moves, taking the seat back from the seat-keeper), and the host's notices switch:
read, checked and saved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlmodel import Session

from service.eventlog.models import NotifyMode, OutboxMail, SeatKeeper, SeatRecord
from service.eventlog.store import Table
from service.mail.digest import first_digest
from service.mail.drafting import drafted
from service.play.master import Master, step
from service.runtime import Runtime
from service.zones import is_zone

NOTIFY_MODES = (NotifyMode.TURN, NotifyMode.DIGEST, NotifyMode.NONE)


class SettingsRefused(ValueError):
    """Settings that cannot be saved; the message says why, for the player."""


@dataclass(frozen=True)
class SeatSettings:
    notify: str  # one of NOTIFY_MODES
    timezone: str  # an IANA name, or "" for the default zone

    @classmethod
    def of(cls, seat: SeatRecord) -> SeatSettings:
        """A seat's current settings."""
        return cls(seat.notify, seat.timezone)

    def as_json(self) -> dict[str, str]:
        return {"notify": self.notify, "timezone": self.timezone}


def checked_settings(notify: Any, timezone: Any) -> SeatSettings:
    """Settings from untrusted input; SettingsRefused with a clear message for a bad mode or zone."""
    if notify not in NOTIFY_MODES:
        raise SettingsRefused(_("Choose how to hear of your turns: each turn, a daily digest, or none."))
    if not isinstance(timezone, str) or (timezone and not is_zone(timezone)):
        raise SettingsRefused(
            _("%(zone)s is not a time zone we know. Choose one from the list.", zone=str(timezone)[:64])
        )
    return SeatSettings(notify, timezone)


def save_seat_settings(rt: Runtime, game_id: str, seat: int, settings: SeatSettings) -> None:
    """Store a seat's settings (a switch to the digest after today's went out brings one at once)."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        if not 0 <= seat < len(table.seats):
            raise LookupError(f"game {game_id} has no seat {seat}")
        record = table.seats[seat]
        was = record.notify
        record.notify, record.timezone = settings.notify, settings.timezone
        session.add(record)
        session.flush()
        return None, drafted(first_digest(rt, session, table, seat, was))

    rt.in_game(game_id, change)


def save_seat_language(rt: Runtime, game_id: str, seat: int, key_version: int, language: str) -> bool:
    """A seat's own language for its pages and mails; False (nothing saved) for a replaced link."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        if not 0 <= seat < len(table.seats) or table.seats[seat].key_version != key_version:
            return False, []
        record = table.seats[seat]
        record.language = language
        session.add(record)
        return True, []

    return rt.in_game(game_id, change)


def take_seat_back(rt: Runtime, game_id: str, seat: int) -> bool:
    """The player takes their seat back from the seat-keeper; False if it was not kept for them."""

    def work(master: Master) -> bool:
        if master.table.seats[seat].keeper != SeatKeeper.STAND_IN:
            return False
        master.player_back(seat)
        master.project()
        return True

    return step(rt, game_id, work)


def set_auto_play(rt: Runtime, game_id: str, seat: int, on: bool) -> None:
    """Turn auto-play of the seat's forced moves on or off; a forced move owed now is played at once."""

    def work(master: Master) -> None:
        record = master.table.seats[seat]
        record.auto_play = on
        master.session.add(record)
        if master.table.active:
            master.follow()

    step(rt, game_id, work)
