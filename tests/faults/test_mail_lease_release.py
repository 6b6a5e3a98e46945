"""A mail whose sender loses the database after leasing it, before anything was sent, is given back
at once: the sweep's next tick sends it, instead of the row waiting out a lease nobody holds."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlmodel import Session

from service import create_app
from service.db import migrate
from service.eventlog.models import MailStatus, OutboxMail
from service.mail.delivery import deliver
from service.play.hosting import Player, create_game
from tests.conftest import app_config
from tests.faults.servers import OwnPostgres, OwnRedis
from tests.helpers import mails
from tests.smtp_sink import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# Holds the "mark as sent" statement long enough for the test to shut the database down under it.
SLOW_MARKING = """
CREATE FUNCTION slow_marking() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep(30); RETURN NEW; END $$;
CREATE TRIGGER slow_marking BEFORE UPDATE ON outbox FOR EACH ROW
WHEN (OLD.sent_at IS NULL AND NEW.sent_at IS NOT NULL) EXECUTE FUNCTION slow_marking();
"""


def test_a_lease_is_given_back_when_the_database_goes_away_before_the_send(
    servers: tuple[OwnPostgres, OwnRedis], tmp_path: Path
) -> None:
    postgres, broker = servers
    migrate(postgres.url)
    # A relay nobody listens on: the send never gets that far.
    relay = {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": free_port()}
    app = create_app(app_config(tmp_path, postgres.url, REDIS_URL=broker.url, **relay))
    rt = app.extensions["pbem"]
    with app.app_context():
        create_game(
            rt,
            "red_black",
            [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")],
            Player("Host", "host@example.org"),
            seed=4,
        )
    mail_id = mails(app, to="ann@example.org", kind="invitation")[-1].id
    assert mail_id is not None
    admin = create_engine(postgres.url)
    with admin.begin() as connection:
        connection.execute(text(SLOW_MARKING))
    admin.dispose()
    failures: list[Exception] = []

    def send() -> None:
        try:
            deliver(rt, mail_id)
        except Exception as error:  # the database went away under it, as intended
            failures.append(error)

    sender = threading.Thread(target=send)
    sender.start()
    deadline = time.monotonic() + 20
    while leased_token(rt.engine, mail_id) is None:
        assert time.monotonic() < deadline, "the sender never leased the row"
        time.sleep(0.05)
    time.sleep(0.5)  # the sender is now waiting in the slowed "mark as sent"
    postgres.halt()
    time.sleep(1.0)
    postgres.start()
    sender.join(timeout=60)
    assert not sender.is_alive()
    assert failures, "the sender should have lost its database midway"
    rt.engine.dispose()
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail_id)
        assert row is not None
        assert row.status == MailStatus.PENDING and row.sent_at is None
        assert row.claim_token is None and row.claimed_until is None, "the lease was not given back"


def leased_token(engine: Engine, mail_id: int) -> str | None:
    with Session(engine) as session:
        row = session.get(OutboxMail, mail_id)
        return None if row is None else row.claim_token
