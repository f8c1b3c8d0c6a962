"""Who sat in each session (`session_member`): the players seated now and those at any of its
hands, filled in from every stored seat and hand.

Revision ID: c3f81a6e5d27
Revises: a7c4e2d91f38
Create Date: 2026-12-24 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "c3f81a6e5d27"
down_revision = "a7c4e2d91f38"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "session_member",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_session_member_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_session_member_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("session_id", "player_id", name=op.f("pk_session_member")),
    )
    op.create_index("ix_session_member_player", "session_member", ["player_id", "session_id"])
    op.get_bind().execute(
        sa.text(
            """
            INSERT INTO session_member (session_id, player_id)
            SELECT session_id, player_id FROM seat
            UNION
            SELECT hand.session_id, hp.player_id
            FROM hand_player AS hp JOIN hand ON hand.id = hp.hand_id
            """
        )
    )


def downgrade():
    op.drop_table("session_member")
