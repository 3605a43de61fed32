"""`make run`: start the embedded stack with the default settings and keep it running until Ctrl-C.

A child that exits (killed, out of memory, crashed) is restarted with backoff while the others
keep running (ops/supervise.py); Ctrl-C stops them all.
"""

from __future__ import annotations

import logging
import signal
import threading

from core.settings import get_settings
from ops.stack import Stack
from ops.supervise import Supervisor


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    settings = get_settings()
    stack = Stack(settings, log_dir=settings.data_dir / "logs")
    stopping = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    print("Starting Temporal, storage, database, workers and API ...", flush=True)
    with stack:
        stack.start()
        print(
            f"\n  App:         {settings.app_url}\n"
            f"  Temporal UI: http://127.0.0.1:{settings.temporal_ui_port}\n"
            f"  API docs:    {settings.app_url}/docs\n"
            f"  Logs:        {(settings.data_dir / 'logs').resolve()}\n"
            "\nPress Ctrl-C to stop.",
            flush=True,
        )
        Supervisor(stack).run(stopping)
        print("Stopping ...", flush=True)
    print("Stopped.", flush=True)


if __name__ == "__main__":
    main()
