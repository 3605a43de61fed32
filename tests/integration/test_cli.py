"""The `metamodel` command-line tool (issue 23) against the running stack, run as a separate
process the way a shop runs it: a batch of photos through the public API with a key, killed
part way and run again (nothing submitted or charged twice), and its refusals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PIL import Image
from sqlalchemy import select

from core.db import SessionFactory
from core.enums import LedgerKind
from core.models.accounts import LedgerEntry
from core.models.generations import Generation
from core.settings import Settings
from ops.stack import Stack
from tests.integration.test_public_api import new_key, new_user
from tests.support.paths import REPO, fixture_images
from tests.support.stacks import running_stack

PHOTOS = 30  # issue 23's proof: 30 photos, killed halfway, resumed
LIMIT = 300  # requests per minute per key on this stack


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("cli"), api_key_requests_per_minute=LIMIT,
                       signup_free_credits=40) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(running: Stack) -> Settings:
    return running.settings


def command(stack: Settings, key: str | None, *args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def environment(stack: Settings, key: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("METAMODEL_")}
    env["METAMODEL_API_URL"] = stack.app_url
    if key is not None:
        env["METAMODEL_API_KEY"] = key
    return env


def metamodel(stack: Settings, key: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(stack, key, *args), cwd=REPO, env=environment(stack, key),
                          capture_output=True, text=True, timeout=120)


def photos(folder: Path) -> list[Path]:
    """PHOTOS photos: the fixture people cycled, re-encoded at a few qualities, the last a copy of
    the first under another name (two files are two images, each charged once)."""
    sources = fixture_images("people")
    made = []
    for index in range(PHOTOS):
        with Image.open(sources[index % len(sources)]) as image:
            picture = image.convert("RGB")
            picture.thumbnail((768, 768))
            path = folder / f"look-{index:02d}.jpg"
            picture.save(path, "JPEG", quality=60 + 10 * (index // len(sources)))
        made.append(path)
    # The last one is a copy of the first under its own name.
    made[-1].write_bytes(made[0].read_bytes())
    return made


def submitted(state: Path) -> int:
    try:
        data = json.loads(state.read_text())
    except (OSError, ValueError):
        return 0
    return sum(1 for p in data["photos"].values() if p.get("generation_id"))


def test_a_batch_survives_a_kill_and_is_charged_once(
    stack: Settings, api: httpx.Client, db: SessionFactory, tmp_path: Path
) -> None:
    key = new_key(api, new_user(api, db))
    inputs = photos(tmp_path)
    out = tmp_path / "out"
    state = out / ".metamodel-state.json"
    args = ["generate", "--service", "burstreplace", "--background", "white",
            *map(str, inputs), "--out", str(out)]

    started = time.monotonic()
    first = subprocess.Popen(command(stack, key, *args), cwd=REPO, env=environment(stack, key),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while submitted(state) < PHOTOS // 2:
            assert first.poll() is None, "the first run ended before it was killed"
            assert time.monotonic() - started < 60
            time.sleep(0.05)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    assert first.returncode == -signal.SIGKILL
    assert submitted(state) < PHOTOS

    second = metamodel(stack, key, *args)
    assert second.returncode == 0, second.stdout + second.stderr
    results = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert results == [f"look-{i:02d}.jpg" for i in range(PHOTOS)]
    for name in results:
        with Image.open(out / name) as image:
            image.verify()

    ids = [p["generation_id"] for p in json.loads(state.read_text())["photos"].values()]
    assert len(set(ids)) == PHOTOS
    with db() as session:
        accounts = set(session.execute(
            select(Generation.account_id).where(Generation.id.in_(ids))).scalars())
        assert len(accounts) == 1
        account = accounts.pop()
        generations = session.execute(
            select(Generation.id).where(Generation.account_id == account)).scalars().all()
        charges = session.execute(
            select(LedgerEntry).where(LedgerEntry.account_id == account,
                                      LedgerEntry.kind == LedgerKind.CHARGE)).scalars().all()
    # Nothing submitted twice, each photo charged once, one credit each.
    assert sorted(generations) == sorted(ids)
    assert len(charges) == PHOTOS
    assert sorted(str(c.reference) for c in charges) == sorted(ids)
    assert all(c.delta_free + c.delta_paid == -1 for c in charges)

    # A third run has nothing left to do.
    third = metamodel(stack, key, *args)
    assert third.returncode == 0, third.stderr
    with db() as session:
        assert len(session.execute(
            select(LedgerEntry).where(LedgerEntry.account_id == account,
                                      LedgerEntry.kind == LedgerKind.CHARGE)).all()) == PHOTOS


def test_refusals_exit_2_with_the_api_message(stack: Settings, tmp_path: Path) -> None:
    bad = "mm_live_" + "x" * 32
    refused = metamodel(stack, bad, "credits")
    assert refused.returncode == 2
    assert "not valid" in refused.stderr, refused.stderr
    photo = tmp_path / "a.jpg"
    photo.write_bytes(fixture_images("people")[0].read_bytes())
    refused = metamodel(stack, bad, "generate", "--service", "burstreplace", "--background",
                        "white", str(photo), "--out", str(tmp_path / "out"))
    assert refused.returncode == 2 and "not valid" in refused.stderr, refused.stderr
    missing = metamodel(stack, None, "credits")
    assert missing.returncode == 2 and "METAMODEL_API_KEY" in missing.stderr
    usage = metamodel(stack, bad, "generate", "--service", "nope", "--out", "x", "a.jpg")
    assert usage.returncode == 2


def test_the_catalog_and_credits(
    stack: Settings, api: httpx.Client, db: SessionFactory
) -> None:
    key = new_key(api, new_user(api, db))
    backgrounds = metamodel(stack, key, "backgrounds")
    assert backgrounds.returncode == 0, backgrounds.stderr
    assert "white" in backgrounds.stdout
    models = metamodel(stack, key, "models")
    assert models.returncode == 0, models.stderr
    listed = api.get("/imageedit/seed", params={"type": "model", "pagesize": 5}).json()
    assert listed["data"]["items"][0]["_id"] in models.stdout
    credits = metamodel(stack, key, "credits")
    assert credits.returncode == 0, credits.stderr
    assert "40" in credits.stdout and "available" in credits.stdout
    # The route it reads, with the key.
    answer = api.get("/api/v1/credits", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 200 and answer.json()["data"]["total"] == 40
    assert answer.headers["RateLimit-Limit"] == str(LIMIT)


def test_an_output_past_the_download_cap_is_refused_and_not_left_behind(
    stack: Settings, api: httpx.Client, db: SessionFactory, tmp_path: Path
) -> None:
    """The stack's real output (a JPEG of some 100 KB) against a cap of 10 KB: streamed and
    stopped there, the photo reported failed with the reason, no file (nor partial) kept; with
    the default cap it is saved."""
    key = new_key(api, new_user(api, db))
    photo = tmp_path / "look.jpg"
    photo.write_bytes(fixture_images("people")[0].read_bytes())
    out = tmp_path / "out"
    args = ["generate", "--service", "burstreplace", "--background", "white", str(photo),
            "--out", str(out)]
    capped = metamodel(stack, key, *args, "--max-download-mb", "0.01")
    assert capped.returncode == 1, capped.stdout + capped.stderr
    assert "1 of 1 photo(s) failed" in capped.stderr, capped.stderr
    [entry] = json.loads((out / ".metamodel-state.json").read_text())["photos"].values()
    assert "larger than the download limit of 0.01 MB" in entry["error"], entry
    assert sorted(p.name for p in out.iterdir()) == [".metamodel-state.json"]
    refused = metamodel(stack, key, *args, "--max-download-mb", "-1")
    assert refused.returncode == 2 and "not a positive number of MB" in refused.stderr
    # Under the default cap the same output is saved whole.
    other = tmp_path / "other.jpg"
    other.write_bytes(photo.read_bytes())
    saved = metamodel(stack, key, "generate", "--service", "burstreplace", "--background",
                      "white", str(other), "--out", str(tmp_path / "saved"))
    assert saved.returncode == 0, saved.stderr
    assert (tmp_path / "saved" / "other.jpg").stat().st_size > 10 * 1024
