"""The generative engine's settings: how many activities an imaging worker takes, production's
refusal to start it without weights (or on weights not licensed for commercial use, or with the
switches meant for development and tests), and the worker's translation into DiffusionSettings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from core.settings import Settings
from engine import CpuEngine, build_engine
from engine.diffusion import weights
from engine.diffusion.weights import required_files, write_manifest
from ops import worker
from ops.seed_showcase import ShowcaseSeeder
from ops.worker import EngineStartError, diffusion_settings
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


def test_production_refuses_the_switches_meant_for_development_and_tests() -> None:
    with pytest.raises(ValueError) as caught:
        settings(**PRODUCTION, allow_non_commercial_weights=True, diffusion_gate="pass")
    assert ("ALLOW_NON_COMMERCIAL_WEIGHTS=true would load weights not licensed for commercial "
            "use") in str(caught.value)
    assert "DIFFUSION_GATE=pass would deliver generated images unchecked" in str(caught.value)
    made = settings(allow_non_commercial_weights=True, diffusion_gate="pass")  # development
    assert diffusion_settings(made).gate == "pass"
    assert diffusion_settings(settings()).gate == "enforce"


def weights_folder(root: Path) -> Path:
    """A weights folder in the layout (small fake files), its manifest as `ops.weights tiny`
    writes it: the tiny set carries the licences of the checkpoints it stands in for."""
    for index, name in enumerate(required_files()):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"{name}:{index}".encode())
    write_manifest(root, tiny=True)
    return root


def test_a_production_worker_licenses_what_it_loads_naming_file_and_licence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A production worker on FASHN starts from a folder that also holds CatVTON's files (it
    never loads them); a non-commercial file it does load is refused, named, before anything
    loads."""
    built: list[str] = []
    monkeypatch.setattr(engine, "build_engine", lambda kind, **_: built.append(kind))
    root = weights_folder(tmp_path)
    folder = str(root)
    worker.build_engine(settings(**PRODUCTION, engine="diffusion", engine_weights_dir=folder))
    assert built == ["diffusion"]
    manifest = json.loads((root / weights.MANIFEST).read_text("utf-8"))
    for entry in manifest["files"]:
        if entry["path"] == weights.FASHN_WEIGHTS:
            entry.update(licence="CC-BY-NC-4.0", commercial=False, note="a relicensed copy")
    (root / weights.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(EngineStartError) as caught:
        worker.build_engine(settings(**PRODUCTION, engine="diffusion", engine_weights_dir=folder))
    message = str(caught.value)
    assert message.startswith("fashn/model.safetensors is CC-BY-NC-4.0, not licensed for "
                              "commercial use")
    assert "production worker loads only weights whose licence allows commercial use" in message
    assert "tryon/" not in message  # CatVTON's files are not this worker's
    assert "\n" not in message  # main() prints it as one line
    assert built == ["diffusion"]  # refused before any model loads


def test_development_loads_catvton_only_with_the_explicit_switch_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    built: list[str] = []
    monkeypatch.setattr(engine, "build_engine", lambda kind, **_: built.append(kind))
    folder = str(weights_folder(tmp_path))
    # FASHN (the default) needs no switch and warns of nothing.
    worker.build_engine(settings(engine="diffusion", engine_weights_dir=folder))
    assert built == ["diffusion"] and "not licensed for commercial use" not in caplog.text
    worker.build_engine(settings(engine="diffusion", engine_weights_dir=folder,
                                 diffusion_tryon="catvton", allow_non_commercial_weights=True))
    assert built == ["diffusion", "diffusion"]
    assert "loading tryon/attention/model.safetensors (CC-BY-NC-SA-4.0, not licensed for " \
           "commercial use)" in caplog.text


def test_the_try_on_is_fashn_unless_catvton_is_asked_for_with_the_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35: FASHN's try-on (Apache-2.0) by default; CatVTON's (non-commercial) only with
    ALLOW_NON_COMMERCIAL_WEIGHTS, and never in production."""
    from engine.diffusion.settings import FASHN_STEPS

    made = diffusion_settings(settings(engine="diffusion", engine_weights_dir="/w"))
    assert (made.tryon, made.tryon_steps) == ("fashn", FASHN_STEPS)
    assert Settings().diffusion_tryon_steps == FASHN_STEPS == 30  # written twice (layers)
    assert diffusion_settings(settings(diffusion_tryon="catvton", diffusion_tryon_steps=8,
                                       engine_weights_dir="/w")).tryon_steps == 8
    built: list[str] = []
    monkeypatch.setattr(engine, "build_engine", lambda kind, **_: built.append(kind))
    folder = str(weights_folder(tmp_path))
    with pytest.raises(EngineStartError, match="DIFFUSION_TRYON=catvton runs CatVTON, licensed "
                                               "CC BY-NC-SA 4.0"):
        worker.build_engine(settings(engine="diffusion", engine_weights_dir=folder,
                                     diffusion_tryon="catvton"))
    assert built == []
    worker.build_engine(settings(engine="diffusion", engine_weights_dir=folder,
                                 diffusion_tryon="catvton", allow_non_commercial_weights=True))
    assert built == ["diffusion"]
    with pytest.raises(ValueError, match="DIFFUSION_TRYON=catvton would run CatVTON"):
        settings(**PRODUCTION, diffusion_tryon="catvton")
    with pytest.raises(ValueError):
        settings(diffusion_tryon="idm-vton")
