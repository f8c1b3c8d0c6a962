"""Players, sessions, seats and hands.

Revision ID: 3f2529198b4f
Revises:
Create Date: 2026-11-21 22:55:04.317320
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3f2529198b4f"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=160), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("name_key", name=op.f("uq_player_name_key")),
    )
    op.create_table(
        "session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("first_dealer_id", sa.Integer(), nullable=False),
        sa.Column("partner", sa.String(length=20), nullable=False),
        sa.Column("no_bid", sa.String(length=20), nullable=False),
        sa.Column("cracking", sa.Boolean(), nullable=False),
        sa.Column("blitzing", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_dealer_id"], ["player.id"], name=op.f("fk_session_first_dealer_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session")),
    )
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("picker_id", sa.Integer(), nullable=True),
        sa.Column("partner_id", sa.Integer(), nullable=True),
        sa.Column("called_card", sa.String(length=3), nullable=True),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("picking_points", sa.Integer(), nullable=True),
        sa.Column("cracked_by_id", sa.Integer(), nullable=True),
        sa.Column("recracked", sa.Boolean(), nullable=False),
        sa.Column("black_blitz", sa.Boolean(), nullable=False),
        sa.Column("red_blitz", sa.Boolean(), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("multiplier", sa.Integer(), nullable=False),
        sa.CheckConstraint("picking_points BETWEEN 0 AND 120", name=op.f("ck_hand_picking_points")),
        sa.ForeignKeyConstraint(
            ["cracked_by_id"], ["player.id"], name=op.f("fk_hand_cracked_by_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["dealer_id"], ["player.id"], name=op.f("fk_hand_dealer_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["partner_id"], ["player.id"], name=op.f("fk_hand_partner_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["picker_id"], ["player.id"], name=op.f("fk_hand_picker_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_hand_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["winner_id"], ["player.id"], name=op.f("fk_hand_winner_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand")),
        sa.UniqueConstraint("session_id", "number", name=op.f("uq_hand_session_id")),
    )
    op.create_table(
        "seat",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_seat_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_seat_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("session_id", "position", name=op.f("pk_seat")),
        sa.UniqueConstraint("session_id", "player_id", name=op.f("uq_seat_session_id")),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_player_id"), ["player_id"], unique=False)

    op.create_table(
        "hand_player",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("tricks", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hand.id"], name=op.f("fk_hand_player_hand_id_hand"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_hand_player_player_id_player")
        ),
        sa.PrimaryKeyConstraint("hand_id", "player_id", name=op.f("pk_hand_player")),
    )
    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_player_player_id"), ["player_id"], unique=False)


def downgrade():
    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_player_player_id"))

    op.drop_table("hand_player")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_player_id"))

    op.drop_table("seat")
    op.drop_table("hand")
    op.drop_table("session")
    op.drop_table("player")
