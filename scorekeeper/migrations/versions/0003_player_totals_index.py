"""A covering index for every player's totals: the leaderboard reads it alone, in its order.

Revision ID: 8d9cff61932e
Revises: 8dc8fc5b51cf
Create Date: 2026-11-21 23:39:10.919724
"""

from alembic import op

revision = "8d9cff61932e"
down_revision = "8dc8fc5b51cf"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_player_player_id"))
        batch_op.create_index(
            "ix_hand_player_player_totals",
            ["player_id", "hand_id", "score", "won", "schneidered"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.drop_index("ix_hand_player_player_totals")
        batch_op.create_index(batch_op.f("ix_hand_player_player_id"), ["player_id"], unique=False)
