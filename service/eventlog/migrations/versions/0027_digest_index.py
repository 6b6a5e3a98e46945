"""digest index: the seats in digest mode, so the digest's query every minute reads only those.

Revision ID: 0027
Revises: 0026
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    where = sa.text("notify = 'digest'")
    op.create_index("ix_seats_digest", "seats", ["game_id"], postgresql_where=where, sqlite_where=where)


def downgrade() -> None:
    op.drop_index("ix_seats_digest", "seats")
