"""The catalog from an operator to a guest, in Chromium against the running stack: an admin
uploads a digital model on /digital-models with a description, gender and body type and
publishes it, a guest finds it through the gender and body type filters (name and description on
its card) and through its category, narrows the backgrounds by a category chip and generates with
it, and once unpublished a fresh guest no longer sees it.

The walk is web/e2e/catalog.spec.ts (Playwright); this test makes the admin through the API, runs
the walk, and checks through the API and the database that the guest's generation used that model.
"""

from __future__ import annotations

import re
import uuid

import httpx
import pytest

from core.enums import GenerationStatus, UserRole
from core.models.catalog import CatalogItem
from core.models.generations import Generation
from core.settings import Settings
from ops.admin import set_role
from tests.support.accounts import PASSWORD, sign_up
from tests.support.browser import empty_dir, walk
from tests.support.paths import FIXTURES, REPO, fixture_images
from tests.support.stacks import sessions_for

SCREENS = REPO / "out" / "catalog"
# One person as the engine's analysis sees it (tests/integration/test_catalog_admin.py
# uploads the same photo as a digital model).
MODEL_PHOTO = FIXTURES / "people" / "01008_00.jpg"


def printed(label: str, output: str) -> str:
    found = re.search(rf"^\s*{label}: (\S+)$", output, re.MULTILINE)
    assert found, f"the walk printed no {label}:\n{output}"
    return found.group(1)


@pytest.mark.skipif(not MODEL_PHOTO.exists(), reason=f"fixture photo {MODEL_PHOTO} not found")
def test_an_admins_new_model_is_picked_by_a_guest_until_unpublished(stack: Settings) -> None:
    tag = uuid.uuid4().hex[:6]
    admin_email = f"admin-{tag}@example.com"
    name, category = f"Runway {tag}", f"Catwalk {tag}"
    description = f"Plus size build · tan skin · test model {tag}"
    garment = fixture_images("garments")[0]
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        with sessions_for(stack.resolved_database_url) as db:
            admin = {"Authorization": f"Bearer {sign_up(api, db, admin_email)}"}
            assert set_role(db, admin_email, UserRole.ADMIN)

        result = walk("catalog.spec.ts", {
            "BASE_URL": stack.app_url, "ADMIN_EMAIL": admin_email, "PASSWORD": PASSWORD,
            "MODEL_PHOTO": str(MODEL_PHOTO), "UPLOAD_IMAGE": str(garment),
            "MODEL_NAME": name, "MODEL_CATEGORY": category, "MODEL_DESCRIPTION": description,
            "SCREENSHOT_DIR": str(empty_dir(SCREENS))}, timeout=900)
        assert result.returncode == 0, f"browser walk failed:\n{result.output}"
        assert result.summary == "3 passed, 0 failed", result.output
        model_id = printed("modelId", result.stdout)
        generation_id = printed("serviceId", result.stdout)

        # The model the admin made: as named, in its category, unpublished again at the end.
        listed = api.get("/api/v1/admin/catalog", params={"kind": "model"}, headers=admin)
        assert listed.status_code == 200, listed.text
        mine = [item for item in listed.json()["data"]["items"] if item["name"] == name]
        assert [item["_id"] for item in mine] == [model_id]
        assert mine[0]["category"] == category.lower() and mine[0]["published"] is False
        # With what the upload form said of it.
        assert mine[0]["description"] == description
        attributes = (mine[0]["gender"], mine[0]["bodyType"], mine[0].get("skinTone"))
        assert attributes == ("male", "plus", None)
        offered = api.get("/api/v1/model", params={"pageSize": 100}).json()["data"]["items"]
        assert model_id not in [item["_id"] for item in offered]
        assert api.get("/api/v1/model", params={"category": category}).json()["data"]["items"] == []

    # The guest's generation completed with that model.
    with sessions_for(stack.resolved_database_url) as db, db() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None
        assert generation.model_id == model_id
        assert generation.status == GenerationStatus.COMPLETED
        item = session.get(CatalogItem, model_id)
        assert item is not None and item.name == name and item.kind == "model"
