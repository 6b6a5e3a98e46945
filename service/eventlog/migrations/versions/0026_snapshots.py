"""snapshots: a game's fold stored every so many events, so a cold read folds only the log's tail.

Revision ID: 0026
Revises: 0025
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # No rows to fill: a game without one folds its log as before, and its next append past a
    # multiple of SNAPSHOT_EVERY (service/eventlog/snapshots.py) writes it.
    op.create_table(
        "snapshots",
        sa.Column(
            "game_id",
            sqlmodel.sql.sqltypes.AutoString(length=32),
            sa.ForeignKey("games.id"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
