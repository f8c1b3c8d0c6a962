"""A session the database makes without a version is at version 1, as every new session is.
Sessions stored before versions were kept stay at 0.

On SQLite the table of sessions is rebuilt to change the default, its next id kept where it
was (see 0009).

Revision ID: c82b13028a6d
Revises: 6099f1d8aee6
Create Date: 2026-12-03 11:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "c82b13028a6d"
down_revision = "6099f1d8aee6"
branch_labels = None
depends_on = None


def upgrade():
    _version_default("1")


def downgrade():
    _version_default("0")


def _version_default(default):
    connection = op.get_bind()
    if connection.dialect.name != "sqlite":
        op.alter_column("session", "version", server_default=default)
        return
    next_id = sa.text("SELECT seq FROM sqlite_sequence WHERE name = 'session'")
    largest = connection.execute(next_id).scalar()
    with op.batch_alter_table(
        "session", recreate="always", table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.alter_column("version", existing_type=sa.Integer(), server_default=default)
    if largest is not None:
        named = {"largest": largest}
        moved = connection.execute(
            sa.text("UPDATE sqlite_sequence SET seq = max(seq, :largest) WHERE name = 'session'"),
            named,
        )
        if moved.rowcount == 0:
            connection.execute(
                sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES ('session', :largest)"),
                named,
            )
