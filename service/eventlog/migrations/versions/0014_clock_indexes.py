"""turn clock indexes: a game's open clocks, and the open clocks of automatic moves, each a partial
index, so that a page or move reads a game's few open clocks (not every clock of its log) and the
beat finds the due clocks without reading every open clock of every running game

Revision ID: 0014
Revises: 0013
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("settled_at IS NULL")
AUTOMATIC = sa.text("automatic")


def upgrade() -> None:
    op.create_index(
        "ix_turn_clocks_open", "turn_clocks", ["game_id"], postgresql_where=OPEN, sqlite_where=OPEN
    )
    op.create_index(
        "ix_turn_clocks_automatic",
        "turn_clocks",
        ["settled_at"],
        postgresql_where=AUTOMATIC,
        sqlite_where=AUTOMATIC,
    )


def downgrade() -> None:
    op.drop_index("ix_turn_clocks_automatic", "turn_clocks")
    op.drop_index("ix_turn_clocks_open", "turn_clocks")
