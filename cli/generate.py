"""`metamodel generate`: upload each photo, start one generation per photo, follow them and
download the results, resumable from the state file after an interruption."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli.client import Api, ApiError
from cli.state import Photo, State

POLL_SECONDS = 1.5
# Pages of the generation list read per round before asking for the rest one by one.
LIST_PAGES = 3
TERMINAL = ("completed", "failed")
UPLOAD_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png",
                ".webp": "image/webp"}


class AuthError(Exception):
    """The key was refused: nothing more can be done in this run."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def idempotency_key(sha256: str, name: str, service: str, model: str | None,
                    background: str | None) -> str:
    """The same photo with the same choices is the same generation: charged once, however
    often it is submitted. The file's name is part of it: two files with the same bytes in one
    batch are two images asked for (with the bytes alone, the second would reuse the first's
    key for another upload, which the API refuses as a different request)."""
    choice = f"{sha256}:{name}:{service}:{model or ''}:{background or ''}"
    return "mm-cli-" + hashlib.sha256(choice.encode()).hexdigest()


def plan(photos: list[Path], state: State, service: str, model: str | None,
         background: str | None) -> list[Photo]:
    """One entry per photo, carried over from the state file where it is the same photo with
    the same choices (an upload is kept for the same bytes even when the choices changed)."""
    entries: list[Photo] = []
    stems: set[str] = set()
    seen: set[str] = set()
    for path in photos:
        name = str(path.resolve())
        if name in seen:
            continue  # the same file named twice: one generation
        seen.add(name)
        sha = sha256_of(path)
        key = idempotency_key(sha, path.name, service, model, background)
        known = state.photos.get(name)
        if known is not None and known.sha256 == sha and known.idempotency_key == key:
            entry = known
        else:
            stem = path.stem
            counter = 2
            while stem in stems:
                stem = f"{path.stem}-{counter}"
                counter += 1
            entry = Photo(path=name, sha256=sha, idempotency_key=key, output_stem=stem,
                          upload_key=known.upload_key if known and known.sha256 == sha else None)
            state.photos[name] = entry
        stems.add(entry.output_stem)
        entries.append(entry)
    state.save()
    return entries


def _refused(error: ApiError) -> None:
    if error.auth:
        raise AuthError(error.message) from error


def submit(api: Api, state: State, entry: Photo, service: str, model: str | None,
           background: str | None) -> None:
    path = Path(entry.path)
    try:
        if entry.upload_key is None:
            content_type = UPLOAD_TYPES.get(path.suffix.lower(), "application/octet-stream")
            with open(path, "rb") as source:
                uploaded = api.request("POST", "/api/v1/uploads",
                                       files={"file": (path.name, source, content_type)})
            entry.upload_key = str(uploaded["key"])
            state.save()
        body: dict[str, Any] = {"service": service, "inputs": [entry.upload_key],
                                "metadata": {"file": path.name[:500]}}
        if model:
            body["modelId"] = model
        if background:
            body["backgroundId"] = background
        made = api.request("POST", "/api/v1/generations", json=body,
                           headers={"Idempotency-Key": entry.idempotency_key})
        entry.generation_id = str(made["id"])
    except ApiError as error:
        _refused(error)
        entry.error, entry.done = error.message, True
    except OSError as error:
        entry.error, entry.done = f"cannot read the photo: {error}", True
    state.save()


def _suffix(output: dict[str, Any]) -> str:
    suffix = Path(str(output.get("key") or "")).suffix.lower()
    return suffix if suffix in UPLOAD_TYPES else ".jpg"


def collect(api: Api, state: State, entry: Photo, generation: dict[str, Any],
            out_dir: Path) -> None:
    """A finished generation: download what is not downloaded yet, note any failure."""
    reasons: list[str] = []
    index = 0
    for image in generation.get("images") or []:
        if image.get("status") != "completed" or not image.get("outputs"):
            reasons.append(str(image.get("error") or generation.get("error") or "failed"))
            continue
        for output in image["outputs"]:
            index += 1
            name = entry.output_stem + ("" if index == 1 else f"-{index}") + _suffix(output)
            if name in entry.outputs and (out_dir / name).exists():
                continue
            try:
                api.download(str(output["url"]), out_dir / name)
            except ApiError as error:
                reasons.append(error.message)
                continue
            if name not in entry.outputs:
                entry.outputs.append(name)
            state.save()
    if not index and not reasons:
        reasons.append(str(generation.get("error") or "no output"))
    entry.error = "; ".join(dict.fromkeys(reasons)) or None
    entry.done = True
    state.save()


def poll(api: Api, pending: list[Photo]) -> list[tuple[Photo, dict[str, Any] | None]]:
    """The pending generations as they are now: several at once from the newest-first list
    (one request a page rather than one a generation, to spare the rate limit), any not found
    there one by one (None: not found at all)."""
    wanted = {str(e.generation_id): e for e in pending}
    found: dict[str, dict[str, Any]] = {}
    try:
        if len(wanted) > 1:
            cursor: str | None = None
            for _ in range(LIST_PAGES):
                params: dict[str, Any] = {"limit": 100}
                if cursor:
                    params["starting_after"] = cursor
                page = api.request("GET", "/api/v1/generations", params=params)
                for item in page.get("items") or []:
                    if item.get("id") in wanted:
                        found[str(item["id"])] = item
                cursor = page.get("nextCursor")
                if len(found) == len(wanted) or not page.get("hasMore") or not cursor:
                    break
        answers: list[tuple[Photo, dict[str, Any] | None]] = []
        for gid, entry in wanted.items():
            if gid in found:
                answers.append((entry, found[gid]))
                continue
            try:
                answers.append((entry, api.request("GET", f"/api/v1/generations/{gid}")))
            except ApiError as error:
                if error.status != 404:
                    raise
                answers.append((entry, None))
        return answers
    except ApiError as error:
        _refused(error)
        return []  # asked again next round


def run(api: Api, console: Console, photos: list[Path], out_dir: Path, state_file: Path,
        service: str, model: str | None, background: str | None) -> int:
    out_dir.mkdir(parents=True, exist_ok=True)
    state = State.load(state_file)
    entries = plan(photos, state, service, model, background)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("generating", total=len(entries),
                                completed=sum(e.done for e in entries))
        for entry in entries:
            if not entry.done and entry.generation_id is None:
                progress.update(bar, description=f"submitting {Path(entry.path).name}")
                submit(api, state, entry, service, model, background)
                if entry.done:
                    progress.advance(bar)
        while pending := [e for e in entries if not e.done]:
            progress.update(bar, description=f"waiting for {len(pending)}")
            for entry, generation in poll(api, pending):
                if generation is None:
                    entry.error, entry.done = "the generation is gone", True
                    state.save()
                    progress.advance(bar)
                elif generation.get("status") in TERMINAL and generation.get("completedAt"):
                    collect(api, state, entry, generation, out_dir)
                    progress.advance(bar)
            if any(not e.done for e in entries):
                time.sleep(POLL_SECONDS)
        progress.update(bar, description="done")
    failed = [e for e in entries if e.error]
    if not failed:
        console.print(f"{len(entries)} photo(s) done: {out_dir}")
        return 0
    table = Table(title=f"{len(failed)} of {len(entries)} photo(s) failed")
    table.add_column("photo")
    table.add_column("reason")
    for entry in failed:
        table.add_row(Path(entry.path).name, entry.error or "")
    console.print(table)
    return 1
