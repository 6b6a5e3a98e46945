"""Snapshots of folded games: a snapshot and the fold of the log's tail equal the fold of the whole
log at every version of random legal games of every game; a cold read folds from the newest one; a
damaged or stale one is ignored (the log is folded) and written again by the next append."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import Session

from rules import GAMES, get_game
from rules.game import Event, Game
from rules.table import cancel_decision, draw_decision, extend_decision, forfeit_decision
from service.eventlog.models import EventOrigin, SnapshotRecord
from service.eventlog.owing import Owing
from service.eventlog.snapshots import (
    FORMAT,
    SNAPSHOT_EVERY,
    Snapshot,
    snapshot_data,
    snapshot_of,
)
from service.eventlog.store import FoldCache, Table, append_move, fold_on, load_table
from service.play.hosting import Player, create_game

NAMES = ["Ann", "Bo", "Cy", "Di"]


def random_log(rules: Game[Any], seed: int, rng: random.Random) -> list[Event]:
    """A random legal game's log, with the table's decisions among the moves: more time now and then
    (who owes a move then carries a grant), and sometimes an end by forfeit, draw or cancellation."""
    seats = max(rules.seat_counts)
    events = rules.start(seed, seats, {})
    state = rules.fold(events)
    ending = rng.choice([None, "forfeit", "draw", "cancel"])
    while rules.result(state) is None and not rules.table.cancelled(state):
        owing = sorted(rules.to_act(state))
        seat = rng.choice(owing)
        roll = rng.random()
        if roll < 0.05:
            decision = extend_decision(seat, rng.choice([1, 2, 3, 7]))
        elif ending and roll < 0.07 and len(events) > 20:
            decision = {
                "forfeit": forfeit_decision(seat),
                "draw": draw_decision("host"),
                "cancel": cancel_decision("host"),
            }[ending]
        else:
            decision = None
        if decision is None:
            new = rules.act(state, seat, rng.choice(rules.legal_actions(state, seat)))
        else:
            new = rules.table.decide(state, decision, seats)
        for event in new:
            state = rules.apply(state, event)
        events += new
    return events


def stored_and_read(snapshot: Snapshot) -> Snapshot:
    """The snapshot as its row gives it back: through the JSON the database keeps."""
    return snapshot_of(snapshot.version, FORMAT, json.loads(json.dumps(snapshot_data(snapshot))))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**62), picks=st.integers(0, 2**32))
def test_a_snapshot_and_its_tail_fold_to_the_full_fold_at_every_version(
    name: str, seed: int, picks: int
) -> None:
    rules = get_game(name)
    events = random_log(rules, seed, random.Random(picks))
    folds: list[tuple[Any, Owing]] = [(None, {})]
    for seq, event in enumerate(events, start=1):
        folds.append(fold_on(rules, *folds[-1], [event], seq))
    full_state, full_owing = folds[-1]
    for version in range(1, len(events) + 1):
        snapshot = stored_and_read(Snapshot(version, *folds[version]))
        assert (snapshot.state, snapshot.owing) == folds[version]
        state, owing = fold_on(rules, snapshot.state, snapshot.owing, events[version:], version + 1)
        assert state == full_state and owing == full_owing
        assert rules.view(state, None) == rules.view(full_state, None)


def long_game(app: Flask, moves: int) -> str:
    """A Red and Black Duel game with `moves` more events of the host's "more time" decisions, each
    appended as the service appends a step (snapshots written on the way)."""
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in NAMES[:2]]
    game_id: str = create_game(rt, "red_black", players, players[0], seed=5)
    with Session(rt.engine, expire_on_commit=False) as session:
        table = load_table(session, game_id)
        for _ in range(moves):
            table = more_time(session, table)
        session.commit()
    return game_id


def more_time(session: Session, table: Table) -> Table:
    """The table after the host gave the first seat it waits on a day more."""
    decision = extend_decision(min(table.rules.to_act(table.state)), 1)
    events = table.rules.table.decide(table.state, decision, len(table.seats))
    return append_move(session, table, None, decision, events, EventOrigin.HOST, table.times[-1])


def stored(app: Flask, game_id: str) -> SnapshotRecord | None:
    with Session(app.extensions["pbem"].engine) as session:
        return session.get(SnapshotRecord, game_id)


def test_a_cold_read_folds_on_from_the_newest_snapshot_and_reads_the_log_only_when_asked(app: Flask) -> None:
    game_id = long_game(app, SNAPSHOT_EVERY * 2 + 7)
    row = stored(app, game_id)
    assert row is not None and row.version // SNAPSHOT_EVERY == 2 and row.format == FORMAT
    engine = app.extensions["pbem"].engine
    with Session(engine) as session:
        cold = load_table(session, game_id, FoldCache())
        assert cold.snapshot_version == row.version
        assert cold.recent[0] == snapshot_of(row.version, row.format, row.data).state
        assert cold.log.loaded is None  # nothing asked for the log yet
        full = load_table(session, game_id, snapshots=False)
        assert full.log.loaded is not None
        assert (cold.version, cold.state, cold.owing) == (full.version, full.state, full.owing)
        assert cold.events == full.events and cold.times == full.times and cold.actions == full.actions


@pytest.mark.parametrize(
    "damage",
    [
        {"format": FORMAT + 1},  # written by another version of the service
        {"data": {"state": {"@": "os:system", "=": {}}, "owing": []}},  # names a class outside the rules
        {"data": {"state": {"@": "rules.red_black.state:State", "=": {"seed": 1}}, "owing": []}},  # fields
        {"data": {"owing": []}},  # no state at all
    ],
    ids=["other-format", "foreign-class", "other-fields", "damaged"],
)
def test_a_stale_or_damaged_snapshot_is_ignored_and_written_again(app: Flask, damage: dict[str, Any]) -> None:
    game_id = long_game(app, SNAPSHOT_EVERY + 3)
    engine = app.extensions["pbem"].engine
    with Session(engine) as session:
        row = session.get(SnapshotRecord, game_id)
        assert row is not None
        for key, value in damage.items():
            setattr(row, key, value)
        session.add(row)
        session.commit()
    with Session(engine, expire_on_commit=False) as session:
        cold = load_table(session, game_id)
        full = load_table(session, game_id, snapshots=False)
        assert cold.snapshot_version == 0  # no snapshot it could use
        assert (cold.version, cold.state, cold.owing) == (full.version, full.state, full.owing)
        more_time(session, cold)  # the next append writes a good one again
        session.commit()
    row = stored(app, game_id)
    assert row is not None and row.format == FORMAT and row.version == full.version + 1
    with Session(engine) as session:
        assert load_table(session, game_id).snapshot_version == row.version


def test_a_log_read_after_its_session_closed_leaves_no_transaction_open(pg_app: Flask) -> None:
    game_id = long_game(pg_app, SNAPSHOT_EVERY + 3)
    engine = pg_app.extensions["pbem"].engine
    with Session(engine) as session:
        table = load_table(session, game_id)
    assert table.log.loaded is None
    assert len(table.events) == table.version  # read now, the session long closed
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
