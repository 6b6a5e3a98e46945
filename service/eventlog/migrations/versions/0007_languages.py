"""each reader's language: the table's (chosen by the host), a seat's own, and the one a mail was
drafted in

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def language(default: str) -> sa.Column[str]:
    return sa.Column(
        "language", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False, server_default=default
    )


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(language(""))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(language(""))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(language("en"))


def downgrade() -> None:
    for table in ("outbox", "seats", "games"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("language")
