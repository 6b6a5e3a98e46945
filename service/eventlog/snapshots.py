"""Snapshots of folded games: a game's state and who owes a move, stored every SNAPSHOT_EVERY events,
so that a cold read folds at most that many events (and a few of the last move) whatever the log's
length.

A snapshot is a disposable cache of the fold, never the truth: it is written in the step's own
transaction (so it never runs ahead of the log it was folded from), one row per game replaced as the
log grows, and a row that does not decode into today's state classes (another FORMAT, a field added
or removed since, damaged data) is ignored: the log is folded instead and the next append writes a
fresh one.

States are the rules' frozen dataclasses of tuples; they are stored as JSON with each dataclass,
tuple and frozenset tagged (JSON has only lists), and decoded only into dataclasses of the `rules`
package, so that a row can never name another class.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from service.eventlog.models import SnapshotRecord
from service.eventlog.owing import Owes, Owing

log = logging.getLogger(__name__)

# A snapshot every so many events: a cold read folds at most this many (and one move's more).
SNAPSHOT_EVERY = 25
# Bumped when a fold's meaning changes without a change of its classes' fields: older rows are then
# ignored (a change of fields is found by the decoding itself).
FORMAT = 1

# The tags of what JSON cannot say by itself.
_CLASS, _FIELDS, _TUPLE, _FROZENSET, _DICT = "@", "=", "(", "{", "d"


class StaleSnapshot(ValueError):
    """A stored snapshot that does not decode into today's states."""


@dataclass(frozen=True)
class Snapshot:
    """A game's fold at `version`: the state and who owes a move since when."""

    version: int
    state: Any
    owing: Owing


def encode(value: Any) -> Any:
    """A state (or any part of one) as JSON values, tagged where JSON would lose its type."""
    if value is None or isinstance(value, str | int | float):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        fields = {field.name: encode(getattr(value, field.name)) for field in dataclasses.fields(value)}
        return {_CLASS: f"{kind.__module__}:{kind.__qualname__}", _FIELDS: fields}
    if isinstance(value, tuple):
        return {_TUPLE: [encode(item) for item in value]}
    if isinstance(value, frozenset):
        return {_FROZENSET: [encode(item) for item in sorted(value, key=repr)]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {_DICT: [[encode(key), encode(item)] for key, item in value.items()]}
    raise TypeError(f"a state holds a {type(value).__name__}, which a snapshot cannot keep")


def decode(value: Any) -> Any:
    """What `encode` gave, back; StaleSnapshot when it names no dataclass of the rules as it is now."""
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if _CLASS in value:
        return _instance(value[_CLASS], value[_FIELDS])
    if _TUPLE in value:
        return tuple(decode(item) for item in value[_TUPLE])
    if _FROZENSET in value:
        return frozenset(decode(item) for item in value[_FROZENSET])
    if _DICT in value:
        return {decode(key): decode(item) for key, item in value[_DICT]}
    raise StaleSnapshot(f"an untagged object {sorted(value)!r}")


def _instance(name: str, fields: Mapping[str, Any]) -> Any:
    """The rules' dataclass `name` ("module:Class") with `fields`, built as the folds build theirs
    (without `__init__`, as `evolve` does)."""
    module_name, _, qualname = name.partition(":")
    if module_name.split(".")[0] != "rules":
        raise StaleSnapshot(f"{name} is not a class of the rules")
    try:
        kind: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            kind = getattr(kind, part)
    except (ImportError, AttributeError) as error:
        raise StaleSnapshot(f"no class {name}") from error
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        raise StaleSnapshot(f"{name} is not a dataclass")
    names = [field.name for field in dataclasses.fields(kind)]
    if sorted(names) != sorted(fields):
        raise StaleSnapshot(f"{name} has other fields now")
    instance = object.__new__(kind)
    for field_name in names:
        object.__setattr__(instance, field_name, decode(fields[field_name]))
    return instance


def snapshot_data(snapshot: Snapshot) -> dict[str, Any]:
    """A snapshot's state and owed moves as the JSON its row keeps."""
    owing = [
        [seat, owes.since_seq, owes.granted_seq, owes.granted_days] for seat, owes in snapshot.owing.items()
    ]
    return {"state": encode(snapshot.state), "owing": owing}


def snapshot_of(version: int, written_in: int, data: Any) -> Snapshot:
    """The snapshot a row keeps; StaleSnapshot if it was written in another format or does not
    decode into today's states."""
    if written_in != FORMAT:
        raise StaleSnapshot(f"format {written_in}, not {FORMAT}")
    try:
        owing = {
            int(seat): Owes(int(since), granted, int(days)) for seat, since, granted, days in data["owing"]
        }
        return Snapshot(version, decode(data["state"]), owing)
    except (KeyError, TypeError, ValueError) as error:
        raise StaleSnapshot(f"damaged: {error!r}") from error


def read_snapshot(session: Session, game_id: str) -> Snapshot | None:
    """The game's stored snapshot, if there is one that decodes (a stale or damaged one is logged
    and ignored: the caller folds the log)."""
    row = session.exec(select(SnapshotRecord).where(SnapshotRecord.game_id == game_id)).first()
    if row is None:
        return None
    try:
        return snapshot_of(row.version, row.format, row.data)
    except StaleSnapshot as error:
        log.info("snapshot of game %s at version %s ignored: %s", game_id, row.version, error)
        return None


def write_snapshot(session: Session, game_id: str, snapshot: Snapshot) -> None:
    """Store the game's snapshot in `session`'s transaction, in place of the one before."""
    data = snapshot_data(snapshot)
    row = session.get(SnapshotRecord, game_id)
    if row is None:
        row = SnapshotRecord(game_id=game_id, version=snapshot.version, format=FORMAT, data=data)
    else:
        row.version, row.format, row.data = snapshot.version, FORMAT, data
    session.add(row)
