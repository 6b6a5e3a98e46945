"""forfeits and cancellations become events of the log; the games row keeps only a cache of it

Games forfeited or cancelled before this revision have only a row value (status, forfeit_seat). This
appends the missing GameForfeited / GameCancelled event to each such log (append, never rewrite: the
append-only trigger stays) with the decision as its action, so that the log alone tells how the game
ended, then drops `forfeit_seat`. The events come from the rules themselves (`Game.decide`), as a
decision made today would.

Revision ID: 0006
Revises: 0005
"""

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from rules import get_game
from rules.table import CLOSING_EVENTS, cancel_decision, forfeit_decision

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


EVENTS = sa.table(
    "events",
    sa.column("game_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("type", sa.String),
    sa.column("v", sa.Integer),
    sa.column("data", sa.JSON),
    sa.column("seat", sa.Integer),
    sa.column("created_at", sa.DateTime),
    sa.column("action", sa.JSON),
    sa.column("origin", sa.String),
)


def _json(value: Any) -> Any:
    """A JSON column's value whichever way the driver returns it."""
    return json.loads(value) if isinstance(value, str) else value


def _decided_games(conn: sa.Connection) -> list[Any]:
    """Forfeited or cancelled games whose log does not yet end with the decision."""
    return list(
        conn.execute(
            sa.text(
                "SELECT id, game, timeout, status, forfeit_seat, finished_at, created_at FROM games "
                "WHERE (status = 'cancelled' OR forfeit_seat IS NOT NULL) AND NOT EXISTS "
                "(SELECT 1 FROM events WHERE events.game_id = games.id "
                "AND events.type IN ('GameForfeited', 'GameCancelled'))"
            )
        )
    )


def _append_decision(conn: sa.Connection, game: Any) -> None:
    rows = conn.execute(
        sa.text("SELECT seq, type, v, data FROM events WHERE game_id = :id ORDER BY seq"), {"id": game.id}
    ).all()
    seats = int(conn.execute(sa.text("SELECT count(*) FROM seats WHERE game_id = :id"), {"id": game.id}).scalar_one())
    rules = get_game(game.game)
    state = rules.fold({"type": row.type, "v": row.v, **_json(row.data)} for row in rows)
    if game.status == "cancelled":
        decision, origin = cancel_decision("host"), "host"
    else:
        decision = forfeit_decision(game.forfeit_seat)
        origin = "host" if game.timeout == "host" else "game"
    when = game.finished_at or datetime.now(UTC)
    for offset, event in enumerate(rules.table.decide(state, decision, seats), start=1):
        assert event["type"] in CLOSING_EVENTS
        conn.execute(
            EVENTS.insert().values(
                game_id=game.id,
                seq=len(rows) + offset,
                type=event["type"],
                v=event["v"],
                data={key: value for key, value in event.items() if key not in ("type", "v")},
                seat=None,
                created_at=when,
                action=decision if offset == 1 else None,
                origin=origin,
            )
        )


def upgrade() -> None:
    conn = op.get_bind()
    for game in _decided_games(conn):
        _append_decision(conn, game)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("forfeit_seat")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("forfeit_seat", sa.Integer(), nullable=True))
    conn = op.get_bind()
    for row in conn.execute(sa.text("SELECT game_id, data FROM events WHERE type = 'GameForfeited'")).all():
        seat = _json(row.data)["seat"]
        conn.execute(sa.text("UPDATE games SET forfeit_seat = :seat WHERE id = :id"), {"seat": seat, "id": row.game_id})
