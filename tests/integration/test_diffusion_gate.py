"""Issue 35's artefact gate through the real workflow: the whole embedded stack, its imaging worker
on the tiny random-weight set (tests/integration/conftest.py) with the gate enforced, as
production runs it. Random weights make noise: the generation is sampled twice (the second time
with another seed), refused both times, never delivered, and its credits come back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings
from ops.stack import Stack
from tests.integration.test_diffusion_engine import wait_for_imaging
from tests.support.api_client import Guest
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack

STEPS = 4  # the pictures are noise at any step count; fewer steps keep the test short


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory, tiny_weights: Path) -> Iterator[Stack]:
    with running_stack(
        tmp_path_factory.mktemp("diffusion-gate"),
        engine="diffusion",
        engine_weights_dir=str(tiny_weights),
        diffusion_size="48x64",
        diffusion_steps=STEPS,
        diffusion_tryon_steps=STEPS,  # the model swap runs on FASHN's try-on (the default)
        # The tiny set stands in for CatVTON too (its licence); the gate stays as production has
        # it.
        allow_non_commercial_weights=True,
        guest_free_credits=5,
    ) as stack:
        wait_for_imaging(stack)
        yield stack


def test_noise_is_refused_after_another_seed_and_refunded(running: Stack) -> None:
    settings: Settings = running.settings
    guest = Guest(settings.app_url)
    before = guest.credits()
    key = guest.upload(fixture_images("garments")[0].read_bytes())
    submitted = guest.submit("bodySwap", [key], modelId="model-1")
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    (task,) = guest.wait(submitted.json()["data"]["taskIds"], timeout=120)

    assert task["status"] == "failed" and not task["outputs"], task
    assert task["error"] == ("We could not make a usable image (the generated picture came out "
                             "as noise); your credits were returned."), task
    assert guest.credits() == before  # refunded
    assert guest.wait_generation(generation_id)["status"] == "failed"

    # The imaging worker's log: the gate's scores for both samples, two different seeds.
    assert running.log_dir is not None
    log = (running.log_dir / "imaging.log").read_text(errors="replace")
    refused = re.findall(r"diffusion gate fashn attempt (\d): refused ([a-z_,]+)", log)
    assert refused == [("1", "noise,colour_speckle"), ("2", "noise,colour_speckle")], log[-3000:]
    seeds = re.findall(r'"seed": (\d+)', log)
    assert len(set(seeds)) >= 2, log[-3000:]
    # And each sample's fidelity scores (the garment's colour, pattern and print, the model's
    # face, skin and body), scored on the pasted try-on: noise is no garment either.
    judged = re.findall(r"diffusion fidelity fashn attempt (\d): refused ([a-z_,]+)", log)
    assert [attempt for attempt, _ in judged] == ["1", "2"], log[-3000:]
    assert all("garment_colour" in failures for _, failures in judged), judged
