"""One-shot set-up before the API starts: migrations, the bucket, the demo catalog."""

from __future__ import annotations

from core.db import make_engine, make_session_factory
from core.settings import get_settings
from core.storage import Storage
from ops.seed import seed
from ops.stack import migrate


def main() -> None:
    settings = get_settings()
    migrate(settings.resolved_database_url)
    storage = Storage(settings)
    storage.ensure_bucket()
    engine = make_engine(settings.resolved_database_url)
    added = seed(make_session_factory(engine), storage, settings)
    engine.dispose()
    print(f"migrated; catalog: {added} item(s) added", flush=True)


if __name__ == "__main__":
    main()
