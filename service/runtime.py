"""What the service's plain functions need at run time, built once by the app factory."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from flask import current_app
from sqlalchemy import Connection, Engine, and_
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlmodel import Session, col, select

from rules.table import KEEPER
from service.db import retry_on_disconnect
from service.eventlog.models import GameRecord, GameStatus, MailStatus, OutboxMail, SeatRecord, TurnClock
from service.eventlog.store import (
    EventLog,
    FoldCache,
    GameRows,
    Table,
    current_version,
    game_and_seats,
    load_table,
    lock_game,
    read_events,
)
from service.links import LinkSigner
from service.replay.steps import Replay

log = logging.getLogger(__name__)
T = TypeVar("T")
# A change to one game inside its unit of work: what it returns, and the mails it wrote.
Change = Callable[[Session, Table], tuple[T, Sequence[OutboxMail]]]


class Clock:
    """Wall and monotonic time; tests substitute a controllable one."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class Listener(Protocol):
    """Waits for word that a command was decided."""

    def wait(self, seconds: float) -> bool:
        """Block until word comes (True) or `seconds` pass (False)."""
        ...


class Dispatcher(Protocol):
    """Hands work to the task queue (in-process in embedded mode), and tells whoever waits on a
    command that it was decided."""

    def apply_move(self, command_id: int, game_id: str) -> None: ...

    def send_mails(self, mail_ids: list[int]) -> None: ...

    def mail_backlog(self) -> int:
        """How many mail tasks wait on the broker now (0 where none can wait, or it cannot tell)."""
        ...

    def play_bots(self, game_id: str) -> None:
        """Have the worker play the automatic moves a game waits on (a search bot's)."""
        ...

    def table_ended(self, game_id: str) -> None:
        """Tell the worker a game just ended (a club season starts its next tables)."""
        ...

    def listen(self, command_id: int) -> AbstractContextManager[Listener | None]:
        """Word of the command's decision from now on; None where there is no such word (the
        waiter reads the database instead)."""
        ...

    def decided(self, command_ids: list[int]) -> None:
        """Tell the listeners that these commands were decided (after the commit)."""
        ...


@dataclass
class Runtime:
    settings: dict[str, Any]
    engine: Engine
    signer: LinkSigner
    dispatch: Dispatcher
    cache: FoldCache[Any] = field(default_factory=FoldCache)
    replays: FoldCache[Replay] = field(default_factory=lambda: FoldCache(64))
    clock: Clock = field(default_factory=Clock)

    @property
    def mail_configured(self) -> bool:
        """Whether mail goes out by SMTP (otherwise it is kept for the outbox page)."""
        return bool(self.settings["SMTP_HOST"])

    def reading(self) -> Session:
        """A session for reads only, to use in a `with` (its objects come out detached). Within a
        `shared_reads` scope (a web request, a task) every such session shares the scope's one
        connection, in autocommit: each statement sees what was committed when it ran, as the short
        transaction of each read did, while a page's many reads (or a move's mails) cost one pool
        checkout and its ping instead of a checkout, a ping, a BEGIN and a ROLLBACK each. Inside a
        game's unit of work, reads share its transaction: the mails a move causes read what the
        move wrote (the words sent with it), not only what was committed before."""
        return Session(self._read_bind(), expire_on_commit=False)

    def _read_bind(self) -> Engine | Connection:
        writing = _WRITING.get()
        if writing is not None:
            return writing
        scope = _SHARED_READS.get()
        if scope is None:
            return self.engine
        connection = scope.get(self.engine)
        if connection is None:
            connection = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            scope[self.engine] = connection
        return connection

    @staticmethod
    @contextmanager
    def shared_reads() -> Iterator[None]:
        """A scope (a web request, a task) whose read sessions share one connection per engine,
        given back to the pool when it ends."""
        scope: dict[Engine, Connection] = {}
        token = _SHARED_READS.set(scope)
        try:
            yield
        finally:
            _SHARED_READS.reset(token)
            for connection in scope.values():
                connection.close()

    def read_table(self, game_id: str, known: GameRows | None = None) -> Table:
        """A game's table, read only (GameNotFound if there is none), from its rows if they were just
        read (`known`); its log, if something asks for it, is read as it was (`read_log`)."""
        return self.read_riding_out(
            lambda session: load_table(
                session, game_id, self.cache, read_log=lambda upto: self.read_log(game_id, upto), known=known
            )
        )

    def read_game_rows(self, game_id: str) -> GameRows:
        """A game's row, seats and picture stamp (GameNotFound if there is none)."""
        return self.read_riding_out(lambda session: game_and_seats(session, game_id))

    def read_log(self, game_id: str, upto: int) -> EventLog:
        """A game's log up to the event numbered `upto`."""
        return self.read_riding_out(lambda session: read_events(session, game_id, upto))

    def read_version(self, game_id: str) -> int:
        """A game's current version, without loading its table."""
        return self.read_riding_out(lambda session: current_version(session, game_id))

    def read_riding_out(self, read: Callable[[Session], T]) -> T:
        """`read` in a reading session, tried again while the database restarts, each time on a new
        connection (a restart closed the shared one)."""

        def attempt() -> T:
            try:
                with self.reading() as session:
                    return read(session)
            except (DBAPIError, PoolTimeout):
                self._drop_shared_read()
                raise

        return retry_on_disconnect(attempt)

    def _drop_shared_read(self) -> None:
        """Forget the current scope's read connection (the next read opens another)."""
        scope = _SHARED_READS.get()
        connection = scope.pop(self.engine, None) if scope is not None else None
        if connection is not None:
            connection.close()

    def in_game(self, game_id: str, change: Change[T]) -> T:
        """The unit of work of a writer of a game's rows that makes no step (settings, links, the
        outbox's rows): lock the game, load its table, let `change` change it, commit, then hand
        the mails `change` wrote to the task queue. Returns what `change` returned first. (A step,
        a move or a decision about the table, goes through service/play/master.py.)"""
        done = self._unit_of_work(game_id, change, wait=True)
        assert done is not None
        return done[0]

    def in_game_if_free(self, game_id: str, change: Change[T]) -> tuple[T] | None:
        """`in_game`, unless another writer holds the game now: then None at once (the beat looks
        at the game again on its next run)."""
        return self._unit_of_work(game_id, change, wait=False)

    def _unit_of_work(self, game_id: str, change: Change[T], wait: bool) -> tuple[T] | None:
        with self.locked_game(game_id, wait) as unit:
            if unit is None:
                return None
            value, mails = change(unit.session, unit.table)
            unit.mails.extend(mails)
        return (value,)

    @contextmanager
    def locked_game(self, game_id: str, wait: bool = True) -> Iterator[Unit | None]:
        """A game's unit of work: the game locked and its table loaded as the block begins (None at
        once when `wait` is False and another writer holds it), committed as the block ends, then
        the unit's mails handed to the task queue. Reads of this context join its transaction until
        the commit; an error in the block rolls everything back."""
        with Session(self.engine, expire_on_commit=False) as session:
            if not lock_game(session, game_id, wait=wait):
                yield None
                return
            token = _WRITING.set(session.connection())
            try:
                unit = Unit(session, load_table(session, game_id, self.cache))
                yield unit
            finally:
                _WRITING.reset(token)
            self.commit_and_send(session, game_id, unit.mails)
            if unit.table.active and _ended(session, game_id):
                self.dispatch.table_ended(game_id)

    def commit_and_send(self, session: Session, game_id: str, mails: Sequence[OutboxMail]) -> None:
        """Commit a game's unit of work, then hand its mails to the task queue, and the game to the
        worker when it waits on a search bot's move this context left (due now, not at the beat's
        next tick)."""
        session.add_all(mail for mail in mails if mail.id is None)  # the others are written already
        session.commit()
        now = self.clock.now()
        mail_ids = [mail.id for mail in mails if mail.id is not None and due_now(mail, now)]
        bots_owed = not searching_now() and search_bot_owed(session, game_id)
        self.dispatch.send_mails(mail_ids)
        if bots_owed:
            self.dispatch.play_bots(game_id)

    def link(self, path: str) -> str:
        """An absolute URL for mail, under BASE_URL."""
        return str(self.settings["BASE_URL"]).rstrip("/") + path


@dataclass
class Unit:
    """A game's unit of work under way: its session, its table as loaded under the lock, and the
    mails written so far (committed with it)."""

    session: Session
    table: Table
    mails: list[OutboxMail] = field(default_factory=list)


def _ended(session: Session, game_id: str) -> bool:
    """Whether the game's row (as this unit of work left it) says it is over."""
    record = session.get(GameRecord, game_id)
    return record is not None and record.status != GameStatus.ACTIVE


# The connection of the game's unit of work running in this context, if any: reads join it.
_WRITING: ContextVar[Connection | None] = ContextVar("writing", default=None)

# Whether this context may run a search bot (up to a second of CPU a move): only the worker's and
# the beat's tasks, never a web request. Elsewhere the automatic moves stop at a search bot's seat,
# whose clock stays open and marked automatic, and the unit of work sends the worker to play it.
_SEARCHING: ContextVar[bool] = ContextVar("searching", default=False)
# The connections of the current `shared_reads` scope, by engine (None outside one).
_SHARED_READS: ContextVar[dict[Engine, Connection] | None] = ContextVar("shared_reads", default=None)


@contextmanager
def searching() -> Iterator[None]:
    """Let the search bots move within this block (the worker's tasks)."""
    token = _SEARCHING.set(True)
    try:
        yield
    finally:
        _SEARCHING.reset(token)


def searching_now() -> bool:
    """Whether search bots may move in this context."""
    return _SEARCHING.get()


def search_bot_owed(session: Session, game_id: str) -> bool:
    """Whether the game waits on a search bot's move that nobody has made yet. (The seat-keeper's
    moves left over past a unit's cap are the beat's, in steps: a table of silent seats must not
    play itself out in one burst of units.)"""
    owed = (
        select(TurnClock.id)
        .join(
            SeatRecord,
            and_(col(SeatRecord.game_id) == TurnClock.game_id, col(SeatRecord.seat) == TurnClock.seat),
        )
        .where(
            TurnClock.game_id == game_id,
            col(TurnClock.settled_at).is_(None),
            col(TurnClock.automatic),
            col(SeatRecord.bot_level).is_not(None),
            col(SeatRecord.bot_level) != KEEPER,
        )
    )
    return session.exec(owed.limit(1)).first() is not None


def runtime() -> Runtime:
    """The runtime of the current Flask app."""
    found: Runtime = current_app.extensions["pbem"]
    return found


def due_now(mail: OutboxMail, now: datetime) -> bool:
    """Whether a row just written goes to the task queue now: a pending one due now (a table
    channel's notice spaced a minute after its last is left for the sweep), and one whose bodies
    wait to be drafted (kept mail too: the task drafts it)."""
    return (mail.status == MailStatus.PENDING and mail.next_attempt_at <= now) or mail.draft is not None
