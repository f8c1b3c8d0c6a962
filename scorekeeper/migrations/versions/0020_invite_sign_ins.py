"""The phones an invite let in, kept on the server (`invite_sign_in`): signing out ends one,
copies of its cookie included, and a phone's cookie no longer holds the invite's link. Phones
that opened an invite before open its link once again.

Revision ID: 7d2e9b4a6c15
Revises: c3f81a6e5d27
Create Date: 2027-01-05 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "7d2e9b4a6c15"
down_revision = "c3f81a6e5d27"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "invite_sign_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("invite_id", sa.Integer(), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["invite_id"],
            ["invite.id"],
            name=op.f("fk_invite_sign_in_invite_id_invite"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invite_sign_in")),
    )
    op.create_index(op.f("ix_invite_sign_in_invite_id"), "invite_sign_in", ["invite_id"])


def downgrade():
    op.drop_table("invite_sign_in")
