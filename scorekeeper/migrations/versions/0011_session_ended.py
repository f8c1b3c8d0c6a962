"""Sessions can be ended early, and a player who leaves settled at once: a session's `ended`
flag (existing sessions are not ended), the early payments, and changes to a session itself
in its history (no hand number, longer action names).

Revision ID: b3e1f0a2c4d5
Revises: 9a4c7e2b5d13
Create Date: 2026-11-26 01:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "b3e1f0a2c4d5"
down_revision = "9a4c7e2b5d13"
branch_labels = None
depends_on = None


def upgrade():
    # Not in a batch: SQLite adds the column in place, where a batch would copy the table and
    # forget the ids it has handed out (see 0009).
    op.add_column(
        "session", sa.Column("ended", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.alter_column(
            "action",
            existing_type=sa.String(length=10),
            type_=sa.String(length=20),
            existing_nullable=False,
        )
        batch_op.alter_column("number", existing_type=sa.Integer(), nullable=True)
    op.create_table(
        "early_payment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("leaver_id", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_early_payment_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["leaver_id"], ["player.id"], name=op.f("fk_early_payment_leaver_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"], ["player.id"], name=op.f("fk_early_payment_payer_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["payee_id"], ["player.id"], name=op.f("fk_early_payment_payee_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_early_payment")),
    )
    with op.batch_alter_table("early_payment", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_early_payment_session_id"), ["session_id"], unique=False
        )


def downgrade():
    op.drop_table("early_payment")
    op.execute("DELETE FROM change WHERE number IS NULL")
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column(
            "action",
            existing_type=sa.String(length=20),
            type_=sa.String(length=10),
            existing_nullable=False,
        )
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.drop_column("ended")
