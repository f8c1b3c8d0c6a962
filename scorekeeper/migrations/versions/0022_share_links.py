"""Share links: a link anyone may open, with no passcode, to read one season's standings, one
club event's board and results, or one session's scoresheet; and the views of share links
from each address a minute, for their rate limit.

Revision ID: 9c4f1e7a2b36
Revises: 5b9e0d7c2a14
Create Date: 2027-01-12 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "9c4f1e7a2b36"
down_revision = "5b9e0d7c2a14"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "share_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(kind = 'season' AND season_id IS NOT NULL AND event_id IS NULL"
            " AND session_id IS NULL)"
            " OR (kind = 'event' AND event_id IS NOT NULL AND season_id IS NULL"
            " AND session_id IS NULL)"
            " OR (kind = 'session' AND session_id IS NOT NULL AND season_id IS NULL"
            " AND event_id IS NULL)",
            name=op.f("ck_share_link_one_target"),
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["season.id"],
            name=op.f("fk_share_link_season_id_season"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event.id"],
            name=op.f("fk_share_link_event_id_event"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_share_link_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_share_link")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_share_link_season_id"), "share_link", ["season_id"])
    op.create_index(op.f("ix_share_link_event_id"), "share_link", ["event_id"])
    op.create_index(op.f("ix_share_link_session_id"), "share_link", ["session_id"])
    op.create_table(
        "share_view",
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("minute", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("address", "minute", name=op.f("pk_share_view")),
    )
    op.create_index(op.f("ix_share_view_minute"), "share_view", ["minute"])


def downgrade():
    op.drop_table("share_view")
    op.drop_table("share_link")
