"""bounces: the delivery reports and complaints about mails we sent, and a seat's address marked
unreachable (since when, and why) from them

Revision ID: 0018
Revises: 0017
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bounces",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("mail_id", sa.Integer(), sa.ForeignKey("outbox.id"), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("key_version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default=""),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False, server_default=""),
        sa.Column("received_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    )
    op.create_index("ix_bounces_seat", "bounces", ["game_id", "seat"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("unreachable_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(
            sa.Column("unreachable_reason", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("unreachable_reason")
        batch.drop_column("unreachable_at")
    op.drop_index("ix_bounces_seat", table_name="bounces")
    op.drop_table("bounces")
