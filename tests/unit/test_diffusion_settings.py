"""The generative engine's settings: how many activities an imaging worker takes, production's
refusal to start it without weights, and the worker's translation into DiffusionSettings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.settings import Settings
from engine import CpuEngine, build_engine
from ops.seed_showcase import ShowcaseSeeder
from ops.worker import diffusion_settings
from tests.support.provenance import c2pa_files

PRODUCTION: dict[str, Any] = {
    "environment": "production", "jwt_secret": "x" * 40, "code_secret": "y" * 40,
    "s3_secret_key": "z" * 40, "payment_webhook_secret": "w" * 40, **c2pa_files(),
}


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_a_diffusion_worker_takes_at_least_a_batch_of_activities() -> None:
    assert settings(imaging_concurrency=2).imaging_slots == 2
    diffusion = settings(engine="diffusion", engine_weights_dir="/w", imaging_concurrency=2,
                         diffusion_max_batch=8)
    assert diffusion.imaging_slots == 8
    assert settings(engine="diffusion", engine_weights_dir="/w", imaging_concurrency=12,
                    diffusion_max_batch=4).imaging_slots == 12


def test_production_refuses_the_diffusion_engine_without_weights() -> None:
    settings(**PRODUCTION)  # the secrets alone are enough for the CPU engine
    with pytest.raises(ValueError, match="ENGINE_WEIGHTS_DIR"):
        settings(**PRODUCTION, engine="diffusion")
    assert settings(**PRODUCTION, engine="diffusion", engine_weights_dir="/w").engine == "diffusion"


def test_the_worker_reads_the_diffusion_settings() -> None:
    made = diffusion_settings(settings(
        engine="diffusion", engine_weights_dir="/weights", diffusion_size="512x768",
        diffusion_steps=20, diffusion_max_batch=4, diffusion_batch_window_ms=8,
        diffusion_dtype="float16", diffusion_seed=3,
    ))
    assert made.weights_dir == Path("/weights") and made.size == (512, 768)
    assert (made.steps, made.max_batch, made.batch_window) == (20, 4, 0.008)
    assert (made.dtype, made.seed, made.device, made.compile) == ("float16", 3, "auto", False)
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        diffusion_settings(settings(engine="diffusion", engine_weights_dir="/w",
                                    diffusion_size="large"))


def test_out_of_range_values_are_refused() -> None:
    for bad in ({"diffusion_steps": 0}, {"diffusion_max_batch": 0}, {"diffusion_dtype": "int8"}):
        with pytest.raises(ValueError):
            settings(**bad)


def test_the_engine_needs_its_settings() -> None:
    with pytest.raises(ValueError, match="ENGINE_WEIGHTS_DIR"):
        build_engine("diffusion")
    with pytest.raises(ValueError, match="'cpu', 'remote' or 'diffusion'"):
        build_engine("gpu")


def test_the_demo_showcase_is_made_by_the_cpu_engine_under_diffusion() -> None:
    """The seed runs in the API's environment (no torch): `make run ENGINE=diffusion` seeds the
    showcase with the CPU engine instead of failing."""
    seeder = ShowcaseSeeder(
        None, None, settings(engine="diffusion", engine_weights_dir="/w")  # type: ignore[arg-type]
    )
    assert isinstance(seeder.engine, CpuEngine)


def test_the_worker_and_the_engine_default_to_the_same_steps() -> None:
    """core.settings cannot import the engine (layers), so the default is written twice."""
    from engine.diffusion.settings import DEFAULT_STEPS

    assert Settings().diffusion_steps == DEFAULT_STEPS == 20
    assert diffusion_settings(Settings(engine_weights_dir="/w")).steps == DEFAULT_STEPS
