"""Sign-ins kept on the server: signing out or a new passcode refuses every copy of a cookie.
The passcode's generation, which cookies held until now, goes: phones sign in once again.

Revision ID: 9a4c7e2b5d13
Revises: 9a7c3e5f1d24
Create Date: 2026-11-25 22:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "9a4c7e2b5d13"
down_revision = "9a7c3e5f1d24"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "sign_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in")),
    )
    with op.batch_alter_table("sign_in", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_in_created_at"), ["created_at"], unique=False)
    with op.batch_alter_table("access_setting", schema=None) as batch_op:
        batch_op.drop_column("generation")


def downgrade():
    with op.batch_alter_table("access_setting", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("generation", sa.String(length=64), nullable=False, server_default="")
        )
    op.drop_table("sign_in")
