"""Nights kept without hands: a session may be only its players' nets (`session.totals_only`),
each player's net kept on their seat (`seat.net`). Every session before is one with hands.

Revision ID: 5b9e0d7c2a14
Revises: 7d2e9b4a6c15
Create Date: 2026-11-28 17:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "5b9e0d7c2a14"
down_revision = "7d2e9b4a6c15"
branch_labels = None
depends_on = None


def upgrade():
    # Not in a batch: SQLite adds the columns in place, where a batch would copy the table and
    # lose its AUTOINCREMENT.
    op.add_column(
        "session", sa.Column("totals_only", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column("seat", sa.Column("net", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("net")
    with op.batch_alter_table("session") as batch:
        batch.drop_column("totals_only")
