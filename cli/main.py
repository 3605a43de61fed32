"""The `metamodel` command: generate, models, backgrounds, credits."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cli import generate
from cli.client import DEFAULT_API, DEFAULT_MAX_DOWNLOAD_MB, Api, ApiError

KEY_ENV = "METAMODEL_API_KEY"
URL_ENV = "METAMODEL_API_URL"
PAGE_SIZE = 50

USAGE = 2
FAILED = 1


def _megabytes(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 < number < 1e9:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive number of MB")
    return number


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="metamodel",
        description=f"MetaModel from the command line, with an API key (${KEY_ENV}).")
    root.add_argument("--api", default=None,
                      help=f"the API's base URL (${URL_ENV}, default {DEFAULT_API})")
    commands = root.add_subparsers(dest="command", required=True)

    gen = commands.add_parser("generate", help="one generation per photo, results to --out")
    gen.add_argument("--service", required=True, choices=("bodySwap", "burstreplace"))
    gen.add_argument("--model", default=None, help="a digital model's id (metamodel models)")
    gen.add_argument("--background", default=None,
                     help="a background's id (metamodel backgrounds)")
    gen.add_argument("--out", required=True, type=Path, help="where the results go")
    gen.add_argument("--state", type=Path, default=None,
                     help="the state file for resuming (default OUT/.metamodel-state.json)")
    gen.add_argument("--max-download-mb", type=_megabytes, default=DEFAULT_MAX_DOWNLOAD_MB,
                     help="refuse an output larger than this (default %(default)s MB)")
    gen.add_argument("photos", nargs="+", type=Path, metavar="PHOTO")
    for name, text in (("models", "the digital models (id and name)"),
                       ("backgrounds", "the backgrounds (id and name)"),
                       ("credits", "the account's credits")):
        commands.add_parser(name, help=text)
    # --api is accepted after the command too.
    for sub in commands.choices.values():
        sub.add_argument("--api", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return root


def _key(console: Console) -> str:
    key = os.environ.get(KEY_ENV, "").strip()
    if not key:
        console.print(f"[red]metamodel:[/] set {KEY_ENV} to an API key "
                      "(User Setting → API keys).")
        raise SystemExit(USAGE)
    return key


def catalog(api: Api, console: Console, kind: str) -> int:
    table = Table("id", "name", "category", title=f"{kind}s")
    page = 1
    while True:
        found = api.request("GET", "/imageedit/seed",
                            params={"type": kind, "pagenum": page, "pagesize": PAGE_SIZE})
        items = found.get("items") or []
        for item in items:
            table.add_row(str(item.get("_id") or item.get("id")), str(item.get("name", "")),
                          str(item.get("category") or ""))
        if not items or page * PAGE_SIZE >= int(found.get("total") or 0):
            break
        page += 1
    console.print(table)
    return 0


def credits(api: Api, console: Console) -> int:
    found = api.request("GET", "/api/v1/credits")
    table = Table("available", "free", "paid", "held", title="credits")
    table.add_row(*(str(found.get(name, "")) for name in ("total", "free", "paid", "held")))
    console.print(table)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    console = Console(stderr=False)
    errors = Console(stderr=True)
    base = args.api or os.environ.get(URL_ENV) or DEFAULT_API
    try:
        if args.command in ("models", "backgrounds"):
            # The catalog is public: no key needed (nor sent).
            with Api(base, None) as api:
                return catalog(api, console, args.command.removesuffix("s"))
        key = _key(errors)
        cap = getattr(args, "max_download_mb", DEFAULT_MAX_DOWNLOAD_MB)
        with Api(base, key, max_download=int(cap * 1024 * 1024)) as api:
            if args.command == "credits":
                return credits(api, console)
            missing = [str(p) for p in args.photos if not p.is_file()]
            if missing:
                errors.print(f"[red]metamodel:[/] no such photo: {', '.join(missing)}")
                return USAGE
            state = args.state or args.out / ".metamodel-state.json"
            return generate.run(api, errors, args.photos, args.out, state, args.service,
                                args.model, args.background)
    except generate.AuthError as error:
        errors.print(f"[red]metamodel:[/] the API refused the key: {error}")
        return USAGE
    except ApiError as error:
        errors.print(f"[red]metamodel:[/] {error.message}")
        return USAGE if error.auth or 400 <= error.status < 500 else FAILED
    except KeyboardInterrupt:
        errors.print("metamodel: interrupted; run the same command again to resume.")
        return 130


if __name__ == "__main__":
    sys.exit(main())
