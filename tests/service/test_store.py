"""The event store: appends guarded by the expected version, an append-only log, folds that agree."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from sqlalchemy import Engine, event, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session

from service.eventlog.models import GameRecord
from service.eventlog.store import (
    RECENT_STATES,
    FoldCache,
    VersionConflict,
    append_events,
    current_version,
    load_table,
)
from service.play.hosting import Player, create_game

EMAILS = ["ann@example.org", "bo@example.org"]


def new_game(app: Flask) -> str:
    return create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Ann", EMAILS[0]),
        seed=9,
    )


def test_append_at_a_taken_version_conflicts_and_overwrites_nothing(app: Flask) -> None:
    game_id = new_game(app)
    engine = app.extensions["pbem"].engine
    with Session(engine) as session:
        table = load_table(session, game_id)
        action = table.rules.legal_actions(table.state, 0)[0]
        events = table.rules.act(table.state, 0, action)
        append_events(session, game_id, table.version, events, 0, now=table.times[-1])
        session.commit()
    with Session(engine) as session, pytest.raises(VersionConflict):
        append_events(session, game_id, table.version, [{"type": "Bogus", "v": 1}], 1, now=table.times[-1])
    with Session(engine) as session:
        stored = load_table(session, game_id)
    assert stored.events[table.version :] == tuple(events)


def test_cached_fold_equals_a_full_fold(app: Flask) -> None:
    game_id = new_game(app)
    engine = app.extensions["pbem"].engine
    cache = FoldCache()
    with Session(engine) as session:
        first = load_table(session, game_id, cache)
        events = first.rules.act(first.state, 1, first.rules.legal_actions(first.state, 1)[0])
        append_events(session, game_id, first.version, events, 1, now=first.times[-1])
        session.commit()
    with Session(engine) as session:
        cached, full = load_table(session, game_id, cache), load_table(session, game_id)
    assert cached.version == first.version + len(events)
    assert cached.rules.view(cached.state, 0) == full.rules.view(full.state, 0)
    assert repr(cached.state) == repr(full.state)


def test_the_game_row_keeps_the_version_of_its_log_through_every_append(app: Flask) -> None:
    game_id = new_game(app)
    engine = app.extensions["pbem"].engine
    with Session(engine) as session:
        table = load_table(session, game_id)
        assert table.record.version == table.version == current_version(session, game_id)
        events = table.rules.act(table.state, 1, table.rules.legal_actions(table.state, 1)[0])
        append_events(session, game_id, table.version, events, 1, now=table.times[-1])
        session.commit()
    with Session(engine) as session:
        record = session.get(GameRecord, game_id)
        assert record is not None
        assert record.version == table.version + len(events) == current_version(session, game_id)
    with Session(engine) as session, pytest.raises(VersionConflict):  # a refused append keeps it
        append_events(session, game_id, table.version, [{"type": "Bogus", "v": 1}], 1, now=table.times[-1])
    with Session(engine) as session:
        assert session.get(GameRecord, game_id).version == table.version + len(events)  # type: ignore[union-attr]


def test_a_reader_whose_fold_holds_the_whole_log_reads_no_events(app: Flask) -> None:
    game_id = new_game(app)
    engine = app.extensions["pbem"].engine
    cache, other_writer = FoldCache(), FoldCache()
    with Session(engine) as session:
        first = load_table(session, game_id, cache)
    with statements_on(engine) as seen, Session(engine) as session:
        again = load_table(session, game_id, cache)
    assert again.version == first.version and not [sql for sql in seen if "FROM events" in sql]
    with Session(engine) as session:  # another process appends: this reader reads the new events only
        table = load_table(session, game_id, other_writer)
        events = table.rules.act(table.state, 1, table.rules.legal_actions(table.state, 1)[0])
        append_events(session, game_id, table.version, events, 1, now=table.times[-1])
        session.commit()
    with statements_on(engine) as seen, Session(engine) as session:
        after = load_table(session, game_id, cache)
    assert after.version == first.version + len(events) and after.events[first.version :] == tuple(events)
    assert len([sql for sql in seen if "FROM events" in sql]) == 1


@contextmanager
def statements_on(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements run on the engine meanwhile."""
    seen: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_the_state_at_every_version_equals_a_fold_of_the_log_up_to_it(app: Flask) -> None:
    """Recent states come from the incremental fold (cached or not), older ones from a fold."""
    game_id = new_game(app)
    engine = app.extensions["pbem"].engine
    cache = FoldCache()
    with Session(engine) as session:
        table = load_table(session, game_id, cache)
        while table.version <= RECENT_STATES + 5 and table.result is None:
            seat = min(table.rules.to_act(table.state))
            action = table.rules.legal_actions(table.state, seat)[0]
            events = table.rules.act(table.state, seat, action)
            append_events(session, game_id, table.version, events, seat, action, now=table.times[-1])
            session.commit()
            table = load_table(session, game_id, cache)
    with Session(engine) as session:
        uncached = load_table(session, game_id)
    assert table.version > RECENT_STATES + 5
    for loaded in (table, uncached):
        for version in range(1, loaded.version + 1):
            assert repr(loaded.state_at(version)) == repr(loaded.rules.fold(list(loaded.events[:version])))


@pytest.mark.parametrize("statement", ["UPDATE events SET type = 'Forged'", "DELETE FROM events"])
def test_postgres_refuses_to_change_the_log(pg_app: Flask, statement: str) -> None:
    new_game(pg_app)
    with Session(pg_app.extensions["pbem"].engine) as session, pytest.raises(DBAPIError, match="append-only"):
        session.execute(text(statement))
