"""who plays each seat follows from the log alone; a move's words ride on its command

Before this revision a timeout handing a seat to the seat-keeper, "take my seat back" and a player's
own move while the seat-keeper stood in changed only `seats.keeper`. This appends to the log of each
running game whose seat rows disagree with it the SeatKept event that makes them agree (append,
never rewrite: the append-only trigger stays), made by the rules themselves (`Game.decide`) as such
a decision is made today: the seat-keeper standing in (origin game, as a timeout) or the player back
(origin player). It also adds the columns of the words sent with a move to `commands`.

Revision ID: 0020
Revises: 0019
"""

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from rules import get_game
from rules.table import KEEPER, SEAT_KEPT, SEAT_REPLACED, keep_decision

revision: str = "0020"
down_revision: str | None = "0019"
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


def _kept_by_log(events: list[dict[str, Any]], seat: int) -> bool:
    """Whether the log says a bot plays the seat for its player now (its latest SeatKept since the
    seat's latest new player)."""
    kept = False
    for event in events:
        if event["type"] == SEAT_REPLACED and event["seat"] == seat:
            kept = False
        elif event["type"] == SEAT_KEPT and event["seat"] == seat:
            kept = event["by_keeper"]
    return kept


def _missing(events: list[dict[str, Any]], seats: list[Any]) -> list[tuple[dict[str, Any], str]]:
    """The decisions (with their origin) that make the log say what the seat rows say."""
    decisions = []
    for seat in seats:
        if seat.keeper == "bot":
            continue  # a bot's seat from the start: a fact of the game's creation, as its name is
        stand_in = seat.keeper == "stand_in"
        if stand_in and not _kept_by_log(events, seat.seat):
            decisions.append((keep_decision(seat.seat, True, seat.bot_level or KEEPER), "game"))
        elif not stand_in and _kept_by_log(events, seat.seat):
            decisions.append((keep_decision(seat.seat, False), "player"))
    return decisions


def _append_missing(conn: sa.Connection, game: Any, now: datetime) -> None:
    rows = conn.execute(
        sa.text("SELECT type, v, data FROM events WHERE game_id = :id ORDER BY seq"), {"id": game.id}
    ).all()
    seats = conn.execute(
        sa.text("SELECT seat, keeper, bot_level FROM seats WHERE game_id = :id ORDER BY seat"), {"id": game.id}
    ).all()
    events = [{"type": row.type, "v": row.v, **_json(row.data)} for row in rows]
    rules = get_game(game.game)
    state = rules.fold(events)
    seq = len(events)
    for decision, origin in _missing(events, list(seats)):
        for offset, event in enumerate(rules.table.decide(state, decision, len(seats)), start=1):
            state = rules.apply(state, event)
            seq += 1
            conn.execute(
                EVENTS.insert().values(
                    game_id=game.id,
                    seq=seq,
                    type=event["type"],
                    v=event["v"],
                    data={key: value for key, value in event.items() if key not in ("type", "v")},
                    seat=None,
                    created_at=now,
                    action=decision if offset == 1 else None,
                    origin=origin,
                )
            )
    conn.execute(sa.text("UPDATE games SET version = :seq WHERE id = :id"), {"seq": seq, "id": game.id})


def upgrade() -> None:
    op.add_column("commands", sa.Column("talk", sa.String(length=500), nullable=True))
    op.add_column("commands", sa.Column("talk_private", sa.Boolean(), nullable=False, server_default=sa.false()))
    conn = op.get_bind()
    now = datetime.now(UTC)
    for game in conn.execute(sa.text("SELECT id, game FROM games WHERE status = 'active'")).all():
        _append_missing(conn, game, now)


def downgrade() -> None:
    # The events stay: the log is append-only, and they say what the rows said.
    op.drop_column("commands", "talk_private")
    op.drop_column("commands", "talk")
