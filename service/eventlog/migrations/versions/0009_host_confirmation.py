"""games asked for on the web wait for their host's confirmation; mails counted per address and day

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("host_name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("host_email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("control", sa.JSON(), nullable=False),
        sa.Column("language", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False, server_default=""),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column("confirmed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    # The daily cap counts an address's mails of the last 24 hours, whatever the address's case.
    op.create_index("ix_outbox_address_created", "outbox", [sa.text("lower(to_email)"), "created_at"])


def downgrade() -> None:
    op.drop_index("ix_outbox_address_created", table_name="outbox")
    op.drop_table("game_requests")
