"""Invites: a link that signs a phone in for one session alone, as scorer or reader, for some
hours; and API tokens for one session alone, in a role, until a moment.

Revision ID: 3f8d2a6c9b41
Revises: e5a1c93f0b27
Create Date: 2026-12-12 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "3f8d2a6c9b41"
down_revision = "e5a1c93f0b27"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "invite",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_invite_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invite")),
    )
    with op.batch_alter_table("invite", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_invite_expires_at"), ["expires_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_invite_session_id"), ["session_id"], unique=False)
    # Not in a batch: SQLite adds the columns in place (see 0014).
    op.add_column("api_token", sa.Column("session_id", sa.Integer(), nullable=True))
    op.add_column("api_token", sa.Column("role", sa.String(length=10), nullable=True))
    op.add_column("api_token", sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("api_token", schema=None) as batch_op:
        batch_op.drop_column("expires_at")
        batch_op.drop_column("role")
        batch_op.drop_column("session_id")
    op.drop_table("invite")
