"""What each player did in each session, kept beside the hands (`session_player`), and each
session's hand count and completeness, filled in from every stored hand; an index on a
session's start and id, the order every list of sessions is read in.

The rows are added up here as `sessions/summary.py` adds them up at this revision, so that a
later change there changes nothing this migration does.

Revision ID: a7c4e2d91f38
Revises: 5e3b0c7d2a19
Create Date: 2026-12-17 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper import rules

revision = "a7c4e2d91f38"
down_revision = "5e3b0c7d2a19"
branch_labels = None
depends_on = None

NUMBERS = (
    "hands", "hands_won", "total", "picks", "picks_won", "alone", "alone_won", "partner",
    "partner_won", "cracks", "cracks_won", "recracked", "crack_points", "leasters",
    "leasters_won", "schneidered", "penalties", "card_points", "picks_with_points",
)  # fmt: skip


def upgrade():
    # Not in a batch: SQLite adds the columns in place, where a batch would copy the table and
    # forget the ids it has handed out (see 0009).
    op.add_column(
        "session", sa.Column("hand_count", sa.Integer(), server_default="0", nullable=False)
    )
    op.add_column(
        "session", sa.Column("completed", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.drop_index("ix_session_created_at", table_name="session")
    op.create_index("ix_session_created_at_id", "session", ["created_at", "id"])
    op.create_index(
        "ix_session_completed_created_at_id", "session", ["completed", "created_at", "id"]
    )
    op.create_table(
        "session_player",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seated", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in NUMBERS),
        sa.Column("stake", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_session_player_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["session.id"],
            name=op.f("fk_session_player_session_id_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "session_id", "player_id", "seated", name=op.f("pk_session_player")
        ),
    )
    op.create_index(
        "ix_session_player_player",
        "session_player",
        ["player_id", "session_id", "hands", "hands_won", "total", "picks", "picks_won", "stake"],
    )
    _fill()


def downgrade():
    op.drop_table("session_player")
    op.drop_index("ix_session_completed_created_at_id", table_name="session")
    op.drop_index("ix_session_created_at_id", table_name="session")
    op.create_index("ix_session_created_at", "session", ["created_at"])
    with op.batch_alter_table("session", schema=None) as batch_op:
        batch_op.drop_column("completed")
        batch_op.drop_column("hand_count")


def _fill():
    connection = op.get_bind()
    connection.execute(
        sa.text(
            """
            INSERT INTO session_player (session_id, player_id, seated, {numbers}, stake)
            SELECT hand.session_id, hp.player_id, hand.seated,
                count(*),
                sum(CASE WHEN hp.won THEN 1 ELSE 0 END),
                coalesce(sum(hp.score), 0),
                sum(CASE WHEN {picker} THEN 1 ELSE 0 END),
                sum(CASE WHEN {picker} AND hp.won THEN 1 ELSE 0 END),
                sum(CASE WHEN {alone} THEN 1 ELSE 0 END),
                sum(CASE WHEN {alone} AND hp.won THEN 1 ELSE 0 END),
                sum(CASE WHEN {partner} THEN 1 ELSE 0 END),
                sum(CASE WHEN {partner} AND hp.won THEN 1 ELSE 0 END),
                sum(CASE WHEN {cracker} THEN 1 ELSE 0 END),
                sum(CASE WHEN {cracker} AND hp.won THEN 1 ELSE 0 END),
                sum(CASE WHEN {cracker} AND hand.recracked THEN 1 ELSE 0 END),
                coalesce(sum(CASE WHEN {cracker} THEN hp.score END), 0),
                sum(CASE WHEN hand.kind = :leaster THEN 1 ELSE 0 END),
                sum(CASE WHEN hand.kind = :leaster AND hp.won THEN 1 ELSE 0 END),
                sum(CASE WHEN hp.schneidered THEN 1 ELSE 0 END),
                sum(CASE WHEN hand.penalized_id = hp.player_id THEN 1 ELSE 0 END),
                coalesce(sum(CASE WHEN {with_points} THEN hand.picking_points END), 0),
                sum(CASE WHEN {with_points} THEN 1 ELSE 0 END),
                session.stake
            FROM hand_player AS hp
                JOIN hand ON hand.id = hp.hand_id
                JOIN session ON session.id = hand.session_id
            WHERE hp.played
            GROUP BY hand.session_id, hp.player_id, hand.seated, session.stake
            """.format(
                numbers=", ".join(NUMBERS),
                picker="hand.picker_id = hp.player_id",
                alone="hand.picker_id = hp.player_id AND hand.partner_id IS NULL",
                partner="hand.partner_id = hp.player_id",
                cracker="hand.cracked_by_id = hp.player_id",
                with_points="hand.picker_id = hp.player_id AND hand.picking_points IS NOT NULL",
            )
        ),
        {"leaster": rules.Kind.LEASTER.value},
    )
    connection.execute(
        sa.text(
            "UPDATE session SET hand_count = "
            "(SELECT count(*) FROM hand WHERE hand.session_id = session.id)"
        )
    )
    connection.execute(
        sa.text(
            "UPDATE session SET completed = (ended OR (rounds > 0 AND hand_count >= rounds * "
            "(SELECT count(*) FROM seat WHERE seat.session_id = session.id)))"
        )
    )
    sums = {}
    for session_id, player_id, total, won in connection.execute(
        sa.text(
            "SELECT sp.session_id, sp.player_id, sum(sp.total), sum(sp.hands_won) "
            "FROM session_player AS sp JOIN session ON session.id = sp.session_id "
            "WHERE session.completed GROUP BY sp.session_id, sp.player_id"
        )
    ):
        sums.setdefault(session_id, {})[player_id] = (int(total), int(won))
    for session_id, player_id in connection.execute(
        sa.text(
            "SELECT seat.session_id, seat.player_id FROM seat "
            "JOIN session ON session.id = seat.session_id WHERE session.completed"
        )
    ):
        sums.setdefault(session_id, {}).setdefault(player_id, (0, 0))
    places = []
    for session_id, players in sums.items():
        names = [str(player_id) for player_id in players]
        totals = {str(p): total for p, (total, _) in players.items()}
        won = {str(p): hands_won for p, (_, hands_won) in players.items()}
        places.extend(
            {"s": session_id, "p": int(standing.player), "place": standing.place}
            for standing in rules.standings(names, totals, won)
        )
    if places:
        connection.execute(
            sa.text(
                "UPDATE session_player SET place = :place WHERE session_id = :s AND player_id = :p"
            ),
            places,
        )
