"""Debian's nginx running the compose site configuration (ops/docker/nginx.conf) on a free
port, in front of a running stack's API and serving a given folder as the web app."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ops.stack import REPO, free_port, wait_for_port


@contextmanager
def compose_nginx(
    api_host: str, api_port: int, html: Path, folder: Path
) -> Iterator[tuple[str, int]]:
    """nginx with our compose site, `html` as its root (the built web app's place), proxying
    to the API at api_host:api_port; its own files under `folder`. Yields (host, port)."""
    port = free_port()
    site = (REPO / "ops/docker/nginx.conf").read_text()
    site = (site.replace("listen 80;", f"listen 127.0.0.1:{port};")
            .replace("root /usr/share/nginx/html;", f"root {html};")
            .replace("http://api:8000", f"http://{api_host}:{api_port}"))
    assert str(port) in site and str(api_port) in site and str(html) in site
    (folder / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {folder / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # The official image's nginx.conf includes mime.types; the site relies on it for assets.
    (folder / "nginx.conf").write_text(
        f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};"
        + (" user root;" if os.getuid() == 0 else "")
        + f" events {{}} http {{ access_log off; include /etc/nginx/mime.types; {temp}"
        + f" include {folder / 'site.conf'}; }}")
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = subprocess.Popen([binary, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                            stderr=subprocess.PIPE)
    try:
        wait_for_port("127.0.0.1", port, 20, proc)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    """`python -m tests.support.nginx [--api HOST:PORT] COMMAND...`: the compose nginx in front of
    a running API (default `make run`'s, 127.0.0.1:8000) serving web/dist, while COMMAND runs
    with BASE_URL set to it (`make lighthouse-nginx` measures the pages as compose serves them)."""
    import argparse
    import sys
    import tempfile

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--api", default="127.0.0.1:8000", help="the API's HOST:PORT")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    host, _, port = args.api.rpartition(":")
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a COMMAND to run is needed")
    with tempfile.TemporaryDirectory(prefix="nginx-") as folder, \
            compose_nginx(host, int(port), REPO / "web" / "dist", Path(folder)) as (ours, at):
        base = f"http://{ours}:{at}"
        print(f"compose nginx at {base}, in front of the API at {args.api}", flush=True)
        sys.exit(subprocess.call(command, env={**os.environ, "BASE_URL": base}))


if __name__ == "__main__":
    main()
