"""The event store: a game's log loaded and folded, and appends guarded by the expected version.

Folded states are immutable, so the newest state of recently used games is cached per process and
only the events appended since are read and folded on the next load. A game the cache does not hold
is folded on from its snapshot (service/eventlog/snapshots.py), and its log is read only when
something asks for it (the replay, the pace, the record): a cold read costs the events since the
snapshot, whatever the log's length.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy import bindparam, insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select, update

from rules import Game, get_game
from rules.table import DEADLINE_EXTENDED
from service.eventlog.models import EventOrigin, EventRecord, GameRecord, GameStatus, SeatRecord
from service.eventlog.owing import Owes, Owing
from service.eventlog.snapshots import SNAPSHOT_EVERY, Snapshot, read_snapshot, write_snapshot
from service.eventlog.stamps import STAMP_COLUMN


def fold_on(
    rules: Game[Any], state: Any, owing: Owing, events: list[dict[str, Any]], first_seq: int
) -> tuple[Any, Owing]:
    """The state and who owes since when after `events`, numbered from `first_seq`, folded on from
    `state` and `owing` (so a move costs its own events, never the whole log)."""
    for seq, event in enumerate(events, start=first_seq):
        state = rules.apply(state, event)
        owing = {seat: owing.get(seat) or Owes(seq) for seat in sorted(rules.to_act(state))}
        if event["type"] == DEADLINE_EXTENDED and event["seat"] in owing:
            owing = {
                **owing,
                event["seat"]: replace(owing[event["seat"]], granted_seq=seq, granted_days=event["days"]),
            }
    return state, owing


# States kept after the latest events of a table, so that a move made on a page a few events old is
# judged without folding the log again (a page older than that costs one fold).
RECENT_STATES = 32


def fold_keeping(
    rules: Game[Any],
    state: Any,
    owing: Owing,
    recent: tuple[Any, ...],
    events: list[dict[str, Any]],
    first_seq: int,
) -> tuple[Any, Owing, tuple[Any, ...]]:
    """`fold_on`, keeping the states after the latest RECENT_STATES events (`recent`, oldest first)."""
    kept = list(recent)
    for seq, event in enumerate(events, start=first_seq):
        state, owing = fold_on(rules, state, owing, [event], seq)
        kept.append(state)
    return state, owing, tuple(kept[-RECENT_STATES:])


class VersionConflict(Exception):
    """Another writer appended to the game first; reload and decide again."""


class GameNotFound(LookupError):
    """No game with that id."""


@dataclass(frozen=True)
class EventLog:
    """A game's events with who acted for each, how, when, and the action on the first event of each
    move: five tuples in parallel, one entry per event."""

    events: tuple[dict[str, Any], ...] = ()
    actors: tuple[int | None, ...] = ()
    origins: tuple[str, ...] = ()
    times: tuple[datetime, ...] = ()
    actions: tuple[dict[str, Any] | None, ...] = ()

    def __add__(self, other: EventLog) -> EventLog:
        return EventLog(
            self.events + other.events,
            self.actors + other.actors,
            self.origins + other.origins,
            self.times + other.times,
            self.actions + other.actions,
        )

    @classmethod
    def of_rows(cls, rows: Sequence[EventRecord]) -> EventLog:
        return cls(
            tuple(event_from_row(row) for row in rows),
            tuple(row.seat for row in rows),
            tuple(row.origin for row in rows),
            tuple(row.created_at for row in rows),
            tuple(row.action for row in rows),
        )


class LazyLog:
    """A table's log, read at its first use and kept (a page that needs only the state never reads
    it)."""

    def __init__(self, read: Callable[[], EventLog] | None = None, log: EventLog | None = None) -> None:
        self._read = read
        self._log = log

    @classmethod
    def known(cls, log: EventLog) -> LazyLog:
        return cls(log=log)

    @property
    def loaded(self) -> EventLog | None:
        """The log if it was read already."""
        return self._log

    def __call__(self) -> EventLog:
        if self._log is None:
            assert self._read is not None
            self._log = self._read()
            self._read = None
        return self._log

    def then(self, tail: EventLog) -> LazyLog:
        """This log followed by `tail` (read when it is first used, if this one was not yet)."""
        if self._log is not None:
            return LazyLog.known(self._log + tail)
        return LazyLog(lambda: self() + tail)


@dataclass(frozen=True)
class Table:
    """A game as loaded: its record, seats, version and folded state, and its log (read when first
    used: `events`, `actors`, `origins`, `times` and `actions`, one entry per event)."""

    record: GameRecord
    seats: tuple[SeatRecord, ...]
    version: int  # the sequence number of the last event (events are numbered from 1)
    state: Any
    owing: Owing
    recent: tuple[Any, ...]  # the states after the latest events, oldest first (the last is `state`)
    log: LazyLog
    # The version of the stored snapshot this table was folded on from (0: none that decodes), None
    # when it came from the per-process cache: then only a multiple of SNAPSHOT_EVERY writes one.
    snapshot_version: int | None = None
    stamp: int = 0  # the game's picture stamp, read with its row (service/eventlog/stamps.py)

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        return self.log().events

    @property
    def actors(self) -> tuple[int | None, ...]:
        return self.log().actors

    @property
    def origins(self) -> tuple[str, ...]:
        return self.log().origins

    @property
    def times(self) -> tuple[datetime, ...]:
        return self.log().times

    @property
    def actions(self) -> tuple[dict[str, Any] | None, ...]:
        return self.log().actions

    @property
    def game_id(self) -> str:
        return self.record.id

    @property
    def rules(self) -> Game[Any]:
        return get_game(self.record.game)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def status(self) -> GameStatus:
        """Running, finished or cancelled, from the fold of the log alone."""
        return status_of(self.rules, self.state)

    @property
    def active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    @property
    def result(self) -> dict[str, Any] | None:
        """The rules' result (a forfeit's too: it is an event of the log)."""
        return self.rules.result(self.state)

    @property
    def finished_at(self) -> datetime | None:
        """When the event that ended the game was appended (None while it runs)."""
        return None if self.active or not self.version else self.times[-1]

    def state_at(self, version: int) -> Any:
        """The state after the event numbered `version` (1..version): kept if recent, else folded."""
        back = self.version - version
        if back < len(self.recent):
            return self.recent[-1 - back]
        return self.rules.fold(list(self.events[:version]))

    def at(self, version: int) -> Table:
        """The table as it stood after the event numbered `version` (its record and seats as they
        are now): itself at its own version, else its log up to there folded again."""
        if version == self.version:
            return self
        assert 0 <= version < self.version, "a table knows only its own past"
        log = self.log()
        past = EventLog(
            log.events[:version],
            log.actors[:version],
            log.origins[:version],
            log.times[:version],
            log.actions[:version],
        )
        state, owing, recent = fold_keeping(self.rules, None, {}, (), list(past.events), 1)
        return replace(
            self,
            version=version,
            state=state,
            owing=owing,
            recent=recent,
            log=LazyLog.known(past),
            snapshot_version=None,
        )

    def starts_move(self, index: int) -> bool:
        """Whether the event at `index` is the first of a move (it carries the move's action)."""
        return self.actions[index] is not None

    def extended(
        self,
        events: list[dict[str, Any]],
        seat: int | None,
        action: dict[str, Any],
        origin: str,
        now: datetime,
    ) -> Table:
        """The table once one move's events are appended (folded on from this state, not reloaded)."""
        state, owing, recent = fold_keeping(
            self.rules, self.state, self.owing, self.recent, events, self.version + 1
        )
        count = len(events)
        tail = EventLog(
            tuple(events),
            (seat,) * count,
            (origin,) * count,
            (now,) * count,
            (action,) + (None,) * (count - 1),
        )
        return replace(
            self,
            version=self.version + count,
            state=state,
            owing=owing,
            recent=recent,
            log=self.log.then(tail),
        )


@dataclass(frozen=True)
class _Folded:
    version: int
    state: Any
    owing: Owing
    recent: tuple[Any, ...]
    log: EventLog | None  # None: not read (a cold read from a snapshot)


class Logged(Protocol):
    """Something folded from a game's log (a state, or a replay), up to a version."""

    @property
    def version(self) -> int: ...


F = TypeVar("F", bound=Logged)


class FoldCache(Generic[F]):
    """The newest fold of the most recently used games, per process (a later version replaces an
    earlier one, never the other way round)."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._items: OrderedDict[str, F] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> F | None:
        with self._lock:
            item = self._items.get(game_id)
            if item is not None:
                self._items.move_to_end(game_id)
            return item

    def put(self, game_id: str, item: F) -> None:
        with self._lock:
            current = self._items.get(game_id)
            if current is None or current.version <= item.version:
                self._items[game_id] = item
                self._items.move_to_end(game_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def event_from_row(row: EventRecord) -> dict[str, Any]:
    """The rules' event dict stored in a row."""
    return {"type": row.type, "v": row.v, **row.data}


# The reads every page, JSON read and move makes, each built once: building a statement and its cache
# key costs SQLAlchemy more CPU than PostgreSQL spends running it.
_GAME_AND_SEATS = (
    select(GameRecord, SeatRecord, STAMP_COLUMN)
    .outerjoin(SeatRecord, col(SeatRecord.game_id) == col(GameRecord.id))
    .where(col(GameRecord.id) == bindparam("game_id"))
    .order_by(col(SeatRecord.seat))
)
_EVENTS_AFTER = (
    select(EventRecord)
    .where(col(EventRecord.game_id) == bindparam("game_id"), col(EventRecord.seq) > bindparam("after"))
    .order_by(col(EventRecord.seq))
)
_EVENTS_UPTO = (
    select(EventRecord)
    .where(col(EventRecord.game_id) == bindparam("game_id"), col(EventRecord.seq) <= bindparam("upto"))
    .order_by(col(EventRecord.seq))
)
_INSERT_EVENTS = insert(EventRecord.__table__)  # type: ignore[attr-defined]
_LAST_SEQ = select(func.max(EventRecord.seq)).where(col(EventRecord.game_id) == bindparam("game_id"))
_LOCK_GAME = select(GameRecord.id).where(col(GameRecord.id) == bindparam("game_id"))
_LOCK_GAME_WAITING = _LOCK_GAME.with_for_update(key_share=True)
_LOCK_GAME_OR_SKIP = _LOCK_GAME.with_for_update(key_share=True, skip_locked=True)


@dataclass(frozen=True)
class GameRows:
    """A game's row, its seats in seat order and its picture stamp, read together."""

    record: GameRecord
    seats: list[SeatRecord]
    stamp: int


def game_and_seats(session: Session, game_id: str) -> GameRows:
    """A game's row, its seats and its picture stamp, in one round trip (GameNotFound if there is
    none)."""
    rows = session.exec(_GAME_AND_SEATS, params={"game_id": game_id}).all()
    if not rows:
        raise GameNotFound(game_id)
    return GameRows(rows[0][0], [seat for _, seat, _ in rows if seat is not None], int(rows[0][2]))


def load_table(
    session: Session,
    game_id: str,
    cache: FoldCache[_Folded] | None = None,
    *,
    read_log: Callable[[int], EventLog] | None = None,
    snapshots: bool = True,
    known: GameRows | None = None,
) -> Table:
    """A game folded to its newest event: on from the cache's fold (reading only the new tail, and no
    event when it holds the whole log), else on from its stored snapshot (unless `snapshots` is off:
    the fold of the whole log, trusting no cache). Its log is read when first used, by `read_log`
    (up to a version; by default in `session`). `known`: the game's rows as just read, not read again."""
    rows_read = known or game_and_seats(session, game_id)
    record, seats, stamp = rows_read.record, rows_read.seats, rows_read.stamp
    rules = get_game(record.game)
    folded = cache.get(game_id) if cache else None
    snapshot_version: int | None = None
    if folded is None:
        snapshot = read_snapshot(session, game_id) if snapshots else None
        snapshot_version = snapshot.version if snapshot else 0
        folded = _from_snapshot(snapshot) if snapshot else _Folded(0, None, {}, (), EventLog())
    rows: Sequence[EventRecord] = ()
    if folded.version != record.version or not snapshots:
        rows = session.exec(_EVENTS_AFTER, params={"game_id": game_id, "after": folded.version}).all()
    if rows and rows[0].seq != folded.version + 1:  # the cache holds a fold of another log
        return load_table(session, game_id, None, read_log=read_log, snapshots=snapshots, known=rows_read)
    tail = EventLog.of_rows(rows)
    state, owing, recent = fold_keeping(
        rules, folded.state, folded.owing, folded.recent, list(tail.events), folded.version + 1
    )
    version = folded.version + len(rows)
    log = folded.log + tail if folded.log is not None else None
    folded = _Folded(version, state, owing, recent, log)
    if cache is not None and (rows or snapshot_version is not None):
        cache.put(game_id, folded)
    if log is not None:
        lazy = LazyLog.known(log)
    else:
        reader = read_log or _reader(session, game_id)
        lazy = LazyLog(_kept(lambda: reader(version), cache, game_id, folded))
    return Table(record, tuple(seats), version, state, owing, recent, lazy, snapshot_version, stamp)


def _from_snapshot(snapshot: Snapshot) -> _Folded:
    """The fold a snapshot holds (its log not read)."""
    return _Folded(snapshot.version, snapshot.state, snapshot.owing, (snapshot.state,), None)


def _kept(
    read: Callable[[], EventLog], cache: FoldCache[_Folded] | None, game_id: str, folded: _Folded
) -> Callable[[], EventLog]:
    """`read`, whose log the cache keeps with the fold once it is read (the next page reads none)."""

    def reading() -> EventLog:
        log = read()
        if cache is not None:
            cache.put(game_id, replace(folded, log=log))
        return log

    return reading


def _reader(session: Session, game_id: str) -> Callable[[int], EventLog]:
    """How a table loaded in `session` reads its log later: in the session's transaction while it
    has one (a writer's unit of work), else in a session of its own, closed at once: reusing a
    closed session would begin a transaction that nobody ends, holding its connection and locks."""

    def read(upto: int) -> EventLog:
        if session.in_transaction():
            return read_events(session, game_id, upto)
        with Session(session.get_bind()) as own:
            return read_events(own, game_id, upto)

    return read


def read_events(session: Session, game_id: str, upto: int) -> EventLog:
    """A game's log up to the event numbered `upto`."""
    return EventLog.of_rows(session.exec(_EVENTS_UPTO, params={"game_id": game_id, "upto": upto}).all())


def current_version(session: Session, game_id: str) -> int:
    """The sequence number of a game's last event, in one indexed read (0 before any event)."""
    return session.exec(_LAST_SEQ, params={"game_id": game_id}).one() or 0


def append_events(
    session: Session,
    game_id: str,
    expected_version: int,
    events: list[dict[str, Any]],
    seat: int | None,
    action: dict[str, Any] | None = None,
    origin: str = EventOrigin.PLAYER,
    *,
    now: datetime,
) -> None:
    """Add events after `expected_version`, appended at `now`; VersionConflict if someone else
    appended first.

    `seat` made the move `action` (kept on the first event) and `origin` says how it was made.
    The unique (game_id, seq) constraint makes the database the judge: a concurrent writer's
    insert of the same seq fails instead of overwriting. The game row's `version` moves on in the
    same statement as the append (loading trusts it; `pbem rebuild` repairs it from the log).
    """
    rows = [
        {
            "game_id": game_id,
            "seq": expected_version + offset,
            "type": event["type"],
            "v": event["v"],
            "data": {k: v for k, v in event.items() if k not in ("type", "v")},
            "seat": seat,
            "action": action if offset == 1 else None,
            "origin": origin,
            "created_at": now,
        }
        for offset, event in enumerate(events, start=1)
    ]
    try:
        session.execute(_INSERT_EVENTS, rows)  # one executemany, not the ORM's unit of work
    except IntegrityError as error:
        session.rollback()
        raise VersionConflict(game_id) from error
    new_version = expected_version + len(events)
    session.exec(update(GameRecord).where(col(GameRecord.id) == game_id).values(version=new_version))


def append_move(
    session: Session,
    table: Table,
    seat: int | None,
    action: dict[str, Any],
    events: list[dict[str, Any]],
    origin: str,
    now: datetime,
) -> Table:
    """Append one move's events after the table's version (`seat` None: a decision of the game or
    its host); the table after them. A snapshot is stored with them when the log passes a multiple
    of SNAPSHOT_EVERY, or lies that far past the snapshot the table was folded on from."""
    append_events(session, table.game_id, table.version, events, seat, action, origin, now=now)
    after = table.extended(events, seat, action, origin, now)
    return keep_snapshot(session, after) if snapshot_due(table, after) else after


def snapshot_due(before: Table, after: Table) -> bool:
    """Whether the append that made `after` of `before` stores a snapshot."""
    if after.version // SNAPSHOT_EVERY > before.version // SNAPSHOT_EVERY:
        return True
    return after.snapshot_version is not None and after.version - after.snapshot_version >= SNAPSHOT_EVERY


def keep_snapshot(session: Session, table: Table) -> Table:
    """Store the table's fold as the game's snapshot, in `session`'s transaction."""
    write_snapshot(session, table.game_id, Snapshot(table.version, table.state, table.owing))
    return replace(table, snapshot_version=table.version)


def status_of(rules: Game[Any], state: Any) -> GameStatus:
    """A game's status as its log tells it."""
    if rules.table.cancelled(state):
        return GameStatus.CANCELLED
    return GameStatus.ACTIVE if rules.result(state) is None else GameStatus.FINISHED


def lock_game(session: Session, game_id: str, wait: bool = True) -> bool:
    """Make this transaction the only writer of a game until it ends; False if `wait` is off and
    another holds it. Every writer of events, seats and clocks takes it first, so they queue instead
    of deadlocking. PostgreSQL locks the game's row (FOR NO KEY UPDATE, so inserts that merely
    reference the game are not held up); SQLite locks the whole database on a transaction's first
    write, so a no-op write takes it now, before anything is read."""
    if session.get_bind().dialect.name == "postgresql":
        query = _LOCK_GAME_WAITING if wait else _LOCK_GAME_OR_SKIP
        return session.exec(query, params={"game_id": game_id}).first() is not None
    session.exec(update(GameRecord).where(col(GameRecord.id) == game_id).values(id=GameRecord.id))
    return True
