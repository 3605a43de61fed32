"""The catalog administration's pure rules: names, categories, descriptions, which items may
carry a model's attributes, the people and size checks, and moving an item in the order."""

from __future__ import annotations

import pytest

from core.catalog.admin import (
    KEEP,
    CatalogChanges,
    ModelAttributes,
    check_attributes_allowed,
    check_people,
    check_short_side,
    clean_category,
    clean_description,
    clean_name,
    reordered,
)
from core.enums import BodyType, CatalogKind, Gender, SkinTone
from core.errors import InvalidInput


def test_names_are_trimmed_and_required() -> None:
    assert clean_name("  Ava \t Rose ") == "Ava Rose"
    with pytest.raises(InvalidInput, match="give the item a name"):
        clean_name("   ")
    with pytest.raises(InvalidInput, match="at most 128"):
        clean_name("x" * 129)


def test_categories_are_lower_case_and_may_be_empty() -> None:
    assert clean_category(" Street  Style ") == "street style"
    assert clean_category("") == ""
    with pytest.raises(InvalidInput, match="at most 64"):
        clean_category("x" * 65)


def test_descriptions_are_one_trimmed_line_and_may_be_empty() -> None:
    assert clean_description("  Slim build ·\n fair skin\t· 172 cm ") == (
        "Slim build · fair skin · 172 cm")
    assert clean_description("   ") == ""
    assert clean_description("x" * 280) == "x" * 280
    with pytest.raises(InvalidInput, match="description: at most 280"):
        clean_description("x" * 281)


def test_only_a_digital_model_is_given_attributes() -> None:
    check_attributes_allowed(CatalogKind.MODEL, True)
    check_attributes_allowed(CatalogKind.BACKGROUND, False)
    with pytest.raises(InvalidInput, match="digital models only; a background has none"):
        check_attributes_allowed(CatalogKind.BACKGROUND, True)
    assert ModelAttributes(skin_tone=SkinTone.DEEP).any()
    assert not ModelAttributes().any()


def test_changes_keep_clear_or_set_the_attributes() -> None:
    # Nothing said, or only clearing: nothing is given a value (fine on a background too).
    assert not CatalogChanges(name="x").sets_attributes()
    assert not CatalogChanges(gender=None, skin_tone=None, body_type=None).sets_attributes()
    assert CatalogChanges().gender is KEEP
    assert CatalogChanges(body_type=BodyType.PLUS).sets_attributes()
    assert CatalogChanges(gender=Gender.MALE, skin_tone=None).sets_attributes()


@pytest.mark.parametrize(
    ("count", "message"),
    [(0, "No person found in this photo"), (2, r"More than one person found in this photo \(2\)")],
)
def test_a_model_photo_shows_exactly_one_person(count: int, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        check_people(count)
    check_people(1)


def test_the_short_side_is_at_least_768() -> None:
    check_short_side(768, 1024)
    check_short_side(2000, 768)
    message = r"at least 768 px on its short side \(this one is 1024x767\)"
    with pytest.raises(InvalidInput, match=message):
        check_short_side(1024, 767)


def test_moving_swaps_with_the_neighbour_and_stops_at_the_ends() -> None:
    ids = ["a", "b", "c"]
    assert reordered(ids, "b", "up") == ["b", "a", "c"]
    assert reordered(ids, "b", "down") == ["a", "c", "b"]
    assert reordered(ids, "a", "up") == ids
    assert reordered(ids, "c", "down") == ids
    assert ids == ["a", "b", "c"]  # the input is left alone
