"""bot levels: a seat the seat-keeper plays (from the start, or standing in for its player) may be
played by a search bot of a chosen level instead. The column is the level; NULL is the seat-keeper
itself, as every seat was before.

Revision ID: 0019
Revises: 0018
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("bot_level", sa.String(length=16), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "bot_level")
