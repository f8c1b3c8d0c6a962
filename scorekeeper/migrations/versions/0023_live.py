"""Live: on PostgreSQL, every change to a session's or an event's version is told on the channel
`scorekeeper_live` at its commit, for the servers' streams to pass on (`sessions/live.py`).
SQLite has nothing to add: its servers read the versions.

Revision ID: 3c7f1a9e5d22
Revises: 9c4f1e7a2b36
Create Date: 2026-12-02 18:00:00.000000
"""

from alembic import op

revision = "3c7f1a9e5d22"
down_revision = "9c4f1e7a2b36"
branch_labels = None
depends_on = None

CHANNEL = "scorekeeper_live"
FUNCTION = f"""
CREATE OR REPLACE FUNCTION {CHANNEL}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    PERFORM pg_notify('{CHANNEL}', TG_TABLE_NAME || ' ' || changed.id);
    IF TG_TABLE_NAME = 'session' THEN
        IF changed.event_id IS NOT NULL THEN
            PERFORM pg_notify('{CHANNEL}', 'event ' || changed.event_id);
        END IF;
    END IF;
    RETURN NULL;
END $$
"""
TABLES = ("session", "event")


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_live AFTER INSERT OR DELETE OR UPDATE OF version ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {CHANNEL}()"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in TABLES:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_live ON {table}")
    op.execute(f"DROP FUNCTION IF EXISTS {CHANNEL}()")
