"""daily turns: time control, timeout policy and vacation allowance per game, who keeps each seat,
the turn clocks (one row per owed move) and vacations

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op


revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("move_days", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("weekend_pause", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(
            sa.Column("timezone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False, server_default="UTC")
        )
        batch.add_column(sa.Column("remind_hours", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("timeout", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default="bot")
        )
        batch.add_column(sa.Column("vacation_days", sa.Integer(), nullable=False, server_default="14"))
        batch.add_column(sa.Column("forfeit_seat", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("keeper", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default="player")
        )
    op.create_table(
        "turn_clocks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("owed_since_seq", sa.Integer(), nullable=False),
        sa.Column("owed_since", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("remind_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("due_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("granted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("granted_days", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("automatic", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("reminded_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("timed_out_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("settled_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", "owed_since_seq", name="uq_turn_clocks_owed"),
    )
    with op.batch_alter_table("turn_clocks") as batch:
        batch.create_index("ix_turn_clocks_remind", ["settled_at", "remind_at"], unique=False)
        batch.create_index("ix_turn_clocks_due", ["settled_at", "due_at"], unique=False)
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("starts_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("ends_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("vacations") as batch:
        batch.create_index("ix_vacations_game_seat", ["game_id", "seat"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("vacations") as batch:
        batch.drop_index("ix_vacations_game_seat")
    op.drop_table("vacations")
    with op.batch_alter_table("turn_clocks") as batch:
        batch.drop_index("ix_turn_clocks_due")
        batch.drop_index("ix_turn_clocks_remind")
    op.drop_table("turn_clocks")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("keeper")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("forfeit_seat")
        batch.drop_column("vacation_days")
        batch.drop_column("timeout")
        batch.drop_column("remind_hours")
        batch.drop_column("timezone")
        batch.drop_column("weekend_pause")
        batch.drop_column("move_days")
