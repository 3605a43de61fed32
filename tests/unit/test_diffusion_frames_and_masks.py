"""The generative engine's plain-numpy parts: the working frame (engine/diffusion/frames.py) and
the try-on regions from our body analysis (engine/diffusion/masks.py) on real photos."""

from __future__ import annotations

import numpy as np
import pytest

from core.photos.images import decode_rgb
from engine import models
from engine.analysis import find_subject
from engine.cpu import to_array
from engine.diffusion import frames, masks
from engine.digital_model import Person, analyse_person, digital_model
from engine.swap_garment import BOTTOM, TOP
from tests.support.paths import fixture_images


def test_sizes_are_parsed_or_refused() -> None:
    assert frames.parse_size("768x1024") == (768, 1024)
    for bad in ("768", "0x10", "axb", "-8x8"):
        with pytest.raises(ValueError, match="size"):
            frames.parse_size(bad)


def test_a_photo_fits_whole_and_comes_back_at_its_size() -> None:
    rng = np.random.default_rng(1)
    photo = rng.integers(0, 255, (300, 500, 3), dtype=np.uint8)
    frame, box = frames.letterbox(photo, (96, 128))
    assert frame.shape == (128, 96, 3)
    assert (box.width, box.x) == (96, 0) and box.height == round(300 * 96 / 500)
    assert (frame[: box.y] == frames.PAD).all() and (frame[box.y + box.height :] == 255).all()
    back = frames.unletterbox(frame, box, photo.shape)
    assert back.shape == photo.shape
    # A smooth image survives the round trip closely (only resampling differs).
    smooth = np.dstack([np.tile(np.linspace(0, 255, 500), (300, 1))] * 3).astype(np.uint8)
    small, box = frames.letterbox(smooth, (96, 128))
    assert np.abs(frames.unletterbox(small, box, smooth.shape).astype(int) - smooth).mean() < 3


def test_pasting_never_touches_a_pixel_outside_the_mask() -> None:
    rng = np.random.default_rng(2)
    base = rng.integers(0, 255, (64, 80, 3), dtype=np.uint8)
    generated = rng.integers(0, 255, (64, 80, 3), dtype=np.uint8)
    mask = np.zeros((64, 80), bool)
    mask[10:50, 20:60] = True
    weight = frames.inner_feather(mask, 3.0)
    assert (weight[~mask] == 0).all() and weight[30, 40] == pytest.approx(1.0, abs=1e-3)
    out = frames.paste_inside(base, generated, weight)
    assert np.array_equal(out[~mask], base[~mask])
    assert np.array_equal(out[30, 40], generated[30, 40])


def test_detail_lost_at_the_working_size_is_restored() -> None:
    rng = np.random.default_rng(3)
    original = rng.integers(0, 255, (128, 128, 3), dtype=np.uint8)
    flat = np.full_like(original, 128)
    assert np.array_equal(frames.restore_detail(flat, original, 1.0), flat)
    restored = frames.restore_detail(flat, original, 4.0)
    error = np.abs(restored.astype(int) - original).mean()
    assert error < np.abs(flat.astype(int) - original).mean()


@pytest.fixture(scope="module")
def model() -> Person:
    return digital_model(to_array(decode_rgb(fixture_images("catalog-models")[0].read_bytes())))


def test_a_top_repaints_the_torso_and_arms_never_the_face(model: Person) -> None:
    region = masks.tryon_mask(model, TOP)
    p = model.pose.points
    chest = ((p[models.LEFT_SHOULDER] + p[models.RIGHT_HIP]) / 2).astype(int)
    assert region[chest[1], chest[0]]
    assert not (region & masks.head(model)).any()
    nose = p[models.NOSE].astype(int)
    assert not region[nose[1], nose[0]]
    # Within the model's outline (grown a little), never the backdrop far from it.
    assert not region[:, :5].any() and not region[:, -5:].any()
    assert 0.03 < masks.mask_share(region) < 0.5


def test_a_bottom_repaints_the_legs_not_the_chest(model: Person) -> None:
    top, bottom = masks.tryon_mask(model, TOP), masks.tryon_mask(model, BOTTOM)
    p = model.pose.points
    chest = ((p[models.LEFT_SHOULDER] + p[models.RIGHT_SHOULDER]) / 2 * 0.6
             + (p[models.LEFT_HIP] + p[models.RIGHT_HIP]) / 2 * 0.4).astype(int)
    assert top[chest[1], chest[0]] and not bottom[chest[1], chest[0]]
    hips_y = int(p[[models.LEFT_HIP, models.RIGHT_HIP], 1].mean())
    assert bottom[hips_y + 40 :].sum() > bottom[:hips_y].sum()
    outfit = masks.tryon_mask(model, masks.OUTFIT)
    assert (outfit | top | bottom).sum() == outfit.sum()  # the outfit covers both


def test_a_worn_outfit_is_cut_from_the_person_without_skin_or_face() -> None:
    rgb = to_array(decode_rgb(fixture_images("people")[0].read_bytes()))
    person = analyse_person(rgb, find_subject(rgb))
    worn = masks.worn_garment(person)
    assert worn.shape == rgb.shape[:2]
    assert (worn <= person.subject.cutout.alpha + 1e-6).all()
    assert not (worn[masks.head(person)] > 0).any()
    assert masks.mask_share(worn > 0.5) > 0.05
    condition = masks.garment_condition(rgb, worn)
    assert condition.dtype == np.uint8 and condition.shape[2] == 3
    assert (condition[0, 0] == 255).all()  # on white, with a margin
