"""The index of a player's summary rows holds `seated` too, so that the leaderboard and the
players page tell the nights kept without hands (`seated` 0) from the index alone, as they
read every other number of the rows, instead of looking each row up.

Revision ID: 4b7e1f9a2c60
Revises: 9e4a7c2d5b31
Create Date: 2026-11-29 10:00:00.000000
"""

from alembic import op

revision = "4b7e1f9a2c60"
down_revision = "9e4a7c2d5b31"
branch_labels = None
depends_on = None

BEFORE = ["player_id", "session_id", "hands", "hands_won", "total", "picks", "picks_won", "stake"]
AFTER = [*BEFORE[:2], "seated", *BEFORE[2:]]


def upgrade():
    op.drop_index("ix_session_player_player", table_name="session_player")
    op.create_index("ix_session_player_player", "session_player", AFTER)


def downgrade():
    op.drop_index("ix_session_player_player", table_name="session_player")
    op.create_index("ix_session_player_player", "session_player", BEFORE)
