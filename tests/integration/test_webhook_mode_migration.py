"""Migration 0021 (issue 33): webhook endpoints get a mode, and the ones that existed before it
are live (they were made with live keys or sessions: test keys could not be told apart, and a
live endpoint must keep receiving live events). On SQLite and PostgreSQL."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from core.db import make_database
from ops.stack import REPO


def test_existing_endpoints_become_live_ones(database_url: str) -> None:
    config = Config(str(REPO / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", database_url)
    command.upgrade(config, "0020")
    database = make_database(database_url)
    try:
        with database.begin() as connection:
            connection.execute(text(
                "INSERT INTO accounts (id, kind, distributor_id, free_credits, paid_credits, "
                "version, created_at) VALUES ('acc1', 'user', 'd', 0, 0, 1, CURRENT_TIMESTAMP)"))
            connection.execute(text(
                "INSERT INTO webhook_endpoints (id, account_id, url, description, events, "
                "secret, created_at) VALUES ('ep1', 'acc1', 'https://shop.example/hook', '', "
                "'[\"task.completed\"]', 'whsec_x', CURRENT_TIMESTAMP)"))
        command.upgrade(config, "0021")
        with database.connect() as connection:
            livemode = connection.execute(text(
                "SELECT livemode FROM webhook_endpoints WHERE id = 'ep1'")).scalar_one()
            assert livemode in (True, 1)
        command.downgrade(config, "0020")  # and back, for an operator who must
        with database.connect() as connection:
            assert connection.execute(text(
                "SELECT count(*) FROM webhook_endpoints")).scalar_one() == 1
    finally:
        database.dispose()
