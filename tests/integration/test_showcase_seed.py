"""The demo seed fills the public showcase with pairs our own engine made from the fixture
photos, on a real stack: both services, working image links, a demo account nobody can log in
to, nothing added by a second run, and nothing made (and no crash) without the photos."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageChops
from sqlalchemy import func, select

from core.db import SessionFactory
from core.enums import AccountKind, GenerationKind
from core.models.accounts import Account, User
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from core.storage import Storage
from ops.seed import seed
from ops.seed_showcase import DEMO_ACCOUNT_ID, demo_pairs
from ops.stack import migrate
from tests.support.paths import FIXTURES, fixture_images
from tests.support.stacks import running_stack, sessions_for


class NoEngine:
    """Fails the test if the seed renders anything."""

    def body_swap(self, *_args: object, **_kwargs: object) -> Image.Image:
        raise AssertionError("the engine ran although every demo pair exists")

    def replace_background(self, *_args: object, **_kwargs: object) -> Image.Image:
        raise AssertionError("the engine ran although there is nothing to make")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    for folder in ("people", "garments", "catalog-models", "backgrounds"):
        fixture_images(folder)
    # The stack's own start runs the seed, showcase included (private stacks turn it off).
    with running_stack(tmp_path_factory.mktemp("showcase-seed"), seed_showcase=True) as running:
        yield running.settings



def showcase(settings: Settings, service: GenerationKind) -> dict[str, Any]:
    answer = httpx.get(f"{settings.app_url}/imageedit/service/showCaseFromS3",
                       params={"serviceType": service.value, "pageSize": 12}, timeout=30)
    assert answer.status_code == 200, answer.text
    page: dict[str, Any] = answer.json()["data"]
    return page


def image_at(url: str) -> Image.Image:
    answer = httpx.get(url, timeout=30)
    assert answer.status_code == 200, url
    image = Image.open(io.BytesIO(answer.content))
    image.load()
    return image


def test_the_showcase_shows_engine_made_pairs_for_both_services(stack: Settings) -> None:
    swaps = showcase(stack, GenerationKind.BODY_SWAP)
    replaced = showcase(stack, GenerationKind.BURST_REPLACE)
    assert (swaps["total"], replaced["total"]) == (2, 1)
    pairs = swaps["items"] + replaced["items"]
    assert [pair["service"] for pair in pairs] == ["bodySwap", "bodySwap", "burstreplace"]
    for pair in pairs:
        assert pair["showcased"] is True
        before, after = image_at(pair["inputUrl"]), image_at(pair["outputUrl"])
        assert min(after.size) >= 512
        # The engine's work, not a copy of the input.
        if before.size == after.size:
            assert ImageChops.difference(before.convert("RGB"), after.convert("RGB")).getbbox()
        for url in (pair["inputThumbnailUrl"], pair["outputThumbnailUrl"]):
            assert max(image_at(url).size) <= 384


def test_the_pairs_belong_to_a_demo_account_nobody_can_log_in_to(
    stack: Settings, db: SessionFactory
) -> None:
    with db() as session:
        account = session.get(Account, DEMO_ACCOUNT_ID)
        assert account is not None
        assert account.kind == AccountKind.DEMO and account.fingerprint is None
        assert session.execute(
            select(User).where(User.account_id == DEMO_ACCOUNT_ID)).first() is None
        tasks = session.execute(
            select(GenerationImage).join(Generation, Generation.id == GenerationImage.generation_id)
            .where(Generation.account_id == DEMO_ACCOUNT_ID)
        ).scalars().all()
    assert len(tasks) == 3
    assert all(task.shared_at and task.showcased_at and task.output_key for task in tasks)
    storage = Storage(stack)
    assert all(storage.stat(task.input_key) is not None for task in tasks)
    assert all(task.input_key.startswith(f"uploads/{DEMO_ACCOUNT_ID}/") for task in tasks)


def test_seeding_again_adds_nothing_and_renders_nothing(
    stack: Settings, db: SessionFactory
) -> None:
    before = [item["taskId"] for item in showcase(stack, GenerationKind.BODY_SWAP)["items"]]
    added = seed(db, Storage(stack), stack, FIXTURES, engine=NoEngine())
    assert added == 0
    with db() as session:
        count = session.execute(select(func.count()).select_from(Generation).where(
            Generation.account_id == DEMO_ACCOUNT_ID)).scalar_one()
    assert count == 3
    assert [item["taskId"] for item in showcase(stack, GenerationKind.BODY_SWAP)["items"]] == before
    assert showcase(stack, GenerationKind.BURST_REPLACE)["total"] == 1


def test_without_fixture_photos_the_seed_makes_no_pairs(
    stack: Settings, tmp_path: Path
) -> None:
    assert demo_pairs(tmp_path / "missing") == []
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    migrate(url)
    with sessions_for(url) as fresh:
        seed(fresh, Storage(stack), stack, tmp_path / "missing", engine=NoEngine())
        with fresh() as session:
            assert session.execute(select(func.count()).select_from(Generation)).scalar_one() == 0
            assert session.get(Account, DEMO_ACCOUNT_ID) is None
