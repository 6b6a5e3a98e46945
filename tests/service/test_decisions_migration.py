"""Migration 0006 on the real PostgreSQL: games forfeited or cancelled the old way (a row value only)
get the missing event appended to their log, and then their folds agree with their rows."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from rules import get_game
from service.db import alembic_config, normalise_url
from service.eventlog.store import status_of
from tests.conftest import PG_SERVER, TEST_DB_PREFIX, unavailable, xdist_index

ENDED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def old_database(worker_id: str) -> Iterator[str]:
    """A database of its own at revision 0005 (before decisions were events)."""
    name = f"{TEST_DB_PREFIX}_migration_{xdist_index(worker_id)}"
    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            conn.execute(text(f"CREATE DATABASE {name}"))
    except Exception as error:
        unavailable("PostgreSQL", error)
    url = f"{PG_SERVER}/{name}"
    command.upgrade(alembic_config(url), "0005")
    yield url
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    admin.dispose()


def old_game(conn, game_id: str, game: str, seats: int, status: str, forfeit_seat: int | None) -> None:  # type: ignore[no-untyped-def]
    """A game written as the service wrote it before 0006: some moves, then only the row changed."""
    rules, rng = get_game(game), random.Random(len(game_id))
    events = rules.start(7, seats, {})
    state = rules.fold(events)
    for _ in range(6):
        seat = min(rules.to_act(state))
        new = rules.act(state, seat, rng.choice(rules.legal_actions(state, seat)))
        events += new
        for event in new:
            state = rules.apply(state, event)
    conn.execute(
        text(
            "INSERT INTO games (id, game, options, status, host_name, host_email, host_key_version,"
            " created_at, finished_at, seed_salt, public_replay, watch_key_version, host_notify,"
            " move_days, weekend_pause, timezone, remind_hours, timeout, vacation_days, forfeit_seat)"
            " VALUES (:id, :game, '{}', :status, 'Host', 'host@example.org', 1, :ended, :ended, 'salt',"
            " false, 1, true, 1, false, 'UTC', NULL, :timeout, 14, :forfeit)"
        ),
        {
            "id": game_id,
            "game": game,
            "status": status,
            "ended": ENDED,
            "forfeit": forfeit_seat,
            "timeout": "host" if game == "dupli" else "forfeit",
        },
    )
    for seat in range(seats):
        conn.execute(
            text(
                "INSERT INTO seats (game_id, seat, name, email, key_version, auto_play, notify, timezone,"
                " keeper) VALUES (:id, :seat, :name, :email, 1, true, 'turn', '', 'player')"
            ),
            {"id": game_id, "seat": seat, "name": f"P{seat}", "email": f"p{seat}@example.org"},
        )
    for seq, event in enumerate(events, start=1):
        data = {k: v for k, v in event.items() if k not in ("type", "v")}
        conn.execute(
            text(
                "INSERT INTO events (game_id, seq, type, v, data, seat, created_at, origin)"
                " VALUES (:id, :seq, :type, :v, :data, NULL, :at, 'player')"
            ),
            {
                "id": game_id,
                "seq": seq,
                "type": event["type"],
                "v": event["v"],
                "data": json.dumps(data),
                "at": ENDED,
            },
        )


def test_old_forfeits_and_cancellations_get_their_events(old_database: str) -> None:
    engine = create_engine(normalise_url(old_database))
    with engine.begin() as conn:
        old_game(conn, "forfeited-duel", "red_black", 2, "finished", 1)
        old_game(conn, "forfeited-dupli", "dupli", 4, "finished", 2)
        old_game(conn, "cancelled-dualis", "dualis", 4, "cancelled", None)
        old_game(conn, "running-duel", "red_black", 2, "active", None)
    command.upgrade(alembic_config(old_database), "head")
    with engine.connect() as conn:
        for game_id, game in [
            ("forfeited-duel", "red_black"),
            ("forfeited-dupli", "dupli"),
            ("cancelled-dualis", "dualis"),
            ("running-duel", "red_black"),
        ]:
            rows = conn.execute(
                text("SELECT type, v, data, action, origin FROM events WHERE game_id = :id ORDER BY seq"),
                {"id": game_id},
            ).all()
            rules = get_game(game)
            state = rules.fold({"type": r.type, "v": r.v, **r.data} for r in rows)
            status = conn.execute(text("SELECT status FROM games WHERE id = :id"), {"id": game_id}).scalar()
            assert status_of(rules, state) == status, game_id
            last = rows[-1]
            if game_id.startswith("forfeited"):
                assert last.type == "GameForfeited" and last.action["decision"] == "forfeit"
                assert rules.result(state)["forfeit"] == last.data["seat"]
                assert last.origin == ("host" if game == "dupli" else "game")
            elif game_id.startswith("cancelled"):
                assert (last.type, last.origin, last.data) == ("GameCancelled", "host", {"by": "host"})
            else:
                assert last.type not in ("GameForfeited", "GameCancelled")
        columns = (
            conn.execute(
                text("SELECT column_name FROM information_schema.columns WHERE table_name = 'games'")
            )
            .scalars()
            .all()
        )
        assert "forfeit_seat" not in columns
        with pytest.raises(Exception, match="append-only"):  # the trigger still guards the log
            conn.execute(text("DELETE FROM events WHERE game_id = 'cancelled-dualis'"))
    engine.dispose()
