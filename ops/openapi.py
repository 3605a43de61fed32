"""The API's OpenAPI document, without starting a server: `python -m ops.openapi [--out PATH]`.

`create_app` connects to nothing until its lifespan runs, so building the app and asking it for
`.openapi()` is enough. The JSON is written with sorted keys and a fixed indent so that the
document (and the TypeScript types generated from it by `make openapi`) only change when the API
does. Settings are the defaults, not the environment's or `.env`'s, for the same reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.main import create_app
from core.settings import Settings


def openapi_document() -> dict[str, Any]:
    settings = Settings(_env_file=None, otel_exporter="none", sentry_dsn="")  # type: ignore[call-arg]
    return create_app(settings).openapi()


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.openapi", description=__doc__)
    parser.add_argument("--out", type=Path, help="write the JSON here instead of stdout")
    args = parser.parse_args(argv)
    text = render(openapi_document())
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
