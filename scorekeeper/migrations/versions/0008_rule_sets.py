"""Named rule sets: a group's rules saved under a name, to start new sessions with.

Revision ID: 8e3b5d1f6a92
Revises: 7d2a9c4e1b58
Create Date: 2026-11-24 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "8e3b5d1f6a92"
down_revision = "7d2a9c4e1b58"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rule_set",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=160), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rule_set")),
        sa.UniqueConstraint("name_key", name=op.f("uq_rule_set_name_key")),
    )


def downgrade():
    op.drop_table("rule_set")
