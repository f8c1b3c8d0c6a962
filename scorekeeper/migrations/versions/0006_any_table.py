"""Any table: who sits out, and for each hand who played it among the players seated for it.

Every existing hand was played by all five of its seats, so each hand-player row is marked played,
each hand had five seated, and every session has had its seats since its first hand.

Revision ID: 6c1f3a8e2d47
Revises: 5b7d2e9a1c33
Create Date: 2026-11-23 17:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "6c1f3a8e2d47"
down_revision = "5b7d2e9a1c33"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("sitting_out", sa.String(length=10), server_default="dealer", nullable=False)
        )
        batch_op.add_column(
            sa.Column("seats_since", sa.Integer(), server_default="0", nullable=False)
        )
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seated", sa.Integer(), nullable=True))
    op.execute("UPDATE hand SET seated = 5")
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.alter_column("seated", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("played", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
        batch_op.drop_index("ix_hand_player_player_totals")
        batch_op.create_index(
            "ix_hand_player_player_totals",
            ["player_id", "hand_id", "played", "score", "won", "schneidered"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.drop_index("ix_hand_player_player_totals")
        batch_op.create_index(
            "ix_hand_player_player_totals",
            ["player_id", "hand_id", "score", "won", "schneidered"],
            unique=False,
        )
        batch_op.drop_column("played")
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.drop_column("seated")
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.drop_column("seats_since")
        batch_op.drop_column("sitting_out")
