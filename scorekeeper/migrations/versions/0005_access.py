"""Optional access: the passcode, API tokens and recent wrong tries.

Revision ID: 5b7d2e9a1c33
Revises: 4e5a1f0c8b21
Create Date: 2026-11-28 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "5b7d2e9a1c33"
down_revision = "4e5a1f0c8b21"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "access_setting",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=True),
        sa.Column("passcode_hash", sa.String(length=255), nullable=True),
        sa.Column("generation", sa.String(length=64), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_access_setting")),
    )
    op.create_table(
        "api_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("secret_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_token")),
        sa.UniqueConstraint("name", name=op.f("uq_api_token_name")),
    )
    op.create_table(
        "sign_in_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_failure")),
    )
    with op.batch_alter_table("sign_in_failure", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_in_failure_at"), ["at"], unique=False)
        batch_op.create_index("ix_sign_in_failure_address_at", ["address", "at"], unique=False)


def downgrade():
    op.drop_table("sign_in_failure")
    op.drop_table("api_token")
    op.drop_table("access_setting")
