"""mail drafts: the facts a mail's bodies are drafted from by the worker that sends it, after the
move's transaction (set until they are drafted; the bodies are empty until then).

Revision ID: 0029
Revises: 0028
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("draft", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("outbox", "draft")
