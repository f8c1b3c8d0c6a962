"""A restore's journal, so one cut short is undone; ids a URL names are never handed out twice.

On SQLite the tables of players, sessions and rule sets are rebuilt with AUTOINCREMENT, their
next ids past every id they hold and every id the trash holds for a session, so that a session
always comes back from the trash under its own id. On PostgreSQL the sequence of sessions is
moved past the trash's ids too (a restore could move it back before).

Revision ID: 9a7c3e5f1d24
Revises: 8e3b5d1f6a92
Create Date: 2026-12-01 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "9a7c3e5f1d24"
down_revision = "8e3b5d1f6a92"
branch_labels = None
depends_on = None

# Each table whose ids are never reused, with the largest id it has ever handed out that is
# still known.
LARGEST_IDS = {
    "player": "SELECT max(id) FROM player",
    "session": "SELECT max(id) FROM (SELECT id FROM session "
    "UNION ALL SELECT session_id FROM trashed_session) AS used",
    "rule_set": "SELECT max(id) FROM rule_set",
}


def upgrade():
    op.create_table(
        "restore_journal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("merge", sa.Boolean(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_restore_journal")),
    )
    op.create_table(
        "restored_session",
        sa.Column("session_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_restored_session")),
    )
    connection = op.get_bind()
    for table, largest in LARGEST_IDS.items():
        if connection.dialect.name == "sqlite":
            with op.batch_alter_table(
                table, recreate="always", table_kwargs={"sqlite_autoincrement": True}
            ):
                pass
            _sqlite_past(connection, table, connection.execute(sa.text(largest)).scalar())
        elif connection.dialect.name == "postgresql":
            _sequence_past(connection, table, connection.execute(sa.text(largest)).scalar())


def _sqlite_past(connection, table, largest):
    """SQLite's next id for `table` past `largest`, never back."""
    if largest is None:
        return
    named = {"table": table, "largest": largest}
    moved = connection.execute(
        sa.text("UPDATE sqlite_sequence SET seq = max(seq, :largest) WHERE name = :table"), named
    )
    if moved.rowcount == 0:
        connection.execute(
            sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES (:table, :largest)"), named
        )


def _sequence_past(connection, table, largest):
    """PostgreSQL's next id for `table` past `largest`, never back."""
    sequence = f"pg_get_serial_sequence('{table}', 'id')::regclass"
    connection.execute(
        sa.text(
            f"SELECT setval({sequence}, :largest) "
            f"WHERE :largest > coalesce(pg_sequence_last_value({sequence}), 0)"
        ),
        {"largest": largest or 0},
    )


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        for table in LARGEST_IDS:
            with op.batch_alter_table(
                table, recreate="always", table_kwargs={"sqlite_autoincrement": False}
            ):
                pass
    op.drop_table("restored_session")
    op.drop_table("restore_journal")
