"""Club events: an event with its rules, rounds, prizes and seed, its players in the order they
checked in, and each table's session linked to its event, round and table.

Revision ID: 7c2e5b9d4a18
Revises: 3f8d2a6c9b41
Create Date: 2026-12-20 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "7c2e5b9d4a18"
down_revision = "3f8d2a6c9b41"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("round_top", sa.Integer(), nullable=False),
        sa.Column("ties", sa.String(length=10), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_created_at"), ["created_at"], unique=False)
    op.create_table(
        "event_player",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("checked_in", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event.id"],
            name=op.f("fk_event_player_event_id_event"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_event_player_player_id_player")
        ),
        sa.PrimaryKeyConstraint("event_id", "player_id", name=op.f("pk_event_player")),
        sa.UniqueConstraint("event_id", "position", name=op.f("uq_event_player_event_id")),
    )
    with op.batch_alter_table("event_player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_player_player_id"), ["player_id"], unique=False)
    # Not in a batch: SQLite adds the columns in place, where a batch would copy the table and
    # forget the ids it has handed out (see 0011); so the reference is written with the column.
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.add_column(
            "session",
            sa.Column("event_id", sa.Integer(), sa.ForeignKey("event.id"), nullable=True),
            inline_references=True,
        )
    else:
        op.add_column("session", sa.Column("event_id", sa.Integer(), nullable=True))
    op.add_column("session", sa.Column("event_round", sa.Integer(), nullable=True))
    op.add_column("session", sa.Column("event_table", sa.Integer(), nullable=True))
    if not sqlite:
        op.create_foreign_key(
            op.f("fk_session_event_id_event"), "session", "event", ["event_id"], ["id"]
        )
    op.create_index(op.f("ix_session_event_id"), "session", ["event_id"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_session_event_id"), table_name="session")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("fk_session_event_id_event"), "session", type_="foreignkey")
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.drop_column("event_table")
        batch_op.drop_column("event_round")
        batch_op.drop_column("event_id")
    op.drop_table("event_player")
    op.drop_table("event")
