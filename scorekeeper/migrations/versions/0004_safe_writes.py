"""Safe writes: session versions and origins, the history of changes, the trash, write keys.

Revision ID: 4e5a1f0c8b21
Revises: 8d9cff61932e
Create Date: 2026-11-23 15:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "4e5a1f0c8b21"
down_revision = "8d9cff61932e"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("origin", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_session_origin"), ["origin"], unique=False)

    op.create_table(
        "change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_change_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_change")),
    )
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_change_session_id"), ["session_id"], unique=False)

    op.create_table(
        "trashed_session",
        sa.Column("session_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_trashed_session")),
    )
    with op.batch_alter_table("trashed_session", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_trashed_session_deleted_at"), ["deleted_at"], unique=False
        )

    op.create_table(
        "write_key",
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_write_key")),
    )
    with op.batch_alter_table("write_key", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_write_key_created_at"), ["created_at"], unique=False)


def downgrade():
    with op.batch_alter_table("write_key", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_write_key_created_at"))
    op.drop_table("write_key")
    with op.batch_alter_table("trashed_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trashed_session_deleted_at"))
    op.drop_table("trashed_session")
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_change_session_id"))
    op.drop_table("change")
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_session_origin"))
        batch_op.drop_column("origin")
        batch_op.drop_column("version")
