"""clubs: a club's own append-only log (founded, members invited, confirmed, gone, the host handed
over, seasons planned and their tables started, talk), with the club's row holding its version.

Revision ID: 0023
Revises: 0021
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0023"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "club_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("v", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_id", "seq", name="uq_club_events_club_seq"),
    )
    op.create_index("ix_club_events_email", "club_events", ["email"])
    op.create_index("ix_club_events_game", "club_events", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_club_events_game", table_name="club_events")
    op.drop_index("ix_club_events_email", table_name="club_events")
    op.drop_table("club_events")
    op.drop_table("clubs")
