"""PostgreSQL: a notification on channel mm_changes whenever tasks or generations change

The API's poll cache (api/poll_cache.py) keeps plain pollTasks answers until the database
changes. SQLite tells it through `PRAGMA data_version`; on PostgreSQL these statement-level
triggers do, with one NOTIFY per changing statement (identical notifications of one
transaction reach listeners once, at commit). Nothing on SQLite.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24 08:40:00
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

TABLES = ("tasks", "generations")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        """
        CREATE FUNCTION mm_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('mm_changes', '');
            RETURN NULL;
        END;
        $$
        """
    )
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_notify_change AFTER INSERT OR UPDATE OR DELETE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION mm_notify_change()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in TABLES:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_notify_change ON {table}")
    op.execute("DROP FUNCTION IF EXISTS mm_notify_change()")
