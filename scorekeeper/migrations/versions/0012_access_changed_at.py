"""The access setting no longer keeps when it last changed: nothing read it.

Revision ID: 6099f1d8aee6
Revises: b3e1f0a2c4d5
Create Date: 2026-12-03 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "6099f1d8aee6"
down_revision = "b3e1f0a2c4d5"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("access_setting", schema=None) as batch_op:
        batch_op.drop_column("changed_at")


def downgrade():
    with op.batch_alter_table("access_setting", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "changed_at",
                sa.DateTime(timezone=True),
                nullable=False,
                server_default=sa.func.current_timestamp(),
            )
        )
