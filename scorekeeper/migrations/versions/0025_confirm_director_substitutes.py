"""Tournament tables: an event may ask that the other side confirm every hand
(`event.confirm`, off for every event before), a hand keeps who confirmed it
(`hand.confirmed_by_id`, none before), a table's open call for the director is kept on its
session (`session.director_at`, `session.director_note`), and a substitute at a table counts
for the player replaced (`stand_in`).

Revision ID: 9e4a7c2b5d31
Revises: 5b9e0d4c7a12
Create Date: 2027-01-10 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "9e4a7c2b5d31"
down_revision = "5b9e0d4c7a12"
branch_labels = None
depends_on = None


def upgrade():
    # Not in a batch: SQLite adds the columns in place, where a batch would copy the table and
    # forget the ids it has handed out (see 0011); so the reference is written with the column.
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.add_column(
        "event", sa.Column("confirm", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    if sqlite:
        op.add_column(
            "hand",
            sa.Column("confirmed_by_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=True),
            inline_references=True,
        )
    else:
        op.add_column("hand", sa.Column("confirmed_by_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            op.f("fk_hand_confirmed_by_id_player"), "hand", "player", ["confirmed_by_id"], ["id"]
        )
    op.create_index(op.f("ix_hand_confirmed_by_id"), "hand", ["confirmed_by_id"], unique=False)
    op.add_column("session", sa.Column("director_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("session", sa.Column("director_note", sa.String(length=200), nullable=True))
    op.create_table(
        "stand_in",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("stands_for_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_stand_in_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_stand_in_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["stands_for_id"], ["player.id"], name=op.f("fk_stand_in_stands_for_id_player")
        ),
        sa.PrimaryKeyConstraint("session_id", "player_id", name=op.f("pk_stand_in")),
    )
    op.create_index(op.f("ix_stand_in_player_id"), "stand_in", ["player_id"], unique=False)
    op.create_index(op.f("ix_stand_in_stands_for_id"), "stand_in", ["stands_for_id"], unique=False)


def downgrade():
    op.drop_table("stand_in")
    op.drop_index(op.f("ix_hand_confirmed_by_id"), table_name="hand")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("fk_hand_confirmed_by_id_player"), "hand", type_="foreignkey")
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("confirmed_by_id")
    with op.batch_alter_table("session") as batch:
        batch.drop_column("director_note")
        batch.drop_column("director_at")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("confirm")
