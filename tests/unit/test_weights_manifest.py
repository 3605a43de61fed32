"""The weights manifest and its check (engine/diffusion/weights.py), on small fake files: no
torch."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine.diffusion import weights
from engine.diffusion.weights import MANIFEST, WeightsError, required_files, verify, write_manifest


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A fake weights folder: every required file, with a little content each."""
    for index, name in enumerate(required_files()):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"{name}:{index}".encode() * 100)
    write_manifest(tmp_path)
    return tmp_path


def test_the_manifest_lists_every_file_with_size_and_sha256(root: Path) -> None:
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    assert [entry["path"] for entry in manifest["files"]] == sorted(required_files())
    for entry in manifest["files"]:
        data = (root / entry["path"]).read_bytes()
        assert entry["size"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert verify(root) == len(required_files())


def test_the_layout_is_the_published_one() -> None:
    names = required_files()
    assert "tryon/unet/diffusion_pytorch_model.safetensors" in names
    assert "tryon/attention/model.safetensors" in names
    assert "relight/unet/config.json" in names
    assert "relight/text_encoder/model.safetensors" in names


def test_hashing_streams_in_chunks(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights, "CHUNK", 7)
    path = root / "tryon/vae/config.json"
    assert weights.sha256_of(path) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_missing_file_is_named(root: Path) -> None:
    (root / "tryon/unet/diffusion_pytorch_model.safetensors").unlink()
    name = "tryon/unet/diffusion_pytorch_model.safetensors"
    with pytest.raises(WeightsError, match=f"{name} is missing"):
        verify(root)


def test_a_corrupt_file_is_named(root: Path) -> None:
    path = root / "relight/unet/diffusion_pytorch_model.safetensors"
    data = bytearray(path.read_bytes())
    data[0] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(WeightsError) as caught:
        verify(root)
    assert str(caught.value).endswith(
        "relight/unet/diffusion_pytorch_model.safetensors does not match its sha256 in "
        "manifest.json (corrupt)")


def test_a_truncated_file_is_named(root: Path) -> None:
    path = root / "tryon/vae/diffusion_pytorch_model.safetensors"
    path.write_bytes(path.read_bytes()[:-1])
    with pytest.raises(WeightsError, match=f"{path.relative_to(root)} is .* bytes"):
        verify(root)


def test_every_problem_is_named(root: Path) -> None:
    (root / "tryon/vae/config.json").unlink()
    (root / "relight/vae/config.json").write_text("{}")
    with pytest.raises(WeightsError) as caught:
        verify(root)
    assert "tryon/vae/config.json is missing" in str(caught.value)
    assert "relight/vae/config.json is" in str(caught.value)


def test_a_manifest_without_a_required_file_is_refused(root: Path) -> None:
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    manifest["files"] = [e for e in manifest["files"] if e["path"] != "relight/vae/config.json"]
    (root / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(WeightsError, match="relight/vae/config.json is not in manifest.json"):
        verify(root)


def test_a_missing_manifest_is_named(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="manifest.json is missing"):
        verify(tmp_path)


def test_fetch_keeps_one_plain_weights_file_per_model(tmp_path: Path) -> None:
    from ops.weights import _diffusers_files, _drop_variant

    assert _diffusers_files("unet", variant="fp16") == [
        "unet/config.json", "unet/diffusion_pytorch_model.fp16.safetensors"]
    assert _diffusers_files("vae") == ["vae/config.json", "vae/diffusion_pytorch_model.safetensors"]
    (tmp_path / "unet").mkdir()
    (tmp_path / "unet/diffusion_pytorch_model.fp16.safetensors").write_bytes(b"x")
    _drop_variant(tmp_path, "fp16")
    names = [p.name for p in (tmp_path / "unet").iterdir()]
    assert names == ["diffusion_pytorch_model.safetensors"]
