"""The state file of a `generate` run: per photo, what is done (uploaded key, generation id,
downloaded files, failure), rewritten atomically after every step so that a rerun after an
interruption picks up where it stopped."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

VERSION = 1


@dataclass
class Photo:
    path: str
    sha256: str
    idempotency_key: str
    output_stem: str
    upload_key: str | None = None
    generation_id: str | None = None
    outputs: list[str] = field(default_factory=list)
    done: bool = False
    error: str | None = None


@dataclass
class State:
    file: Path
    photos: dict[str, Photo] = field(default_factory=dict)

    @classmethod
    def load(cls, file: Path) -> State:
        state = cls(file)
        try:
            raw: dict[str, Any] = json.loads(file.read_text())
        except FileNotFoundError:
            return state
        except (OSError, ValueError) as error:
            raise SystemExit(f"metamodel: cannot read the state file {file}: {error}") from None
        for key, entry in (raw.get("photos") or {}).items():
            try:
                state.photos[key] = Photo(**entry)
            except TypeError:
                continue  # an entry of another version: started afresh
        return state

    def save(self) -> None:
        self.file.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": VERSION,
                "photos": {key: asdict(photo) for key, photo in self.photos.items()}}
        temporary = self.file.with_name(f".{self.file.name}.{os.getpid()}.tmp")
        with open(temporary, "w") as out:
            json.dump(data, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.file)
