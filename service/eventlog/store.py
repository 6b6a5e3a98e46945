"""The event store: a game's log loaded and folded, and appends guarded by the expected version.

Folded states are immutable, so the newest state of recently used games is cached per process and
only the events appended since are read and folded on the next load.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select, update

from rules import Game, get_game
from rules.table import DEADLINE_EXTENDED
from service.eventlog.models import EventOrigin, EventRecord, GameRecord, GameStatus, SeatRecord


@dataclass(frozen=True)
class Owes:
    """A seat owes a move since the event numbered `since_seq`, without a break (its turn clock runs
    from there), with the host's latest more time for that move: `granted_days` from the event
    numbered `granted_seq`."""

    since_seq: int
    granted_seq: int | None = None
    granted_days: int = 0


# Who owes a move: each seat the game waits on.
Owing = Mapping[int, Owes]


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
class Table:
    """A game as loaded: its record, seats, log (with who acted for each event, how, when, and the
    action on the first event of each move) and folded state. `events`, `actors`, `origins`,
    `times` and `actions` run in parallel, one entry per event."""

    record: GameRecord
    seats: tuple[SeatRecord, ...]
    events: tuple[dict[str, Any], ...]
    actors: tuple[int | None, ...]
    origins: tuple[str, ...]
    times: tuple[datetime, ...]
    actions: tuple[dict[str, Any] | None, ...]
    state: Any
    owing: Owing
    recent: tuple[Any, ...]  # the states after the latest events, oldest first (the last is `state`)

    @property
    def game_id(self) -> str:
        return self.record.id

    @property
    def rules(self) -> Game[Any]:
        return get_game(self.record.game)

    @property
    def version(self) -> int:
        """The sequence number of the last event (events are numbered from 1)."""
        return len(self.events)

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
        return None if self.active or not self.times else self.times[-1]

    def state_at(self, version: int) -> Any:
        """The state after the event numbered `version` (1..version): kept if recent, else folded."""
        back = self.version - version
        if back < len(self.recent):
            return self.recent[-1 - back]
        return self.rules.fold(list(self.events[:version]))

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
        return replace(
            self,
            events=self.events + tuple(events),
            actors=self.actors + (seat,) * count,
            origins=self.origins + (origin,) * count,
            times=self.times + (now,) * count,
            actions=self.actions + (action,) + (None,) * (count - 1),
            state=state,
            owing=owing,
            recent=recent,
        )


@dataclass(frozen=True)
class _Folded:
    events: tuple[dict[str, Any], ...]
    actors: tuple[int | None, ...]
    origins: tuple[str, ...]
    times: tuple[datetime, ...]
    actions: tuple[dict[str, Any] | None, ...]
    state: Any
    owing: Owing
    recent: tuple[Any, ...]


class Logged(Protocol):
    """Something folded from a game's log (a state with its log, or a replay)."""

    @property
    def events(self) -> tuple[dict[str, Any], ...]: ...


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
            if current is None or len(current.events) <= len(item.events):
                self._items[game_id] = item
                self._items.move_to_end(game_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def event_from_row(row: EventRecord) -> dict[str, Any]:
    """The rules' event dict stored in a row."""
    return {"type": row.type, "v": row.v, **row.data}


def game_and_seats(session: Session, game_id: str) -> tuple[GameRecord, list[SeatRecord]]:
    """A game's row and its seats in seat order, in one round trip (GameNotFound if there is none)."""
    rows = session.exec(
        select(GameRecord, SeatRecord)
        .outerjoin(SeatRecord, col(SeatRecord.game_id) == col(GameRecord.id))
        .where(GameRecord.id == game_id)
        .order_by(col(SeatRecord.seat))
    ).all()
    if not rows:
        raise GameNotFound(game_id)
    return rows[0][0], [seat for _, seat in rows if seat is not None]


def load_table(session: Session, game_id: str, cache: FoldCache[_Folded] | None = None) -> Table:
    """A game with its whole log folded (only the new tail when the cache holds an earlier fold, and
    no read of events when it holds the whole log)."""
    record, seats = game_and_seats(session, game_id)
    folded = cache.get(game_id) if cache else None
    since = len(folded.events) if folded else 0
    rows: Sequence[EventRecord] = ()
    if folded is None or since != record.version:
        rows = session.exec(
            select(EventRecord)
            .where(EventRecord.game_id == game_id, EventRecord.seq > since)
            .order_by(col(EventRecord.seq))
        ).all()
    rules = get_game(record.game)
    new_events = [event_from_row(row) for row in rows]
    if folded is None or (rows and rows[0].seq != since + 1):
        folded = _Folded((), (), (), (), (), None, {}, ())
    state, owing, recent = fold_keeping(
        rules, folded.state, folded.owing, folded.recent, new_events, len(folded.events) + 1
    )
    folded = _Folded(
        folded.events + tuple(new_events),
        folded.actors + tuple(row.seat for row in rows),
        folded.origins + tuple(row.origin for row in rows),
        folded.times + tuple(row.created_at for row in rows),
        folded.actions + tuple(row.action for row in rows),
        state,
        owing,
        recent,
    )
    if cache is not None and new_events:
        cache.put(game_id, folded)
    return Table(
        record,
        tuple(seats),
        folded.events,
        folded.actors,
        folded.origins,
        folded.times,
        folded.actions,
        folded.state,
        folded.owing,
        folded.recent,
    )


def current_version(session: Session, game_id: str) -> int:
    """The sequence number of a game's last event, in one indexed read (0 before any event)."""
    return session.exec(select(func.max(EventRecord.seq)).where(EventRecord.game_id == game_id)).one() or 0


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
    for offset, event in enumerate(events, start=1):
        data = {k: v for k, v in event.items() if k not in ("type", "v")}
        session.add(
            EventRecord(
                game_id=game_id,
                seq=expected_version + offset,
                type=event["type"],
                v=event["v"],
                data=data,
                seat=seat,
                action=action if offset == 1 else None,
                origin=origin,
                created_at=now,
            )
        )
    try:
        session.flush()
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
    its host); the table after them."""
    append_events(session, table.game_id, table.version, events, seat, action, origin, now=now)
    return table.extended(events, seat, action, origin, now)


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
        query = select(GameRecord.id).where(GameRecord.id == game_id)
        return session.exec(query.with_for_update(key_share=True, skip_locked=not wait)).first() is not None
    session.exec(update(GameRecord).where(col(GameRecord.id) == game_id).values(id=GameRecord.id))
    return True
