"""The try-on runner (engine/diffusion/fashn/runner.py) on fixture photos and the tiny weights:
photos of any size in, the model's native frame and the person's box in it out; reproducible,
independent of what else shares the batch, and strict about what it is given. The poses are
drawn here by hand (DWPose is a later step)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.arrays import Image8
from engine.diffusion.fashn.config import TINY
from engine.diffusion.fashn.runner import (
    TryOnInputs,
    TryOnRunner,
    cut_out_garment,
    fit_pose,
    to_image,
    to_model,
)
from engine.diffusion.fashn.sampler import SamplerSettings
from engine.diffusion.weights import FASHN_WEIGHTS
from ops.weights import build_tiny
from tests.support.paths import fixture_array, fixture_images

FEW = SamplerSettings(steps=3)


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> TryOnRunner:
    root = tmp_path_factory.mktemp("weights") / "tiny"
    build_tiny(root)
    return TryOnRunner.from_file(root / FASHN_WEIGHTS)


def skeleton(shape: tuple[int, ...]) -> Image8:
    """A stick figure in grey levels, the size of the photo."""
    h, w = shape[:2]
    pose = np.zeros((h, w), np.uint8)
    for (x0, y0), (x1, y1), grey in (((0.5, 0.15), (0.5, 0.5), 200), ((0.3, 0.3), (0.7, 0.3), 150),
                                     ((0.5, 0.5), (0.35, 0.9), 100), ((0.5, 0.5), (0.65, 0.9), 90)):
        cv2.line(pose, (int(x0 * w), int(y0 * h)), (int(x1 * w), int(y1 * h)), grey,
                 max(2, w // 60))
    return pose


def photo(folder: str, index: int = 0) -> Image8:
    return fixture_array(folder, fixture_images(folder)[index].name)


def inputs(index: int = 0, category: str = "tops") -> TryOnInputs:
    person, garment = photo("people", index), photo("garments", index)
    return TryOnInputs(person, skeleton(person.shape), garment, None, category)


def test_a_photo_comes_back_in_the_native_frame_with_its_box(runner: TryOnRunner) -> None:
    item = inputs()
    [out] = runner.run([item], seeds=[5], settings=FEW)
    assert out.frame.shape == (TINY.height, TINY.width, 3) and out.frame.dtype == np.uint8
    h, w = item.person.shape[:2]
    box = out.box
    assert box.x + box.width <= TINY.width and box.y + box.height <= TINY.height
    assert (box.width == TINY.width) or (box.height == TINY.height)  # fitted whole, touching
    assert abs(box.width / box.height - w / h) < 0.1
    assert out.frame.std() > 1  # random weights draw something, not a flat frame


def test_same_seed_same_frame_whatever_shares_the_batch(runner: TryOnRunner) -> None:
    alone = runner.run([inputs(0)], seeds=[11], settings=FEW)[0].frame
    assert np.array_equal(alone, runner.run([inputs(0)], seeds=[11], settings=FEW)[0].frame)
    batched = runner.run([inputs(0), inputs(1, "bottoms")], seeds=[11, 12], settings=FEW)
    # float sums in another batch shape may differ in the last bit: one grey level at most
    assert np.abs(batched[0].frame.astype(int) - alone.astype(int)).max() <= 1
    assert not np.array_equal(batched[1].frame, alone)


def test_the_conditioning_is_letterboxed_black_in_minus_one_to_one(runner: TryOnRunner) -> None:
    item = inputs()
    conditions, [box] = runner.prepare([item])
    assert conditions.person.shape == (1, 3, TINY.height, TINY.width)
    assert conditions.person_pose.shape == conditions.garment_pose.shape == (
        1, 1, TINY.height, TINY.width)
    assert conditions.category.tolist() == [1]
    assert conditions.person.min() >= -1 and conditions.person.max() <= 1
    # A flat-lay's pose is blank: black everywhere (-1).
    assert bool((conditions.garment_pose == -1).all())
    # Outside the person's box: the black padding, if the photo does not fill the frame.
    if box.width < TINY.width:
        assert bool((conditions.person[..., : box.x] == -1).all())
    else:
        assert bool((conditions.person[..., : box.y, :] == -1).all())


def test_a_pose_keeps_its_grey_levels() -> None:
    pose = skeleton((300, 200))
    fitted = fit_pose(pose, (48, 72))
    assert fitted.shape == (72, 48)
    assert set(np.unique(fitted)) <= set(np.unique(pose))  # nearest: no blended greys


def test_round_trip_between_bytes_and_the_model_s_range() -> None:
    image = np.random.default_rng(3).integers(0, 256, (6, 4, 3), dtype=np.uint8)
    assert np.array_equal(to_image(to_model(image)), image)


def test_what_the_runner_refuses(runner: TryOnRunner) -> None:
    item = inputs()
    with pytest.raises(ValueError, match="category 'hats' is not one of tops, bottoms"):
        runner.prepare([TryOnInputs(item.person, item.person_pose, item.garment, None, "hats")])
    with pytest.raises(ValueError, match="the person's pose is 10x10"):
        runner.prepare([TryOnInputs(item.person, np.zeros((10, 10), np.uint8), item.garment,
                                    None, "tops")])
    with pytest.raises(ValueError, match="garment image must be RGB"):
        runner.prepare([TryOnInputs(item.person, item.person_pose, item.garment[..., 0], None,
                                    "tops")])
    with pytest.raises(ValueError, match="2 seeds for 1 samples"):
        runner.run([item], seeds=[1, 2], settings=FEW)


def test_a_worn_garment_is_cut_out_on_grey() -> None:
    photo_ = photo("people")
    mask = np.zeros(photo_.shape[:2], bool)
    mask[10:50, 20:60] = True
    cut = cut_out_garment(photo_, mask)
    assert np.array_equal(cut[mask], photo_[mask])  # the garment's own bytes
    assert bool((cut[~mask] == 127).all())
    with pytest.raises(ValueError, match="the garment mask is 3x2"):
        cut_out_garment(photo_, np.zeros((2, 3), bool))
