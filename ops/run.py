"""`make run`: start the embedded stack with the default settings and keep it running until Ctrl-C.

A child that exits (killed, out of memory, crashed) is restarted with backoff while the others
keep running (ops/supervise.py); Ctrl-C stops them all.

The console shows what a person needs: the URLs, what started, what failed and why. What the
children print, the libraries' warnings included (mediapipe, absl, protobuf), goes to the log
files under DATA_DIR/logs; the demo showcase, which runs the engine, is made in a child too
(Stack.prepare_data). tests/integration/test_quiet_start.py holds the console to that.
"""

from __future__ import annotations

import signal
import threading

from core.observability.error_reports import setup_error_reports
from core.observability.logs import configure_logging
from core.provenance.chain import CredentialsError, describe, load_credentials
from core.settings import get_settings
from ops.stack import Stack
from ops.supervise import Supervisor


def main() -> None:
    settings = get_settings()
    # The terminal shows warnings and errors only; the children's lines go to data/logs.
    configure_logging(settings, "supervisor", level="WARNING")
    setup_error_reports(settings, "supervisor")
    logs = settings.data_dir / "logs"
    stack = Stack(settings, log_dir=logs)
    stopping = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    # Made here, before the children start (they would race to make it), and said once.
    try:
        credentials = load_credentials(
            settings.c2pa_cert_chain_file, settings.c2pa_private_key_file, settings.data_dir,
            settings.c2pa_trust_anchors_file,
        )
    except CredentialsError as error:
        raise SystemExit(f"Content Credentials cannot be signed: {error}") from None
    print("Starting Temporal, storage, database, workers and API ...", flush=True)
    with stack:
        try:
            stack.start()
        except (RuntimeError, TimeoutError) as error:
            # What failed, in a line or a few (its output's end), not a traceback through
            # ops/stack.py; the whole of it is in the logs.
            raise SystemExit(f"Could not start: {error}\nLogs: {logs.resolve()}") from None
        observing = ""
        if settings.observe:
            if stack.start_prometheus():
                observing = f"  Prometheus:  http://127.0.0.1:{settings.prometheus_port}\n"
            else:
                print(
                    "OBSERVE=1, but Prometheus is not installed (apt-get install prometheus): "
                    "the metrics endpoints still answer, nothing scrapes them.",
                    flush=True,
                )
        print(
            f"\n  App:         {settings.app_url}\n"
            f"  Temporal UI: http://127.0.0.1:{settings.temporal_ui_port}\n"
            f"  API docs:    {settings.app_url}/docs\n"
            f"  Logs:        {logs.resolve()}\n"
            f"  Content Credentials: {describe(credentials, settings.data_dir)}\n"
            f"{observing}"
            "\nPress Ctrl-C to stop.",
            flush=True,
        )
        Supervisor(stack).run(stopping)
        print("Stopping ...", flush=True)
    print("Stopped.", flush=True)


if __name__ == "__main__":
    main()
