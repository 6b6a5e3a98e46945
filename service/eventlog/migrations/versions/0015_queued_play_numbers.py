"""queued play numbers: a play chosen ahead names the play it answers, so that a seat may choose
for the trick after its coming one (rows chosen before answer the coming play, as they did)

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("queued_plays", sa.Column("play_number", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("queued_plays", "play_number")
