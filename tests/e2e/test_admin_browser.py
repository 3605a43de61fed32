"""/admin-showcase in Chromium against the running stack: an admin curates a shared output and
attaches an edited image to a user's output, and the owner then has it ("Edited") and a mail;
the public showcase shows only what its owner shared.

The walk is web/e2e/admin-showcase.spec.ts (Playwright); this test prepares the data through the
API, runs the walk, and checks the owner's side and the public showcase through the API.
"""

from __future__ import annotations

import io
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
from sqlalchemy import select

from core.enums import UserRole
from core.models.messages import OutboxMessage
from core.settings import Settings
from ops.admin import set_role
from tests.support.accounts import PASSWORD, sign_up
from tests.support.api_client import Guest
from tests.support.browser import empty_dir, walk
from tests.support.paths import REPO, fixture_images
from tests.support.stacks import sessions_for

SCREENS = REPO / "out" / "admin-showcase"


@pytest.fixture(scope="module")
def own_stack() -> bool:
    """The walk starts from an empty public showcase and leaves one curated: not the shared
    stack, where tests/integration/test_library.py counts the showcase."""
    return True


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def public_showcase(api: httpx.Client) -> list[str]:
    """Every task id the public showcase shows, both services."""
    shown = []
    for service in ("bodySwap", "burstreplace"):
        page = api.get("/imageedit/service/showCaseFromS3",
                       params={"serviceType": service, "pageSize": 100}).json()["data"]
        shown += [item["taskId"] for item in page["items"]]
    return shown


def owners_generation(stack: Settings, api: httpx.Client, owner_email: str) -> tuple[str, str]:
    """A background replace of two photos made as a guest, who then signs up on the same
    browser (the generation becomes the user's). Its id and the owner's token."""
    fingerprint = uuid.uuid4().hex
    guest = Guest(stack.app_url, fingerprint)
    keys = [guest.upload(path.read_bytes()) for path in fixture_images("people")[:2]]
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = guest.submit("burstreplace", keys, backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    generation_id: str = submitted.json()["data"]["serviceId"]
    guest.wait(submitted.json()["data"]["taskIds"])
    assert guest.wait_generation(generation_id)["status"] == "completed"
    with sessions_for(stack.resolved_database_url) as db:
        token = sign_up(api, db, owner_email, headers={"x-fingerprint-id": fingerprint})
    return generation_id, token


def test_admin_curates_and_attaches_an_edit_the_owner_sees(
    stack: Settings, tmp_path: Path
) -> None:
    tag = uuid.uuid4().hex[:8]
    owner_email, user_email, admin_email = (
        f"owner-{tag}@example.com", f"user-{tag}@example.com", f"admin-{tag}@example.com")
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        generation_id, owner = owners_generation(stack, api, owner_email)
        service = api.get(f"/imageedit/service/{generation_id}",
                          headers=bearer(owner)).json()["data"]
        shared, unshared = (task["taskId"] for task in service["tasks"])
        answer = api.post("/imageedit/service/share", headers=bearer(owner),
                          json={"taskId": shared, "shared": True})
        assert answer.status_code == 200, answer.text
        with sessions_for(stack.resolved_database_url) as db:
            sign_up(api, db, user_email)
            admin = sign_up(api, db, admin_email)
            assert set_role(db, admin_email, UserRole.ADMIN)
        assert public_showcase(api) == []  # shared, not curated yet

        edit = tmp_path / "edited.jpg"
        Image.new("RGB", (600, 800), (30, 120, 200)).save(edit, "JPEG")
        broken = tmp_path / "broken.jpg"
        broken.write_bytes(b"this is not an image")
        result = walk("admin-showcase.spec.ts", {
            "BASE_URL": stack.app_url,
            "ADMIN_EMAIL": admin_email, "USER_EMAIL": user_email, "PASSWORD": PASSWORD,
            "OWNER_EMAIL": owner_email, "SERVICE_ID": generation_id,
            "SHARED_TASK_ID": shared, "UNSHARED_TASK_ID": unshared,
            "EDIT_IMAGE": str(edit), "BAD_FILE": str(broken),
            "SCREENSHOT_DIR": str(empty_dir(SCREENS))})
        assert result.returncode == 0, f"browser walk failed:\n{result.output}"
        assert result.summary == "4 passed, 0 failed", result.output
        assert len(list(SCREENS.glob("admin-showcase-*.png"))) == 9

        # The owner has the edited image beside the generated one ("Edited" on their pages).
        mine = api.get(f"/imageedit/service/{generation_id}", headers=bearer(owner)).json()["data"]
        task: dict[str, Any] = next(t for t in mine["tasks"] if t["taskId"] == shared)
        assert task["outputs"] and task["edited"] is not None
        got = Image.open(io.BytesIO(httpx.get(task["edited"]["url"]).content))
        assert got.size == (600, 800)
        with sessions_for(stack.resolved_database_url) as db, db() as session:
            mailed = session.execute(select(OutboxMessage).where(
                OutboxMessage.to_address == owner_email, OutboxMessage.kind == "edited-image"
            )).scalars().all()
        assert len(mailed) == 1 and generation_id in mailed[0].body

        # The public showcase: the curated shared output, never the unshared one.
        shown = public_showcase(api)
        assert shared in shown and unshared not in shown
        refused = api.put(f"/api/v1/admin/showcase/{unshared}", json={"showcased": True},
                          headers=bearer(admin))
        assert refused.status_code == 404
        assert unshared not in public_showcase(api)

