"""address revocations: a "my games" request no longer revokes the address's earlier links; only
the owner's revocation (a row marked `revokes`, made from a link they hold) does. Rows made before
were requests, so none is marked: the links a stranger's request had revoked work again until they
expire (they were mailed to the address's owner only).

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "address_requests", sa.Column("revokes", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("address_requests", "revokes")
