"""Players can retire and be merged: a player's `active` flag (every existing player is active)
and the merges kept for undoing.

Revision ID: e5a1c93f0b27
Revises: c82b13028a6d
Create Date: 2026-12-10 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "e5a1c93f0b27"
down_revision = "c82b13028a6d"
branch_labels = None
depends_on = None


def upgrade():
    # Not in a batch: SQLite adds the column in place, where a batch would copy the table and
    # forget the ids it has handed out (see 0009).
    op.add_column(
        "player", sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False)
    )
    op.create_table(
        "player_merge",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("into_id", sa.Integer(), nullable=False),
        sa.Column("sessions", sa.JSON(), nullable=False),
        sa.Column("trashed", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_merge")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("player_merge", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_merge_at"), ["at"], unique=False)
        batch_op.create_index(batch_op.f("ix_player_merge_into_id"), ["into_id"], unique=False)


def downgrade():
    op.drop_table("player_merge")
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_column("active")
