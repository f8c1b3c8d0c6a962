"""Schneider per hand player; indexes for statistics.

Revision ID: 8dc8fc5b51cf
Revises: 3f2529198b4f
Create Date: 2026-11-21 23:27:26.338527
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.rules import schneidered_side

revision = "8dc8fc5b51cf"
down_revision = "3f2529198b4f"
branch_labels = None
depends_on = None

hand = sa.table(
    "hand",
    sa.column("id", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("picking_points", sa.Integer),
    sa.column("picker_id", sa.Integer),
    sa.column("partner_id", sa.Integer),
)
hand_player = sa.table(
    "hand_player",
    sa.column("hand_id", sa.Integer),
    sa.column("player_id", sa.Integer),
    sa.column("schneidered", sa.Boolean),
)


def upgrade():
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_cracked_by_id"), ["cracked_by_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_hand_partner_id"), ["partner_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_hand_picker_id"), ["picker_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_hand_winner_id"), ["winner_id"], unique=False)

    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("schneidered", sa.Boolean(), nullable=False, server_default=sa.false())
        )

    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_session_created_at"), ["created_at"], unique=False)

    # Hands already recorded: the rules engine says which picking points schneider which side.
    by_side = {
        side: [p for p in range(121) if schneidered_side(p) == side]
        for side in ("picking", "opponents")
    }
    on_team = sa.or_(
        hand_player.c.player_id == hand.c.picker_id,
        hand_player.c.player_id == hand.c.partner_id,
    )
    schneidered = (
        sa.select(hand.c.id)
        .where(hand.c.id == hand_player.c.hand_id, hand.c.kind == "pick")
        .where(
            sa.or_(
                sa.and_(hand.c.picking_points.in_(by_side["picking"]), on_team),
                sa.and_(
                    hand.c.picking_points.in_(by_side["opponents"]),
                    sa.not_(sa.func.coalesce(on_team, False)),
                ),
            )
        )
    )
    op.execute(hand_player.update().where(schneidered.exists()).values(schneidered=True))

    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.alter_column("schneidered", server_default=None)


def downgrade():
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_session_created_at"))

    with op.batch_alter_table("hand_player", schema=None) as batch_op:
        batch_op.drop_column("schneidered")

    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_winner_id"))
        batch_op.drop_index(batch_op.f("ix_hand_picker_id"))
        batch_op.drop_index(batch_op.f("ix_hand_partner_id"))
        batch_op.drop_index(batch_op.f("ix_hand_cracked_by_id"))
