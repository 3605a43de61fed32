"""engine.count_people, which vets digital models' photos, on the fixture photos."""

from __future__ import annotations

import pytest
from PIL import Image

from engine import count_people
from tests.support.paths import FIXTURES, fixture_images


def count(folder: str, name: str) -> int:
    path = FIXTURES / folder / name
    if not path.exists():
        pytest.skip(f"fixture photo {path} not found")
    return count_people(Image.open(path))


def test_one_person_in_each_model_and_studio_photo() -> None:
    paths = fixture_images("catalog-models") + fixture_images("people")[:4]
    assert [count_people(Image.open(path)) for path in paths] == [1] * len(paths)


def test_nobody_in_garment_and_background_photos() -> None:
    paths = fixture_images("garments")[:4] + fixture_images("backgrounds")[:3]
    assert [count_people(Image.open(path)) for path in paths] == [0] * len(paths)


def test_groups_count_more_than_one() -> None:
    assert count("people-wild", "wild-07.jpg") >= 3  # five women posing
    assert count("people-wild", "wild-05.jpg") >= 2  # two men crouching
    assert count("people-wild", "wild-10.jpg") == 1  # one woman, street behind her
