"""The indexes of the hands' pickers and partners hold each hand's session too, so that a
player's partners over a year's sessions are found from the index rather than by reading
every hand they picked or partnered in.

Revision ID: 5a1f3c8e9b27
Revises: 2e8b5c1d7f40
Create Date: 2026-11-29 12:30:00.000000
"""

from alembic import op

revision = "5a1f3c8e9b27"
down_revision = "2e8b5c1d7f40"
branch_labels = None
depends_on = None

ROLES = ("picker_id", "partner_id")


def upgrade():
    for role in ROLES:
        op.create_index(f"ix_hand_{role}_session_id", "hand", [role, "session_id"])
        op.drop_index(f"ix_hand_{role}", table_name="hand")


def downgrade():
    for role in ROLES:
        op.create_index(f"ix_hand_{role}", "hand", [role])
        op.drop_index(f"ix_hand_{role}_session_id", table_name="hand")
