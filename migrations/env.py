"""Alembic environment: the URL comes from our settings unless the caller set one."""

from __future__ import annotations

from alembic import context

from core.db import make_database
from core.models.base import Base
from core.settings import get_settings

config = context.config
url = config.get_main_option("sqlalchemy.url") or get_settings().resolved_database_url


def run_migrations_offline() -> None:
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    database = make_database(url)
    with database.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=url.startswith("sqlite"),
        )
        with context.begin_transaction():
            context.run_migrations()
    database.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
