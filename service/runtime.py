"""What the service's plain functions need at run time, built once by the app factory."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from flask import current_app
from sqlalchemy import Engine
from sqlmodel import Session

from service.eventlog.store import FoldCache, Table, load_table
from service.links import LinkSigner
from service.replay.steps import Replay

log = logging.getLogger(__name__)


class Clock:
    """Wall and monotonic time; tests substitute a controllable one."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class Dispatcher(Protocol):
    """Hands work to the task queue (in-process in embedded mode)."""

    def apply_move(self, command_id: int) -> None: ...

    def send_mails(self, mail_ids: list[int]) -> None: ...


@dataclass
class Runtime:
    settings: dict[str, Any]
    engine: Engine
    signer: LinkSigner
    dispatch: Dispatcher
    cache: FoldCache = field(default_factory=FoldCache)
    replays: FoldCache[Replay] = field(default_factory=lambda: FoldCache(64))
    clock: Clock = field(default_factory=Clock)

    @property
    def mail_configured(self) -> bool:
        """Whether mail goes out by SMTP (otherwise it is kept for the outbox page)."""
        return bool(self.settings["SMTP_HOST"])

    def read_table(self, game_id: str) -> Table:
        """A game's table, read only (GameNotFound if there is none)."""
        with Session(self.engine, expire_on_commit=False) as session:
            return load_table(session, game_id, self.cache)

    def link(self, path: str) -> str:
        """An absolute URL for mail, under BASE_URL."""
        return self.settings["BASE_URL"].rstrip("/") + path


def runtime() -> Runtime:
    """The runtime of the current Flask app."""
    return current_app.extensions["pbem"]
