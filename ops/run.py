"""`make run`: start the embedded stack with the default settings and wait for Ctrl-C."""

from __future__ import annotations

import logging
import signal
import threading

from core.settings import get_settings
from ops.stack import Stack


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
        while not stopping.wait(1):
            for name, proc in list(stack.processes.items()):
                if proc.poll() is not None:
                    print(f"{name} exited with {proc.returncode}; stopping.", flush=True)
                    stopping.set()
        print("Stopping ...", flush=True)
    print("Stopped.", flush=True)


if __name__ == "__main__":
    main()
