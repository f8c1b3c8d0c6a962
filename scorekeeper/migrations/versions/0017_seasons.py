"""Seasons: a name, a first and last day, the house rules its sessions are played with, and the
fewest hands to be ranked by average.

Revision ID: 5e3b0c7d2a19
Revises: 7c2e5b9d4a18
Create Date: 2026-12-28 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "5e3b0c7d2a19"
down_revision = "7c2e5b9d4a18"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=240), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=False),
        sa.Column("min_hands", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season")),
        sa.UniqueConstraint("name_key", name=op.f("uq_season_name_key")),
        sqlite_autoincrement=True,
    )


def downgrade():
    op.drop_table("season")
