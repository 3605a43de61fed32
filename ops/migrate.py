"""One-shot set-up before the API starts: migrations, the bucket, the demo catalog."""

from __future__ import annotations

from core.db import make_database, make_session_factory
from core.settings import get_settings
from core.storage import Storage
from ops.seed import seed
from ops.stack import migrate


def main() -> None:
    settings = get_settings()
    migrate(settings.resolved_database_url)
    storage = Storage(settings)
    storage.ensure_bucket()
    database = make_database(settings.resolved_database_url)
    added = seed(make_session_factory(database), storage, settings)
    database.dispose()
    print(f"migrated; catalog: {added} item(s) added", flush=True)


if __name__ == "__main__":
    main()
