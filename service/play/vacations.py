"""Vacations: days a player declares away from their link. Their clocks stop meanwhile (the turn
clocks push their deadlines by the overlap) and the other players are told. Each seat may take up
to the game's allowance of days per calendar year, counted in local dates of the game's time zone.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session

from rules.messages import N_
from service.eventlog.models import OutboxMail, Vacation
from service.eventlog.store import Table
from service.mail.drafting import draft_mail, drafted, mailed_seats, mails_to_others, player_url
from service.mail.kinds import MailKind
from service.play.clocks import vacations
from service.play.deadlines import local_midnight
from service.play.projections import project
from service.runtime import Runtime

PLAN_AHEAD_DAYS = 365  # how far ahead a vacation may start


class VacationRefused(ValueError):
    """A vacation that cannot be declared or cancelled; `msgid` and `params` for the player."""

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid % params if params else msgid)
        self.msgid, self.params = msgid, params


def local_today(table: Table, now: datetime) -> date:
    """Today's date in the game's time zone."""
    return now.astimezone(ZoneInfo(table.record.timezone)).date()


def days_in_year(start: date, days: int, year: int) -> int:
    """How many of the days from `start` fall in `year`."""
    first, end = max(start, date(year, 1, 1)), min(start + timedelta(days=days), date(year + 1, 1, 1))
    return max(0, (end - first).days)


def days_left(table: Table, taken: list[Vacation], seat: int, year: int) -> int:
    """The seat's vacation days still free in a calendar year."""
    used = sum(days_in_year(v.start_date, v.days, year) for v in taken if v.seat == seat)
    return max(0, table.record.vacation_days - used)


def check_vacation(
    table: Table, taken: list[Vacation], seat: int, start: date, days: int, now: datetime
) -> None:
    """VacationRefused unless the seat may be away `days` days from `start`."""
    today = local_today(table, now)
    if not table.active:
        raise VacationRefused(N_("This game is no longer running."))
    if days < 1:
        raise VacationRefused(N_("A vacation lasts at least one day."))
    if not today <= start <= today + timedelta(days=PLAN_AHEAD_DAYS):
        raise VacationRefused(N_("A vacation starts today or within the next year."))
    for year in range(start.year, (start + timedelta(days=days - 1)).year + 1):
        left = days_left(table, taken, seat, year)
        if days_in_year(start, days, year) > left:
            raise VacationRefused(N_("Vacation days left in %(year)s: %(left)s."), left=left, year=year)
    end = start + timedelta(days=days)
    for other in taken:
        if (
            other.seat == seat
            and other.start_date < end
            and start < other.start_date + timedelta(days=other.days)
        ):
            raise VacationRefused(N_("This overlaps a vacation you already declared."))


def declare_vacation(rt: Runtime, game_id: str, seat: int, start: date, days: int) -> None:
    """The seat is away `days` local days from `start`: its clocks stop, the others are told.
    VacationRefused if that is not allowed."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        now = rt.clock.now()
        check_vacation(table, vacations(session, game_id), seat, start, days, now)
        zone = ZoneInfo(table.record.timezone)
        vacation = Vacation(
            game_id=game_id,
            seat=seat,
            start_date=start,
            days=days,
            starts_at=max(local_midnight(start, zone), now),  # never stops a clock in the past
            ends_at=local_midnight(start + timedelta(days=days), zone),
            created_at=now,
        )
        session.add(vacation)
        session.flush()
        project(session, table, now)
        return None, drafted(
            *(_notice(rt, table, vacation, other.seat) for other in mailed_seats(table) if other.seat != seat)
        )

    rt.in_game(game_id, change)


def _notice(rt: Runtime, table: Table, vacation: Vacation, reader: int) -> OutboxMail | None:
    context = {
        "link": player_url(rt, table, reader),
        "name": table.names[vacation.seat],
        "starts": vacation.starts_at,
        "ends": vacation.ends_at,
        "game_zone": table.record.timezone,
    }
    return draft_mail(rt, table, MailKind.VACATION, reader, context)


def cancel_vacation(rt: Runtime, game_id: str, seat: int, vacation_id: int) -> None:
    """Call off one of the seat's vacations: a future one entirely, an ongoing one from now (the
    days not taken go back to the allowance). VacationRefused for one that is over or not theirs."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        now = rt.clock.now()
        vacation = session.get(Vacation, vacation_id)
        if vacation is None or vacation.game_id != game_id or vacation.seat != seat:
            raise VacationRefused(N_("There is no such vacation of yours."))
        if vacation.ends_at <= now:
            raise VacationRefused(N_("That vacation is already over."))
        if vacation.starts_at > now:
            session.delete(vacation)
        else:
            vacation.ends_at = now
            vacation.days = (local_today(table, now) - vacation.start_date).days + 1
            session.add(vacation)
        session.flush()
        project(session, table, now)
        return None, mails_to_others(rt, table, seat, MailKind.VACATION_ENDED)

    rt.in_game(game_id, change)
