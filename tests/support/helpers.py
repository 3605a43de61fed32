"""Small builders shared by the tests (accounts, uploads, generations)."""

from __future__ import annotations

from pathlib import Path

from core import credits
from core.db import SessionFactory
from core.keys import upload_key
from core.models.accounts import Account
from core.models.base import new_id
from core.models.generations import Generation, GenerationImage, UploadedFile
from core.storage import Storage


def make_account(sessions: SessionFactory, free: int = 5) -> str:
    with sessions.begin() as session:
        account = Account(kind="guest", distributor_id="test", fingerprint=new_id())
        session.add(account)
    credits.grant(sessions, account.id, free=free, key=f"test-grant:{account.id}")
    return account.id


def upload(sessions: SessionFactory, storage: Storage, account_id: str, data: bytes,
           name: str = "photo.jpg") -> str:
    file_id = new_id()
    key = upload_key(account_id, file_id, name)
    storage.put_bytes(key, data, "image/jpeg")
    with sessions.begin() as session:
        session.add(UploadedFile(id=file_id, account_id=account_id, key=key, filename=name,
                                 mime_type="image/jpeg", request_type="bodySwap"))
    return key


def make_generation(sessions: SessionFactory, account_id: str, service: str, keys: list[str],
                    model_id: str | None = None, background_id: str | None = None,
                    cost: int | None = None) -> tuple[str, list[str]]:
    generation_id = new_id()
    task_ids = [new_id() for _ in keys]
    with sessions.begin() as session:
        session.add(Generation(id=generation_id, account_id=account_id, service=service,
                               model_id=model_id, background_id=background_id,
                               credits=cost if cost is not None else len(keys),
                               distributor_id="test"))
        session.flush()
        session.add_all(GenerationImage(id=t, generation_id=generation_id, position=i, input_key=k)
                        for i, (t, k) in enumerate(zip(task_ids, keys, strict=True)))
    return generation_id, task_ids


def read(path: Path) -> bytes:
    return path.read_bytes()
