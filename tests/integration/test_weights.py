"""The generative engine's weights (issue 21): the tiny set that `python -m ops.weights tiny` builds
in the imaging environment (.venv-imaging, torch + diffusers) has the real checkpoints' layout and
input channels, `verify` accepts it and names a missing or corrupt file, and torch, diffusers,
onnxruntime and onnx are not in the API's environment (the one running these tests)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.diffusion.weights import IN_CHANNELS, MANIFEST, MODELS, WEIGHTS_FILE
from tests.support.paths import REPO

IMAGING_PYTHON = REPO / ".venv-imaging" / "bin" / "python"


def require_imaging() -> None:
    """The imaging environment, or the reason there is no test: a failure in CI (where `make test`
    builds it first), a skip on a developer's machine that has not built it."""
    if not IMAGING_PYTHON.exists():
        message = f"{IMAGING_PYTHON} not found (make test builds it: make imaging)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def weights(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(IMAGING_PYTHON), "-m", "ops.weights", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def tiny(tiny_weights: Path) -> Path:
    """The run's tiny set, built (and its build checked) once (tests/integration/conftest.py)."""
    return tiny_weights


@pytest.fixture
def copy(tiny: Path, tmp_path: Path) -> Path:
    """A copy of the tiny set that a test may damage."""
    return Path(shutil.copytree(tiny, tmp_path / "weights"))


def test_torch_is_not_in_the_api_environment() -> None:
    for package in ("torch", "diffusers", "onnxruntime", "onnx"):
        assert importlib.util.find_spec(package) is None, f"{package} is in the API's environment"


def test_the_tiny_set_has_the_checkpoints_layout(tiny: Path) -> None:
    for model in MODELS:
        for name in model.files:
            assert (tiny / model.folder / name).is_file(), f"{model.folder}/{name}"
    for folder in ("tryon/unet", "tryon/vae", "relight/unet", "relight/vae"):
        assert (tiny / folder / "config.json").is_file()
        assert (tiny / folder / WEIGHTS_FILE).is_file()
    assert (tiny / "relight/text_encoder/model.safetensors").is_file()
    assert (tiny / "tryon/attention/model.safetensors").is_file()
    configs = {folder: json.loads((tiny / folder / "config.json").read_text("utf-8"))
               for folder in ("tryon/unet", "relight/unet")}
    assert configs["tryon/unet"]["in_channels"] == IN_CHANNELS["tryon/unet"] == 9
    assert configs["relight/unet"]["in_channels"] == IN_CHANNELS["relight/unet"] == 12
    assert all(config["_class_name"] == "UNet2DConditionModel" for config in configs.values())
    manifest = json.loads((tiny / MANIFEST).read_text("utf-8"))
    on_disk = sorted(p.relative_to(tiny).as_posix() for p in tiny.rglob("*") if p.is_file())
    assert sorted(entry["path"] for entry in manifest["files"]) == [
        name for name in on_disk if name != MANIFEST]


def test_verify_accepts_the_tiny_set(tiny: Path) -> None:
    done = weights("verify", tiny)
    assert done.returncode == 0, done.stderr
    count = len(json.loads((tiny / MANIFEST).read_text("utf-8"))["files"])
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == f"ok: {count} files"
    # The licence table first: a header and one row per file; CatVTON's stand-in is the one
    # file not for commercial use.
    assert lines[0].split() == ["file", "licence", "commercial", "source"]
    assert len(lines) == count + 2
    refused = [line for line in lines[1:-1] if line.split()[2] == "NO"]
    assert [line.split()[:2] for line in refused] == [
        ["tryon/attention/model.safetensors", "CC-BY-NC-SA-4.0"]]


def test_verify_names_a_missing_file(copy: Path) -> None:
    name = f"tryon/unet/{WEIGHTS_FILE}"
    (copy / name).unlink()
    done = weights("verify", copy)
    assert done.returncode == 1
    assert f"{name} is missing" in done.stderr


def test_verify_names_a_corrupt_file(copy: Path) -> None:
    name = f"relight/vae/{WEIGHTS_FILE}"
    path = copy / name
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte flipped, the size unchanged
    path.write_bytes(bytes(data))
    done = weights("verify", copy)
    assert done.returncode == 1
    assert f"{name} does not match its sha256" in done.stderr
    assert "tryon/" not in done.stderr  # only the damaged file is named
