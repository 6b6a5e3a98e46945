"""plays chosen ahead of the turn (queued plays)

Revision ID: 0012
Revises: 0011
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "queued_plays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("key_version", sa.Integer(), nullable=False),
        sa.Column("situation", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("chosen_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("settled_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("reason", sa.JSON(), nullable=True),
        sa.Column("told", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_queued_plays_game_status", "queued_plays", ["game_id", "status"])


def downgrade() -> None:
    op.drop_table("queued_plays")
