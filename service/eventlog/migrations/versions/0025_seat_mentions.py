"""seat mentions: how the table's group chat calls a seat's player, after their name there.

Revision ID: 0025
Revises: 0024
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "seats",
        sa.Column("mention", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False, server_default=""),
    )


def downgrade() -> None:
    op.drop_column("seats", "mention")
