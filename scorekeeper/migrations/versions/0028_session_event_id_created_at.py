"""The index of the sessions' events holds when each started too, so that the sessions of no
event (the home page's and the sessions list's) come newest first from the index, instead of
every session being read and sorted: without statistics SQLite takes `event_id IS NULL` for a
few sessions and picks this index whatever it holds.

Revision ID: 7d2c9e4f1a83
Revises: 4b7e1f9a2c60
Create Date: 2026-11-29 11:00:00.000000
"""

from alembic import op

revision = "7d2c9e4f1a83"
down_revision = "4b7e1f9a2c60"
branch_labels = None
depends_on = None


def upgrade():
    op.drop_index("ix_session_event_id", table_name="session")
    op.create_index(
        "ix_session_event_id_created_at_id", "session", ["event_id", "created_at", "id"]
    )


def downgrade():
    op.drop_index("ix_session_event_id_created_at_id", table_name="session")
    op.create_index("ix_session_event_id", "session", ["event_id"])
