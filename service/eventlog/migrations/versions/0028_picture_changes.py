"""picture changes: every change to a row a seat's page shows is noted by a trigger, so that a
conditional read (ETag) can tell in one indexed sum whether anything it shows changed.

Revision ID: 0028
Revises: 0027
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The tables a seat's picture is built from, each with the column naming its game. The events are
# not among them: an append moves the game row's version on. tests/service/test_conditional_reads.py
# checks that every table the page and its JSON read is here.
WATCHED = {
    "games": "id",
    "seats": "game_id",
    "commands": "game_id",
    "table_talk": "game_id",
    "vacations": "game_id",
    "turn_clocks": "game_id",
    "rematches": "game_id",
    "queued_plays": "game_id",
    "channels": "game_id",
}
OPERATIONS = ("insert", "update", "delete")


def upgrade() -> None:
    op.create_table(
        "picture_changes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("weight", sa.BigInteger(), nullable=False, server_default="1"),
    )
    op.create_index("ix_picture_changes_game", "picture_changes", ["game_id", "weight"])
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_triggers()
    else:
        _sqlite_triggers()


def _postgresql_triggers() -> None:
    for table, column in WATCHED.items():
        op.execute(
            f"""
            CREATE FUNCTION note_{table}_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    INSERT INTO picture_changes (game_id) VALUES (OLD.{column});
                ELSE
                    INSERT INTO picture_changes (game_id) VALUES (NEW.{column});
                END IF;
                RETURN NULL;
            END $$
            """
        )
        op.execute(
            f"CREATE TRIGGER picture_{table} AFTER INSERT OR UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION note_{table}_change()"
        )


def _sqlite_triggers() -> None:
    for table, column in WATCHED.items():
        for operation in OPERATIONS:
            row = "OLD" if operation == "delete" else "NEW"
            op.execute(
                f"CREATE TRIGGER picture_{table}_{operation} AFTER {operation.upper()} ON {table} "
                f"BEGIN INSERT INTO picture_changes (game_id) VALUES ({row}.{column}); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in WATCHED:
            op.execute(f"DROP TRIGGER picture_{table} ON {table}")
            op.execute(f"DROP FUNCTION note_{table}_change()")
    else:
        for table in WATCHED:
            for operation in OPERATIONS:
                op.execute(f"DROP TRIGGER picture_{table}_{operation}")
    op.drop_index("ix_picture_changes_game", "picture_changes")
    op.drop_table("picture_changes")
