"""A seeded catalog item an operator deletes stays deleted: the seed, which runs at every stack
start and adds whatever is missing, skips it (its tombstone), while everything else it seeds is
still there and a second seed still adds nothing."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

from core.db import SessionFactory
from core.enums import UserRole
from core.models.catalog import CatalogItem, CatalogTombstone
from core.settings import Settings
from core.storage import Storage
from ops.admin import set_role
from ops.seed import seed, seed_items
from tests.support.accounts import sign_up
from tests.support.paths import FIXTURES, fixture_images
from tests.support.stacks import running_stack

ADMIN_PATH = "/api/v1/admin/catalog"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    for folder in ("catalog-models", "backgrounds"):
        fixture_images(folder)
    with running_stack(tmp_path_factory.mktemp("catalog-deletion")) as running:
        yield running.settings



def public_ids(api: httpx.Client, path: str, **params: str | int) -> list[str]:
    page = api.get(path, params=params)
    assert page.status_code == 200, page.text
    return [item["_id"] for item in page.json()["data"]["items"]]


def test_a_deleted_seeded_model_and_background_stay_deleted_after_seeding_again(
    stack: Settings, db: SessionFactory
) -> None:
    storage = Storage(stack)
    model_id = fixture_images("catalog-models")[0].stem
    background_id = fixture_images("backgrounds")[0].stem
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        email = f"ops-{uuid.uuid4().hex[:8]}@example.com"
        admin = {"Authorization": f"Bearer {sign_up(api, db, email)}"}
        assert set_role(db, email, UserRole.ADMIN)

        def models() -> list[str]:
            return public_ids(api, "/api/v1/model", pageSize=100)

        def backgrounds() -> list[str]:
            return public_ids(api, "/imageedit/seed", type="background", pagesize=100)

        assert model_id in models() and background_id in backgrounds()
        with db() as session:
            seeded = {row.id: row for row in session.execute(select(CatalogItem)).scalars()}
        keys = [seeded[model_id].key, seeded[model_id].thumbnail_key,
                seeded[background_id].key, seeded[background_id].thumbnail_key]

        for item_id in (model_id, background_id):
            deleted = api.delete(f"{ADMIN_PATH}/{item_id}", headers=admin)
            assert deleted.status_code == 200, deleted.text
        assert all(storage.stat(key) is None for key in keys)

        # What the next stack start does: the seed against the same database and bucket.
        assert seed(db, storage, stack, FIXTURES) == 0
        assert seed(db, storage, stack, FIXTURES) == 0  # still idempotent

        with db() as session:
            assert session.get(CatalogItem, model_id) is None
            assert session.get(CatalogItem, background_id) is None
            tombstones = set(session.execute(select(CatalogTombstone.id)).scalars())
            remaining = set(session.execute(select(CatalogItem.id)).scalars())
        assert tombstones == {model_id, background_id}
        # Everything else the seed makes is still there; nothing was stored for the deleted.
        expected = {item.id for item in seed_items(FIXTURES)} - tombstones
        assert remaining == expected == set(seeded) - tombstones
        assert all(storage.stat(key) is None for key in keys)

        assert model_id not in models()
        assert background_id not in backgrounds()
        listed = api.get(ADMIN_PATH, params={"kind": "model"}, headers=admin).json()["data"]
        assert model_id not in [item["_id"] for item in listed["items"]]
        assert api.delete(f"{ADMIN_PATH}/{model_id}", headers=admin).status_code == 404
