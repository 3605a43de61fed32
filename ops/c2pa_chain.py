"""`python -m ops.c2pa_chain`: the Content Credentials signing chain for a deployment.

    python -m ops.c2pa_chain make DIR [--organisation NAME]   # a private CA and a signing cert
    python -m ops.c2pa_chain check CHAIN.pem KEY.pem            # does a chain fit C2PA's profile?

`make` writes DIR/chain.pem (the signing certificate, then its CA) and DIR/key.pem: a chain of
your own, valid for C2PA and trusted by this deployment's verify endpoint, but by no one else
(readers report `signingCredential.untrusted`). For credentials that the Content Credentials
tools trust, get a signing certificate from a CA on the C2PA trust list and `check` it here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.provenance.chain import (
    CHAIN_FILE,
    KEY_FILE,
    CredentialsError,
    check_profile,
    make_development_chain,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make", help="write chain.pem and key.pem into a folder")
    make.add_argument("folder", type=Path)
    make.add_argument("--organisation", default="MetaModel (private CA)")
    make.add_argument("--days", type=int, default=825)
    # The files are read by the containers' user (uid 10001) through a read-only mount.
    make.add_argument("--key-mode", type=lambda text: int(text, 8), default=0o600,
                      help="the key file's mode, octal (default 600)")
    check = commands.add_parser("check", help="check a chain and key against C2PA's profile")
    check.add_argument("chain", type=Path)
    check.add_argument("key", type=Path)
    args = parser.parse_args(argv)
    if args.command == "make":
        folder: Path = args.folder
        if (folder / KEY_FILE).exists():
            print(f"{folder / KEY_FILE} exists: not overwritten", file=sys.stderr)
            return 1
        folder.mkdir(parents=True, exist_ok=True)
        chain, key = make_development_chain(args.organisation, args.days)
        (folder / CHAIN_FILE).write_bytes(chain)
        (folder / KEY_FILE).write_bytes(key)
        (folder / KEY_FILE).chmod(args.key_mode)
        print(f"wrote {folder / CHAIN_FILE} and {folder / KEY_FILE}")
        return 0
    try:
        certificates = check_profile(args.chain.read_bytes(), args.key.read_bytes())
    except (OSError, CredentialsError) as error:
        print(f"not usable for Content Credentials: {error}", file=sys.stderr)
        return 1
    leaf = certificates[0]
    print(f"ok: {leaf.subject.rfc4514_string()}, issued by {leaf.issuer.rfc4514_string()}, "
          f"valid until {leaf.not_valid_after_utc:%Y-%m-%d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
