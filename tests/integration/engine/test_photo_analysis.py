"""engine.photo_analysis on every fixture photo: what each shows, and what it can become.

The expectations are the photos' own (looked at by eye): studio people face the camera; the
VITON torso shots (049...) cut the head at the nose; the wild photos with several people are
groups; people-back shows backs and over-the-shoulder turns; garments are tops laid flat or on
a ghost mannequin; scenes and backgrounds show nobody (bg-9 is an empty studio set).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image

from core.photos.analysis import (
    BACK,
    BODY_SWAP,
    BURST_REPLACE,
    FACE_CUT_OFF,
    FACE_FULL,
    FRONT,
    GARMENT,
    NEITHER,
    NO_FACE,
    NOTHING_TO_CUT_OUT,
    PERSON,
    SEEN_FROM_BEHIND,
    SEEN_FROM_SIDE,
    SIDE,
    PhotoAnalysis,
)
from engine.cpu import to_array
from engine.photo_analysis import analyse_photo
from tests.support.paths import fixture_images

GROUPS = {"wild-01.jpg": 2, "wild-02.jpg": 2, "wild-05.jpg": 2, "wild-06.jpg": 2,
          "wild-07.jpg": 3, "wild-08.jpg": 2}  # at least this many people
CUT_AT_THE_NOSE = {"049205_0.jpg", "049447_0.jpg", "049713_0.jpg"}


@cache
def analysed(path: Path) -> PhotoAnalysis:
    return analyse_photo(to_array(Image.open(path)))


def test_studio_people_and_digital_models_can_be_swapped_when_the_face_is_in_the_photo() -> None:
    for path in fixture_images("people") + fixture_images("catalog-models"):
        found = analysed(path)
        assert (found.kind, found.people, found.view) == (PERSON, 1, FRONT), path.name
        assert found.can[BURST_REPLACE].ok, path.name
        if path.name in CUT_AT_THE_NOSE:
            assert found.refusal(BODY_SWAP) in (FACE_CUT_OFF, NO_FACE), path.name
        else:
            assert found.face == FACE_FULL and found.can[BODY_SWAP].ok, path.name


def test_a_photo_of_several_people_is_refused_for_a_model_swap() -> None:
    for path in fixture_images("people-wild"):
        found = analysed(path)
        assert found.kind == PERSON and found.can[BURST_REPLACE].ok, path.name
        if path.name in GROUPS:
            assert found.people >= GROUPS[path.name], (path.name, found.people)
            refusal = found.refusal(BODY_SWAP)
            assert refusal is not None and f"shows {found.people} people" in refusal
        elif path.name in ("wild-10.jpg", "wild-11.jpg"):  # one person facing the camera
            assert found.people == 1 and found.can[BODY_SWAP].ok, path.name


def test_people_from_behind_are_refused_for_a_swap_but_kept_for_a_new_background() -> None:
    for path in fixture_images("people-back"):
        found = analysed(path)
        assert found.kind == PERSON and found.people == 1, path.name
        assert found.view in (BACK, SIDE), (path.name, found.view)
        assert found.refusal(BODY_SWAP) in (SEEN_FROM_BEHIND, SEEN_FROM_SIDE), path.name
        assert found.can[BURST_REPLACE].ok, path.name


def test_garments_are_classified_and_can_be_dressed() -> None:
    for path in fixture_images("garments"):
        found = analysed(path)
        assert (found.kind, found.people, found.garment) == (GARMENT, 0, "top"), path.name
        assert found.can[BODY_SWAP].ok and found.can[BURST_REPLACE].ok, path.name


def test_places_without_people_can_become_nothing() -> None:
    for path in fixture_images("scenes") + fixture_images("backgrounds"):
        found = analysed(path)
        assert (found.kind, found.people) == (NEITHER, 0), (path.name, found)
        assert found.refusal(BODY_SWAP) == NOTHING_TO_CUT_OUT, path.name
        assert found.refusal(BURST_REPLACE) == NOTHING_TO_CUT_OUT, path.name
