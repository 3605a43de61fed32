"""Every upload is analysed on the imaging queue (issue 19, step 1), against the running stack:
createThumbnail carries what the photo shows and what it can become, and a submit that asks
for what the analysis rules out answers 422 at once, with nothing charged and no generation.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select

from core.db import SessionFactory
from core.models.generations import Generation, UploadedFile
from core.photos.analysis import NOTHING_TO_CUT_OUT
from core.settings import Settings
from tests.support.api_client import Guest
from tests.support.paths import FIXTURES, fixture_images
from tests.support.stacks import running_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(tmp_path_factory.mktemp("analysis")) as running:
        yield running.settings


def analysed(guest: Guest, key: str, timeout: float = 60) -> dict[str, Any]:
    """createThumbnail until its analysis is there: the first call waits about a second for
    it, and a busy machine can take longer (the analysis is stored when it comes)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = guest.post("/api/v1/util/createThumbnail", json={"key": key})
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()["data"]
        assert data["thumbnailUrl"]
        if data["analysis"] is not None:
            return data
        assert time.monotonic() < deadline, "no analysis"
        time.sleep(0.5)


def photo(folder: str, name: str) -> bytes:
    path = FIXTURES / folder / name
    if not path.exists():
        fixture_images(folder)  # skips with the reason when the fixtures are absent
    return path.read_bytes()


def test_create_thumbnail_carries_the_analysis(stack: Settings, db: SessionFactory) -> None:
    guest = Guest(stack.app_url)
    person = analysed(guest, guest.upload(photo("people", "01008_00.jpg")))["analysis"]
    assert (person["kind"], person["people"], person["view"], person["face"]) == (
        "person", 1, "front", "full")
    assert person["can"]["bodySwap"] == {"ok": True, "reason": None}
    assert person["can"]["burstreplace"]["ok"] is True

    garment = analysed(guest, guest.upload(photo("garments", "00055_00.jpg")))["analysis"]
    assert (garment["kind"], garment["garment"]) == ("garment", "top")
    assert garment["can"]["bodySwap"]["ok"] is True

    key = guest.upload(photo("scenes", "scene-03.jpg"))
    landscape = analysed(guest, key)["analysis"]
    assert landscape["kind"] == "neither" and landscape["people"] == 0
    for service in ("bodySwap", "burstreplace"):
        assert landscape["can"][service] == {"ok": False, "reason": NOTHING_TO_CUT_OUT}
    # Stored on the upload: analysed once, read back by a repeat.
    with db() as session:
        stored = session.execute(
            select(UploadedFile.analysis).where(UploadedFile.key == key)).scalar_one()
    assert stored == landscape
    # The page's cheap re-ask: the stored analysis, and only for the upload's owner.
    again = guest.get("/api/v1/util/photoAnalysis", key=key)
    assert again.status_code == 200 and again.json()["data"] == landscape
    stranger = Guest(stack.app_url).get("/api/v1/util/photoAnalysis", key=key)
    assert stranger.status_code == 404


def test_a_two_person_photo_is_refused_for_a_model_swap_before_the_charge(
    stack: Settings, db: SessionFactory
) -> None:
    guest = Guest(stack.app_url)
    credits = guest.credits()
    key = guest.upload(photo("people-wild", "wild-01.jpg"))
    analysis = analysed(guest, key)["analysis"]
    assert analysis["people"] >= 2 and analysis["can"]["bodySwap"]["ok"] is False
    swap = guest.submit("bodySwap", [key], modelId="model-1", backgroundId="white")
    assert swap.status_code == 422, swap.text
    assert f"shows {analysis['people']} people" in swap.json()["message"]
    # A scene with nobody in it cannot get a new background either.
    scene = guest.upload(photo("scenes", "scene-01.jpg"))
    assert analysed(guest, scene)["analysis"]["kind"] == "neither"
    replace = guest.submit("burstreplace", [scene], backgroundId="white")
    assert replace.status_code == 422 and replace.json()["message"] == NOTHING_TO_CUT_OUT
    # Nothing was charged or held, and no generation was recorded.
    assert guest.credits() == credits
    with db() as session:
        assert session.execute(select(func.count()).select_from(Generation)).scalar_one() == 0
    # The same group photo can still get a new background.
    accepted = guest.submit("burstreplace", [key], backgroundId="white")
    assert accepted.status_code == 200, accepted.text
