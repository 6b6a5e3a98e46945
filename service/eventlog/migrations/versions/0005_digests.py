"""daily digests, the unsubscribe link of each mail, and the host's notices switch

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host_notify", sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(
            sa.Column("unsubscribe_url", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default="")
        )
        # A digest lists several games, so it belongs to none.
        batch.alter_column("game_id", existing_type=sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True)
    op.create_table(
        "digests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("mail_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["mail_id"], ["outbox.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email", "day", name="uq_digests_email_day"),
    )


def downgrade() -> None:
    op.drop_table("digests")
    op.execute("DELETE FROM outbox WHERE game_id IS NULL")
    with op.batch_alter_table("outbox") as batch:
        batch.alter_column("game_id", existing_type=sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False)
        batch.drop_column("unsubscribe_url")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("host_notify")
