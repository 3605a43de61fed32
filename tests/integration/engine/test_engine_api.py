"""The engine as the worker uses it: the factory, progress reports, two threads at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from PIL import Image

from core.engine import Background, ImageTooSmall, NoPersonFound
from engine import CpuEngine, build_engine
from engine.remote import RemoteEngine
from tests.support.paths import fixture_images


def test_build_engine_kinds() -> None:
    assert isinstance(build_engine("cpu"), CpuEngine)
    remote = build_engine("remote", "http://127.0.0.1:9", timeout_seconds=5)
    assert isinstance(remote, RemoteEngine)
    with pytest.raises(ValueError):
        build_engine("remote")
    with pytest.raises(ValueError):
        build_engine("gpu")


def test_progress_is_reported_in_order_and_ends_at_one() -> None:
    photo = Image.open(fixture_images("garments")[0]).convert("RGB")
    model = Image.open(fixture_images("catalog-models")[0]).convert("RGB")
    engine = CpuEngine()
    for run in (
        lambda report: engine.replace_background(photo, Background.builtin("white"), report),
        lambda report: engine.body_swap(photo, model, None, report),
    ):
        seen: list[tuple[float, str]] = []

        def report(fraction: float, stage: str, seen: list[tuple[float, str]] = seen) -> None:
            seen.append((fraction, stage))

        run(report)
        fractions = [fraction for fraction, _ in seen]
        assert len(seen) >= 3
        assert fractions == sorted(fractions) and fractions[-1] == 1.0
        assert all(stage for _, stage in seen)


def test_two_threads_give_the_same_bytes_as_one() -> None:
    """The worker runs two engine calls at once; shared models must not mix them up."""
    engine = CpuEngine()
    people = fixture_images("people")[:2]
    garments = fixture_images("garments")[:2]
    # model-1: a tone close to both people's (model-4's is refused for them, tone_gap).
    model = Image.open(fixture_images("catalog-models")[0]).convert("RGB")
    background = Background.photo(Image.open(fixture_images("backgrounds")[0]).convert("RGB"))
    photos = [Image.open(p).convert("RGB") for p in people + garments]

    def job(photo: Image.Image) -> bytes:
        return engine.body_swap(photo, model, background).tobytes()

    alone = [job(photo) for photo in photos]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(job, photos))
    assert together == alone


def test_the_model_photo_must_show_a_person() -> None:
    engine = CpuEngine()
    garment = Image.open(fixture_images("garments")[0]).convert("RGB")
    with pytest.raises(NoPersonFound) as raised:
        engine.body_swap(garment, garment, None)
    assert raised.value.retryable is False
    with pytest.raises(ImageTooSmall):
        engine.body_swap(garment, garment.resize((180, 240)), None)


def test_large_inputs_are_capped_at_2048() -> None:
    engine = CpuEngine()
    photo = Image.open(fixture_images("garments")[1]).convert("RGB").resize((1800, 2400))
    out = engine.replace_background(photo, Background.builtin("white"))
    assert out.size == (1536, 2048)
    assert np.asarray(out)[0, 0].tolist() == [255, 255, 255]
