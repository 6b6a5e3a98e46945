"""Fixtures shared by every test: the real PostgreSQL and Redis, apps on SQLite and PostgreSQL.

The services are required: when one is unreachable the tests that need it fail with a clear message
if CI or PBEM_REQUIRE_SERVICES is set, and are skipped (saying why) otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from service import create_app
from service.db import migrate, normalise_url
from tests.reading_guard import ReadingGuard
from tests.smtp_sink import SmtpSink

PG_SERVER = os.environ.get("TEST_POSTGRES_SERVER", "postgresql+psycopg://postgres@127.0.0.1:5432")
REDIS_SERVER = os.environ.get("TEST_REDIS_SERVER", "redis://127.0.0.1:6379")
TABLES = (
    "picture_changes",
    "club_events",
    "clubs",
    "bounces",
    "channels",
    "table_talk",
    "inbound_mails",
    "queued_plays",
    "game_requests",
    "rematches",
    "address_requests",
    "digests",
    "turn_clocks",
    "vacations",
    "outbox",
    "commands",
    "events",
    "seats",
    "games",
)
REQUIRE_SERVICES = bool(os.environ.get("CI") or os.environ.get("PBEM_REQUIRE_SERVICES"))
# Several checkouts may test on one machine at once: each sets its own database prefix and Redis range.
TEST_DB_PREFIX = os.environ.get("PBEM_TEST_DB_PREFIX", "pbem_test")
TEST_REDIS_TOP = int(os.environ.get("PBEM_TEST_REDIS_TOP", "15"))


def unavailable(service: str, error: Exception) -> None:
    """Fail (in CI) or skip (on a machine without the service) with the reason."""
    message = f"{service} is not reachable ({type(error).__name__}: {error})"
    if REQUIRE_SERVICES:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def xdist_index(worker_id: str) -> int:
    """0 for the main process or the first xdist worker (gw0), 1 for gw1..."""
    return int(worker_id[2:]) if worker_id.startswith("gw") else 0


@pytest.fixture(scope="session")
def pg_url(worker_id: str) -> str:
    """A database of this test process's own, created afresh and migrated once per session."""
    name = f"{TEST_DB_PREFIX}_{xdist_index(worker_id)}"
    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            conn.execute(text(f"CREATE DATABASE {name}"))
    except Exception as error:
        unavailable("PostgreSQL", error)
    finally:
        admin.dispose()
    url = f"{PG_SERVER}/{name}"
    migrate(url)
    return url


@pytest.fixture
def clean_pg(pg_url: str) -> str:
    """The test database with every table emptied (TRUNCATE: the append-only trigger is per row)."""
    engine = create_engine(normalise_url(pg_url))
    with engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    engine.dispose()
    return pg_url


@pytest.fixture(scope="session")
def redis_url(worker_id: str) -> str:
    """A Redis database of this test process's own (15, 14, ... by default), emptied once per session."""
    url = f"{REDIS_SERVER}/{TEST_REDIS_TOP - xdist_index(worker_id)}"
    try:
        redis.Redis.from_url(url).flushdb()
    except Exception as error:
        unavailable("Redis", error)
    return url


def app_config(tmp_path: Path, database_url: str | None, **extra: Any) -> dict[str, Any]:
    """Test settings: a fixed secret, links under http://localhost, the given database. Mail is kept
    for the outbox on purpose (LOCAL_OUTBOX) and http links are allowed, also on PostgreSQL or with
    Redis, where a real deployment must ask for both. The rate limits are off (a test plays many
    requests a minute from one client); the tests of the limits turn them on."""
    return {
        "DATABASE_URL": database_url or f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "RUN_MIGRATIONS": True,
        "SECRET_KEY": "test-secret",
        "BASE_URL": "http://localhost",
        "REDIS_URL": None,
        "SMTP_HOST": None,
        "LOCAL_OUTBOX": True,
        "ALLOW_HTTP_BASE_URL": True,
        "RATE_LIMITS": False,
        "MOVE_WAIT_SECONDS": 0.0,
        **extra,
    }


@contextmanager
def embedded_app(tmp_path: Path, database_url: str | None) -> Iterator[Flask]:
    """The embedded app (tasks in-process, mail kept) inside its app context, its pool closed after."""
    flask_app = create_app(app_config(tmp_path, database_url))
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The embedded app on SQLite and on the real PostgreSQL."""
    url = request.getfixturevalue("clean_pg") if request.param == "postgres" else None
    with embedded_app(tmp_path, url) as flask_app:
        yield flask_app


@pytest.fixture
def pg_app(clean_pg: str, tmp_path: Path) -> Iterator[Flask]:
    """The embedded app on the real PostgreSQL only (for what only PostgreSQL does)."""
    with embedded_app(tmp_path, clean_pg) as flask_app:
        yield flask_app


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    """The embedded app on SQLite only (for pages and words, which do not depend on the database)."""
    with embedded_app(tmp_path, None) as flask_app:
        yield flask_app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    """A running SMTP server that keeps what it receives."""
    sink = SmtpSink()
    sink.start()
    yield sink
    sink.stop()


READING_GUARD = ReadingGuard()
template_rendered.connect(READING_GUARD)  # every render of every test, pages and mails


@pytest.fixture(autouse=True)
def templates_get_no_table_or_state() -> Iterator[None]:
    """Fail a test in which any template was given a Table, Replay, rules state or event list."""
    READING_GUARD.violations.clear()
    yield
    assert READING_GUARD.violations == [], "templates were given the whole truth"
