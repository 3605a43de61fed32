"""Studio cut-outs: reflections on a glossy floor and sheer fabric (issue 13, item 2)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from engine import analysis, matting, reflection
from engine.analysis import find_subject
from tests.support.paths import FIXTURES

PERSON = FIXTURES / "people" / "049205_0.jpg"  # full length, sneakers, on a light sweep
FEET_PHOTOS = ("049205_0.jpg", "049447_0.jpg", "049713_0.jpg")
REFLECTION = 0.4  # how much of the subject a glossy floor gives back


def _photo(name: str) -> np.ndarray:
    path = FIXTURES / "people" / name
    if not path.exists():
        pytest.skip(f"fixture photo {name} not found")
    return np.asarray(Image.open(path).convert("RGB"))


def studio_with_reflection(
    name: str = PERSON.name,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A real person cut out and stood, smaller, on a light studio floor that mirrors them:
    the photo, the person's true alpha, the reflection's alpha, and the contact row."""
    rgb = _photo(name)
    subject = find_subject(rgb)
    h, w = rgb.shape[:2]
    scale = 0.72
    sw, sh = round(w * scale), round(h * scale)
    person = cv2.resize(subject.cutout.rgb, (sw, sh), interpolation=cv2.INTER_AREA)
    alpha_small = cv2.resize(subject.cutout.alpha, (sw, sh), interpolation=cv2.INTER_AREA)
    left, top = (w - sw) // 2, 30
    truth = np.zeros((h, w), np.float32)
    truth[top : top + sh, left : left + sw] = alpha_small
    colour = np.zeros((h, w, 3), np.float32)
    colour[top : top + sh, left : left + sw] = person
    contact = int(np.nonzero((truth > 0.5).any(axis=1))[0].max())
    # The sweep: the photo's own backdrop colour, a little darker toward the floor.
    back_colour = matting.backdrop_rgb(subject.backdrop, 1, 1)[0, 0]
    fall = np.linspace(0, 10, h, dtype=np.float32)[:, None, None]
    rng = np.random.default_rng(5)
    scene = back_colour[None, None, :] - fall + rng.normal(0, 1.0, (h, w, 3)).astype(np.float32)
    # The mirror image below the contact row, fading with distance from the feet.
    mirrored_alpha = np.zeros((h, w), np.float32)
    mirrored_colour = np.zeros((h, w, 3), np.float32)
    depth = h - contact - 1
    mirrored_alpha[contact + 1 :] = truth[contact - depth : contact][::-1]
    mirrored_colour[contact + 1 :] = colour[contact - depth : contact][::-1]
    fade = np.zeros((h, 1), np.float32)
    fade[contact + 1 :, 0] = REFLECTION * np.linspace(1.0, 0.5, depth)
    gloss = (mirrored_alpha * fade)[..., None]
    scene = scene * (1 - gloss) + mirrored_colour * gloss
    a = truth[..., None]
    image = (colour * a + scene * (1 - a)).clip(0, 255).astype(np.uint8)
    return image, truth, mirrored_alpha, contact


@pytest.mark.parametrize("name", ("049447_0.jpg", "049713_0.jpg"))
def test_reflection_under_the_feet_is_removed(name: str) -> None:
    """Black patent shoes under patterned trousers, purple sneakers: before, the faded mirror
    image of the shoes just below the feet was kept (049447_0: alpha 0.72 at its 95th
    percentile; further down, away from the person, the matte already dropped it)."""
    image, truth, mirrored, contact = studio_with_reflection(name)
    subject = find_subject(image)
    assert subject.pose is not None and subject.cutout.kind == "person"
    alpha = subject.cutout.alpha
    h = image.shape[0]
    reflection = (mirrored > 0.9) & (truth < 0.02)
    reflection[: contact + 3] = False
    reflection[contact + round(0.08 * h) :] = False
    assert reflection.sum() > 2000, "the test needs a visible reflection"
    assert float(alpha[reflection].mean()) <= 0.1
    assert float(np.percentile(alpha[reflection], 95)) <= 0.3
    # The shoes themselves stay: the lowest 12% of the person, away from its soft outline.
    feet = cv2.erode((truth > 0.9).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    height = contact - int(np.nonzero((truth > 0.5).any(axis=1))[0].min())
    feet[: contact - int(0.12 * height)] = False
    assert feet.sum() > 1500
    assert float((alpha[feet] >= 0.9).mean()) >= 0.95


@pytest.mark.parametrize("name", FEET_PHOTOS)
def test_reflection_removal_leaves_the_person_above_the_feet_alone(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On real studio photos with the feet in frame (no glossy floor), nothing above the
    feet changes, nor anything inside the pose model's person (the shoes): the matte with
    the step against the matte without it."""
    rgb = _photo(name)
    after = find_subject(rgb)
    assert after.pose is not None
    contact = analysis.contact_row(after.pose, rgb.shape[0])
    assert contact is not None
    with monkeypatch.context() as patch:
        patch.setattr(reflection, "floor_reflection", lambda rgb, alpha, *_args: alpha)
        before = find_subject(rgb)
    h, w = rgb.shape[:2]
    body = cv2.resize(after.pose.mask, (w, h)) > 0.5
    change = np.abs(after.cutout.alpha - before.cutout.alpha)
    assert float(change[:contact].max()) <= 0.02
    # (the edge alpha after it is re-estimated from slightly different neighbours)
    assert float(change[body].max()) <= 0.1


def garment_with_sheer_hem(
    fabric: tuple[int, int, int], backdrop: tuple[int, int, int], opacity: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A flat-colour top on a plain backdrop whose lowest 60 px are a sheer hem (the fabric
    at `opacity` over the backdrop): the photo, the opaque part's mask and the hem's mask."""
    height, width = 1024, 768
    mask = np.zeros((height, width), np.uint8)
    body = np.array([[250, 230], [518, 230], [600, 330], [540, 380], [520, 330], [520, 820],
                     [248, 820], [248, 330], [228, 380], [168, 330]], np.int32)
    cv2.fillPoly(mask, [body], (1,))
    hem = mask.astype(bool) & (np.arange(height)[:, None] >= 760)
    rng = np.random.default_rng(11)
    folds = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 25)
    folds = (folds * (6 / (np.abs(folds).max() + 1e-6))).astype(np.float32)
    cloth = np.array(fabric, np.float32) + folds[..., None] + rng.normal(
        0, 1.5, (height, width, 1)).astype(np.float32)
    back = np.array(backdrop, np.float32) + rng.normal(0, 1.0, (height, width, 3))
    truth = cv2.GaussianBlur(np.where(hem, opacity, mask).astype(np.float32), (0, 0), 1.0)
    a = truth[..., None]
    image = (cloth * a + back * (1 - a)).clip(0, 255).astype(np.uint8)
    return image, mask.astype(bool) & ~hem, hem


@pytest.mark.parametrize(
    ("fabric", "backdrop"),
    [((40, 60, 130), (238, 238, 236)), ((150, 30, 50), (225, 228, 232))],
)
def test_sheer_hem_stays_partly_transparent(
    fabric: tuple[int, int, int], backdrop: tuple[int, int, int]
) -> None:
    """A navy / wine top with a hem of its fabric at 50% over a light backdrop: the hem is
    half transparent in the matte (before: opaque, 1.0), the rest of the top solid."""
    image, opaque, hem = garment_with_sheer_hem(fabric, backdrop, 0.5)
    subject = find_subject(image)
    assert subject.cutout.kind == "garment"
    alpha = subject.cutout.alpha
    hem_inside = cv2.erode(hem.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    assert float(((alpha[hem_inside] >= 0.3) & (alpha[hem_inside] <= 0.7)).mean()) >= 0.95
    solid = cv2.erode(opaque.astype(np.uint8), np.ones((15, 15), np.uint8)) > 0
    assert float((alpha[solid] >= 0.95).mean()) >= 0.999


def test_solid_dark_garment_near_its_hem_is_not_made_sheer() -> None:
    """The same top with an opaque hem (opacity 1): nothing is lowered anywhere inside it,
    though its shaded folds run toward the backdrop's colour."""
    image, opaque, hem = garment_with_sheer_hem((40, 60, 130), (238, 238, 236), 1.0)
    alpha = find_subject(image).cutout.alpha
    inside = cv2.erode((opaque | hem).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    assert float((alpha[inside] >= 0.95).mean()) >= 0.999
