"""host unreachable: the host's address marked as not taking mail (since when, and why), derived
from the bounce records of the host's mails as a seat's is

Revision ID: 0021
Revises: 0020
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host_unreachable_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(
            sa.Column(
                "host_unreachable_reason",
                sqlmodel.sql.sqltypes.AutoString(length=500),
                nullable=False,
                server_default="",
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("host_unreachable_reason")
        batch.drop_column("host_unreachable_at")
