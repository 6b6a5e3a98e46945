"""The database engine, sessions and migrations (Alembic, run on start in embedded mode)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import ColumnElement, Engine, event, func, or_
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Mapped
from sqlmodel import create_engine

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).parent / "eventlog" / "migrations"
# A restarting PostgreSQL refuses connections for one to ten seconds: a transaction is tried again
# after pauses doubling from the first to the longest, until RIDE_OUT_SECONDS have passed.
FIRST_PAUSE_SECONDS = 0.1
LONGEST_PAUSE_SECONDS = 1.0
RIDE_OUT_SECONDS = 12.0
POOL_SIZE = 8  # connections kept open per process (see make_engine)
CONNECT_TIMEOUT_SECONDS = 5  # a database that does not answer fails the request (503) rather than hang it
T = TypeVar("T")


def make_engine(url: str) -> Engine:
    """An engine for the URL; SQLite gets WAL and a busy timeout so web and tasks can share it."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # Pre-ping: a pooled connection that a database restart closed is replaced at checkout instead
    # of failing the first request or task after the restart (one round trip per checkout).
    # A thread holds at most two connections at once (its request's reads and a write), so the pool
    # keeps POOL_SIZE open: two for each of gunicorn's 4 threads, where a smaller pool made every
    # busy moment open and close overflow connections (a new PostgreSQL backend each). Connections
    # are opened on demand: a Celery process, one task at a time, keeps one or two.
    return create_engine(
        url,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
        pool_pre_ping=True,
        pool_recycle=300,
        pool_size=POOL_SIZE,
        max_overflow=10,
        pool_timeout=10,
    )


def normalise_url(url: str) -> str:
    """postgres:// and postgresql:// URLs use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def database_unavailable(error: BaseException) -> bool:
    """Whether `error` says the database cannot be reached now (down, restarting, connection dropped,
    pool exhausted) rather than that the statement was wrong."""
    if isinstance(error, OperationalError | InterfaceError | PoolTimeout):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


def retry_on_disconnect(work: Callable[[], T], ride_out: float = RIDE_OUT_SECONDS) -> T:
    """`work` (one whole transaction, safe to run again), run again after pauses with backoff while
    the database connection drops or cannot be made, for up to `ride_out` seconds."""
    deadline = time.monotonic() + ride_out
    pause = FIRST_PAUSE_SECONDS
    while True:
        try:
            return work()
        except (DBAPIError, PoolTimeout) as error:
            if not database_unavailable(error) or time.monotonic() + pause > deadline:
                raise
            log.warning("database unavailable, trying again in %.1f s: %s", pause, error)
        time.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE_SECONDS)


def _sqlite_pragmas(dbapi_connection: Any, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config(url: str) -> Config:
    """Alembic's configuration pointing at our migrations and the given database."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    return config


def migrate(url: str) -> None:
    """Bring the database schema to the newest migration."""
    command.upgrade(alembic_config(url), "head")


def reaches_mailbox(address: Mapped[str], box: str) -> ColumnElement[bool]:
    """Whether a stored address reaches the mailbox `box` (as `links.mailbox` names it): the address
    itself in any case, or a "+tag" of it, so that plus-addressing does not make one mailbox many."""
    local, _, domain = box.rpartition("@")
    stored = func.lower(address)
    return or_(stored == box, stored.like(f"{_like_literal(local)}+%@{_like_literal(domain)}", escape="\\"))


def _like_literal(text: str) -> str:
    """Text matched as itself by LIKE (its wildcards and escape character escaped)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
