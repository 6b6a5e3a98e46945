"""channels: a seat's (or a table's) notifications beyond mail, and the outbox row's channel.

Revision ID: 0024
Revises: 0023
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "channels",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("key_version", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("sealed", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("label", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("paused_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("last_sent_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    )
    op.create_index("ix_channels_game", "channels", ["game_id", "seat"])
    # Plain ADD COLUMNs, so no foreign key (a batch would rebuild the outbox on SQLite and lose its
    # expression index); a channel's row is never deleted, only its address erased.
    op.add_column(
        "outbox",
        sa.Column("channel", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default="mail"),
    )
    op.add_column("outbox", sa.Column("channel_id", sa.Integer(), nullable=True))
    op.add_column("outbox", sa.Column("payload", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("outbox", "payload")
    op.drop_column("outbox", "channel_id")
    op.drop_column("outbox", "channel")
    op.drop_index("ix_channels_game", "channels")
    op.drop_table("channels")
