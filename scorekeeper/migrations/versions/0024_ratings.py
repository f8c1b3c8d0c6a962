"""Each player's rating (`player_rating`) and whether the ratings are those of the history
(`rating_state`). The ratings of a database that has hands are left to be computed: every
player starts at the model's first rating and the state says a recompute is due, which the
server starts when it starts (or `flask check --repair` does).

Revision ID: 5b9e0d4c7a12
Revises: 3c7f1a9e5d22
Create Date: 2027-01-12 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "5b9e0d4c7a12"
down_revision = "3c7f1a9e5d22"
branch_labels = None
depends_on = None

# OpenSkill's Plackett-Luce model's first rating, as `rules.rating` reads it from the model.
MU = 25.0
SIGMA = 25.0 / 3.0


def upgrade():
    op.create_table(
        "player_rating",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_session_id", sa.Integer(), nullable=True),
        sa.Column("history", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_player_rating_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_rating")),
    )
    op.create_table(
        "rating_state",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("computed", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_state")),
    )
    bind = op.get_bind()
    bind.execute(
        sa.text(
            "INSERT INTO player_rating (player_id, mu, sigma, hands) "
            "SELECT id, :mu, :sigma, 0 FROM player"
        ),
        {"mu": MU, "sigma": SIGMA},
    )
    bind.execute(
        sa.text(
            "INSERT INTO rating_state (id, generation, computed) "
            "SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM hand) THEN 1 ELSE 0 END, 0"
        )
    )


def downgrade():
    op.drop_table("rating_state")
    op.drop_table("player_rating")
