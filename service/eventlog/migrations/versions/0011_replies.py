"""moves by reply: each mail's reply address, the mails received at reply addresses (once per
Message-ID), and a game's choice to read replies from any sender

Revision ID: 0011
Revises: 0010
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(
            sa.Column("reply_to", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False, server_default="")
        )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("replies_from_any", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "inbound_mails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("received_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("command_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_id", name="uq_inbound_mails_message_id"),
    )
    op.create_index("ix_inbound_mails_seat", "inbound_mails", ["game_id", "seat", "received_at"])


def downgrade() -> None:
    op.drop_index("ix_inbound_mails_seat", "inbound_mails")
    op.drop_table("inbound_mails")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("replies_from_any")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("reply_to")
