"""Club events keep pairs of players apart (`event.apart`, a list of name pairs) and may be
practice events (`event.practice`), whose tables are marked on the session itself
(`session.practice`) when they are made. Every event and session before keeps no pair apart
and is real.

Revision ID: 9e4a7c2d5b31
Revises: 9e4a7c2b5d31
Create Date: 2027-01-11 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "9e4a7c2d5b31"
down_revision = "9e4a7c2b5d31"
branch_labels = None
depends_on = None


def upgrade():
    # Not in a batch: SQLite adds the columns in place, where a batch would copy the tables and
    # lose their AUTOINCREMENT.
    op.add_column("event", sa.Column("apart", sa.JSON(), server_default="[]", nullable=False))
    op.add_column(
        "event", sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column(
        "session", sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False)
    )


def downgrade():
    with op.batch_alter_table("session") as batch:
        batch.drop_column("practice")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("practice")
        batch.drop_column("apart")
