"""One clock: every time the service stores comes from the runtime's clock (rt.clock), never from
the wall clock, so a test's clock set years back leaves no trace of today in any table."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import Engine, select
from sqlmodel import Session, SQLModel

from service import create_app
from service.eventlog.models import NotifyMode, TimeoutPolicy
from service.localtime import as_utc
from service.mail.digest import send_due_digests
from service.play.hosting import cancel_game
from service.play.seat_settings import SeatSettings, save_seat_settings
from service.play.timeouts import HostDecision, decide_timeout, timed_out_clocks
from service.play.vacations import declare_vacation
from tests.conftest import app_config
from tests.helpers import SteppingClock, mails
from tests.service.turns import beat, new_game, people, play
from tests.smtp_sink import SmtpSink

START = datetime(2019, 3, 4, 9, 0, tzinfo=UTC)  # a Monday, years before any day these tests run on
# Columns that record when something happened: each holds one of the clock's readings. The others
# (deadlines, reminders due, vacations' bounds) are computed from them.
STAMPS = {
    ("games", "created_at"),
    ("games", "finished_at"),
    ("events", "created_at"),
    ("commands", "created_at"),
    ("commands", "decided_at"),
    ("outbox", "created_at"),
    ("outbox", "next_attempt_at"),
    ("outbox", "sent_at"),
    ("digests", "created_at"),
    ("vacations", "created_at"),
    ("turn_clocks", "owed_since"),
    ("turn_clocks", "reminded_at"),
    ("turn_clocks", "timed_out_at"),
    ("turn_clocks", "granted_at"),
    ("turn_clocks", "settled_at"),
}


class RecordingClock(SteppingClock):
    """A stepping clock that remembers every time it told."""

    def __init__(self, start: datetime) -> None:
        super().__init__(start)
        self.told: set[datetime] = set()

    def now(self) -> datetime:
        moment = super().now()
        self.told.add(moment)
        return moment


@pytest.fixture(params=["sqlite", "postgres"])
def mailing_app(request: pytest.FixtureRequest, tmp_path: Path, smtp_sink: SmtpSink) -> Iterator[Flask]:
    """The embedded app delivering by SMTP (so that sending stamps its time too)."""
    url = request.getfixturevalue("clean_pg") if request.param == "postgres" else None
    app = create_app(app_config(tmp_path, url, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port))
    with app.app_context():
        yield app
    app.extensions["pbem"].engine.dispose()


def stored_times(engine: Engine) -> dict[tuple[str, str], list[date]]:
    """Every date and time in every column of every table, by (table, column); times in UTC."""
    found: dict[tuple[str, str], list[date]] = {}
    with Session(engine) as session:
        for table in SQLModel.metadata.sorted_tables:
            for column in table.columns:
                kind = getattr(column.type, "impl", column.type)  # a stored time is a TypeDecorator
                if not issubclass(kind.python_type, date):
                    continue
                values = session.execute(select(column).where(column.is_not(None))).scalars().all()
                found[(table.name, column.name)] = [
                    as_utc(v) if isinstance(v, datetime) else v for v in values
                ]
    return found


def test_a_game_against_a_clock_set_years_back_stores_only_that_clocks_times(mailing_app: Flask) -> None:
    app = mailing_app
    rt = app.extensions["pbem"]
    rt.clock = clock = RecordingClock(START)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timeout=TimeoutPolicy.HOST)
    save_seat_settings(rt, game_id, 0, SeatSettings(NotifyMode.DIGEST, ""))
    clock.advance(hours=1)
    play(rt, game_id, 0)  # a command, its events and mails, delivered by SMTP
    assert send_due_digests(rt) == 0  # nothing waits on Ann: her day's digest row, without a mail
    declare_vacation(rt, game_id, 0, START.date(), 2)
    assert beat(rt, clock, hours=20).reminders == 1  # Bo's reminder
    assert beat(rt, clock, hours=5).timeouts == 1  # Bo is out of time: the host is asked
    with Session(rt.engine) as session:
        (late,) = timed_out_clocks(session, game_id)
    clock.advance(hours=1)
    assert decide_timeout(rt, game_id, late.id, HostDecision.MORE_TIME, 1)
    assert beat(rt, clock, days=1, hours=1).timeouts == 1  # out of time again: the host is asked again
    clock.advance(hours=1)
    play(rt, game_id, 1)
    clock.advance(hours=1)
    assert cancel_game(rt, game_id)
    assert {mail.status for mail in mails(app)} == {"sent"}

    times = stored_times(rt.engine)
    stamped = {column for column, values in times.items() if values}
    assert stamped >= STAMPS, f"never written: {sorted(STAMPS - stamped)}"
    latest = clock.now() + timedelta(days=7)  # deadlines and vacations lie a little ahead
    for (table, column), values in times.items():
        for value in values:
            if isinstance(value, datetime):
                assert START <= value <= latest, f"{table}.{column} = {value}"
            else:
                assert START.date() <= value <= latest.date(), f"{table}.{column} = {value}"
        if (table, column) in STAMPS:
            assert set(values) <= clock.told, f"{table}.{column} holds a time the clock never told"
