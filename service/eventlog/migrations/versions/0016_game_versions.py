"""game versions: the game row keeps the seq of its log's last event, so that a reader whose cached
fold is that long reads no events

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE games SET version = COALESCE((SELECT MAX(seq) FROM events WHERE events.game_id = games.id), 0)"
    )


def downgrade() -> None:
    op.drop_column("games", "version")
