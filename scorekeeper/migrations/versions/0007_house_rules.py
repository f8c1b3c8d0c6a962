"""House rules: bump, schwarz by tricks, stacked doublers, a multiplier cap, penalty hands and a
stake for each session; a pick's result and a penalty hand's penalized player for each hand.

Existing sessions keep the seed's rules (every new option at its default) and existing picks
keep their card points; their result follows from the points.

Revision ID: 7d2a9c4e1b58
Revises: 6c1f3a8e2d47
Create Date: 2026-11-23 18:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "7d2a9c4e1b58"
down_revision = "6c1f3a8e2d47"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bump", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("schwarz", sa.String(length=10), server_default="points", nullable=False)
        )
        batch_op.add_column(
            sa.Column("doublers", sa.String(length=10), server_default="queue", nullable=False)
        )
        batch_op.add_column(
            sa.Column("max_multiplier", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(
            sa.Column("penalties", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("stake", sa.Integer(), server_default="0", nullable=False))
    # A foreign key rebuilds the table on SQLite (the migration environment turns foreign keys
    # off meanwhile, so that no hand's players go with the old table).
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.add_column(sa.Column("result", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("penalized_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_hand_penalized_id"), ["penalized_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_hand_penalized_id_player"), "player", ["penalized_id"], ["id"]
        )
    op.execute(
        """
        UPDATE hand SET result = CASE
            WHEN picking_points = 120 THEN 'won_schwarz'
            WHEN picking_points >= 91 THEN 'won_schneider'
            WHEN picking_points >= 61 THEN 'won'
            WHEN picking_points >= 31 THEN 'lost'
            WHEN picking_points >= 1 THEN 'lost_schneider'
            ELSE 'lost_schwarz'
        END
        WHERE kind = 'pick'
        """
    )


def downgrade():
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_hand_penalized_id_player"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_hand_penalized_id"))
        batch_op.drop_column("penalized_id")
        batch_op.drop_column("result")
    with op.batch_alter_table("session", schema=None) as batch_op:
        for column in ("stake", "penalties", "max_multiplier", "doublers", "schwarz", "bump"):
            batch_op.drop_column(column)
