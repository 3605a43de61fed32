"""Content Credentials for tests: the C2PA signing files production settings require, and
c2pa's own reading of a delivered image."""

from __future__ import annotations

import atexit
import io
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import c2pa

from core.provenance.chain import development_chain


@cache
def c2pa_files() -> dict[str, Path]:
    """C2PA_CERT_CHAIN_FILE and C2PA_PRIVATE_KEY_FILE as settings (a development chain that
    satisfies C2PA's profile, made once per test process): what production requires, so a
    test of another production rule builds valid Settings without weakening that check."""
    folder = Path(tempfile.mkdtemp(prefix="c2pa-test-"))
    atexit.register(shutil.rmtree, folder, True)
    chain, key = development_chain(folder)
    return {"c2pa_cert_chain_file": chain, "c2pa_private_key_file": key}


def c2pa_report(data: bytes, mime: str) -> dict[str, Any]:
    """What c2pa's own reader says of an image, with its default context (which trusts none of
    our chains): its JSON report plus `validation_state` (Valid, Trusted or Invalid)."""
    reader = c2pa.Reader(mime, io.BytesIO(data))
    report: dict[str, Any] = json.loads(reader.json())
    report["validation_state"] = reader.get_validation_state()
    return report
