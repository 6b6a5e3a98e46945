"""seed commitment salt, replay sharing, and each event's action and origin

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("seed_salt", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False, server_default="")
        )
        batch.add_column(sa.Column("public_replay", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("watch_key_version", sa.Integer(), nullable=False, server_default="1"))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("action", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("origin", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default="player")
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("origin")
        batch.drop_column("action")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("watch_key_version")
        batch.drop_column("public_replay")
        batch.drop_column("seed_salt")
