"""each player's settings on their seat: auto-play of forced moves, notifications, time zone

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("auto_play", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(
            sa.Column("notify", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default="turn")
        )
        batch.add_column(
            sa.Column("timezone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("timezone")
        batch.drop_column("notify")
        batch.drop_column("auto_play")
