"""The demo catalog's presentation (ops/seed_catalog.py) and the items the seed makes from the
fixture photos (ops/seed.py): every photo named and described, models with their filter
attributes, backgrounds in the four categories, the first seeds' names told apart."""

from __future__ import annotations

import re

import pytest

from core.catalog.admin import MAX_CATEGORY, MAX_DESCRIPTION, MAX_NAME
from core.enums import CatalogKind, Gender
from ops.seed import seed_items
from ops.seed_catalog import (
    BACKGROUND_CATEGORIES,
    BACKGROUNDS,
    MODELS,
    is_old_default,
    presentation,
)
from tests.support.paths import FIXTURES, fixture_images


def test_every_fixture_photo_is_presented() -> None:
    models = {path.stem for path in fixture_images("catalog-models")}
    places = {path.stem for path in fixture_images("backgrounds")}
    places |= {path.stem for path in fixture_images("scenes") if path.stem.startswith("scene-")}
    assert set(MODELS) == models
    assert set(BACKGROUNDS) == places


def test_models_are_described_in_one_line_with_their_attributes() -> None:
    names = [shown.name for shown in MODELS.values()]
    assert len(set(names)) == len(names)
    for shown in MODELS.values():
        assert shown.gender and shown.skin_tone and shown.body_type, shown
        assert shown.description.startswith(
            f"{shown.body_type.value.capitalize()} build · {shown.skin_tone.value} skin · ")
        height = re.fullmatch(r"[^\n]+ · (\d{3}) cm", shown.description)
        assert height is not None, shown.description
        low, high = (170, 176) if shown.gender == Gender.FEMALE else (183, 188)
        assert low <= int(height.group(1)) <= high, shown
        assert len(shown.name) <= MAX_NAME and len(shown.description) <= MAX_DESCRIPTION
        assert not is_old_default(CatalogKind.MODEL, shown.name)
    assert [MODELS[i].gender for i in ("model-5", "model-6")] == [Gender.MALE] * 2


def test_backgrounds_use_the_four_categories_and_have_no_model_attributes() -> None:
    assert {shown.category for shown in BACKGROUNDS.values()} == set(BACKGROUND_CATEGORIES)
    for shown in BACKGROUNDS.values():
        assert shown.description and len(shown.description) <= MAX_DESCRIPTION
        assert len(shown.category) <= MAX_CATEGORY
        assert (shown.gender, shown.skin_tone, shown.body_type) == (None, None, None)
        assert not is_old_default(CatalogKind.BACKGROUND, shown.name)


def test_the_first_seeds_names_are_told_apart() -> None:
    assert is_old_default(CatalogKind.MODEL, "Model 3")
    assert is_old_default(CatalogKind.BACKGROUND, "Scene 10")
    assert not is_old_default(CatalogKind.MODEL, "Scene 3")  # not a model's old name
    assert not is_old_default(CatalogKind.MODEL, "Model 3 (Clara)")
    assert not is_old_default(CatalogKind.BACKGROUND, "Scene")
    assert not is_old_default(CatalogKind.SAMPLE, "Model 1")
    assert presentation(CatalogKind.MODEL, "bg-1") is None
    assert presentation(CatalogKind.BACKGROUND, "scene-03") == BACKGROUNDS["scene-03"]


def test_the_seed_makes_the_presented_items_with_ids_kept() -> None:
    fixture_images("scenes")
    items = {item.id: item for item in seed_items(FIXTURES)}
    mei = items["model-1"]
    assert (mei.name, mei.category, mei.gender, mei.skin_tone, mei.body_type) == (
        "Mei", "studio", "female", "fair", "slim")
    assert items["bg-1"].name == "Neon table" and items["bg-1"].old_category == "scene"
    scenes = [items[f"scene-0{n}"] for n in range(1, 8)]
    assert all(item.kind == CatalogKind.BACKGROUND for item in scenes)
    # The scenes come after every studio background in the picker's order.
    last_studio = max(item.sort for item in items.values()
                      if item.kind == CatalogKind.BACKGROUND and item.id.startswith("bg-"))
    assert [item.sort for item in scenes] == sorted(item.sort for item in scenes)
    assert min(item.sort for item in scenes) > last_studio
    for item in items.values():
        if item.kind in (CatalogKind.MODEL, CatalogKind.BACKGROUND):
            assert item.description, item.id
            assert not is_old_default(CatalogKind(item.kind), item.name), item.id


@pytest.mark.parametrize("item_id", ["transparent", "white", "studio-grey"])
def test_the_builtin_and_generated_backgrounds_keep_their_names(item_id: str) -> None:
    item = next(i for i in seed_items(FIXTURES / "missing") if i.id == item_id)
    assert item.description and not item.numbered_before
