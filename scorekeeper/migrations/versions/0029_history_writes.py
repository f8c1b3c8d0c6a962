"""The history's writes, counted by the database: one row that every session added, removed or
with its version bumped counts one more (`models.HistoryWrites`), so that a process tells
whether the history changed by reading it, instead of adding up every session's version.

Revision ID: 2e8b5c1d7f40
Revises: 7d2c9e4f1a83
Create Date: 2026-11-29 12:20:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "2e8b5c1d7f40"
down_revision = "7d2c9e4f1a83"
branch_labels = None
depends_on = None

COUNT_A_WRITE = (
    "INSERT INTO history_writes (id, writes) VALUES (1, 1) "
    "ON CONFLICT (id) DO UPDATE SET writes = history_writes.writes + 1"
)
TRIGGERS = {
    "postgresql": [
        "CREATE OR REPLACE FUNCTION history_written() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {COUNT_A_WRITE}; RETURN NULL; END $$",
        "CREATE CONSTRAINT TRIGGER session_written "
        "AFTER INSERT OR DELETE OR UPDATE OF version ON session "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION history_written()",
    ],
    "sqlite": [
        f"CREATE TRIGGER session_written_{name} AFTER {what} ON session BEGIN {COUNT_A_WRITE}; END"
        for name, what in (
            ("insert", "INSERT"),
            ("delete", "DELETE"),
            ("update", "UPDATE OF version"),
        )
    ],
}
DROPS = {
    "postgresql": [
        "DROP TRIGGER IF EXISTS session_written ON session",
        "DROP FUNCTION IF EXISTS history_written()",
    ],
    "sqlite": [
        f"DROP TRIGGER IF EXISTS session_written_{name}" for name in ("insert", "delete", "update")
    ],
}


def upgrade():
    op.create_table(
        "history_writes",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("writes", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_history_writes")),
    )
    for statement in TRIGGERS[op.get_bind().dialect.name]:
        op.execute(statement)


def downgrade():
    for statement in DROPS[op.get_bind().dialect.name]:
        op.execute(statement)
    op.drop_table("history_writes")
