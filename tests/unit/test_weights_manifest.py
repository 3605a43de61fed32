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


# ---------------------------------------------------------------------------------------------
# Licences (issue 35): each file's source, licence and commercial use are data.

# The licences a file may carry and still be sold from; anything else (and "unknown") is not.
COMMERCIAL_SPDX = {"CreativeML-OpenRAIL-M", "Apache-2.0", "MIT"}


def test_every_model_records_its_licence_and_why() -> None:
    for model in weights.MODELS:
        licence = model.licence
        assert licence.spdx and licence.note, model.folder
        assert not licence.commercial or licence.spdx in COMMERCIAL_SPDX, model.folder
        for name in model.files:
            assert ":" in model.source_of(name), (model.folder, name)  # repo id:path
    records = {row.path: row for row in weights.layout_rows()}
    catvton = records["tryon/attention/model.safetensors"]
    assert (catvton.licence, catvton.commercial) == ("CC-BY-NC-SA-4.0", False)
    assert catvton.source == "zhengchong/CatVTON:mix-48k-1024/attention/model.safetensors"
    base = records["tryon/unet/diffusion_pytorch_model.safetensors"]
    assert (base.licence, base.commercial) == ("CreativeML-OpenRAIL-M", True)
    assert base.source.endswith("unet/diffusion_pytorch_model.fp16.safetensors")  # renamed
    relight = records["relight/unet/diffusion_pytorch_model.safetensors"]
    assert "lllyasviel/ic-light:iclight_sd15_fbc.safetensors" in relight.source
    assert weights.UNKNOWN.spdx == "unknown" and weights.UNKNOWN.commercial is False


def test_the_manifest_carries_each_file_s_licence(root: Path) -> None:
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    assert manifest["version"] == weights.MANIFEST_VERSION == 2
    entries = {entry["path"]: entry for entry in manifest["files"]}
    attention = entries["tryon/attention/model.safetensors"]
    assert attention["licence"] == "CC-BY-NC-SA-4.0" and attention["commercial"] is False
    assert attention["source"].startswith("zhengchong/CatVTON:") and "non-commercial" in (
        attention["note"])
    assert all(entry["commercial"] for path, entry in entries.items()
               if not path.startswith("tryon/attention/"))


def test_the_tiny_set_says_what_it_stands_in_for(tmp_path: Path) -> None:
    (tmp_path / "tryon/attention").mkdir(parents=True)
    (tmp_path / "tryon/attention/model.safetensors").write_bytes(b"random")
    (tmp_path / "stray.bin").write_bytes(b"?")
    entries = {e["path"]: e for e in write_manifest(tmp_path, tiny=True)["files"]}
    attention = entries["tryon/attention/model.safetensors"]
    assert attention["source"] == (weights.TINY_SOURCE
                                   + "zhengchong/CatVTON:mix-48k-1024/attention/model.safetensors")
    assert attention["licence"] == "CC-BY-NC-SA-4.0"  # the licence of the file it stands in for
    stray = entries["stray.bin"]  # a file outside the layout: nobody said it may be sold
    assert (stray["licence"], stray["commercial"]) == ("unknown", False)


def old_manifest(root: Path) -> None:
    """Rewrites `root`'s manifest as version 1 wrote it: path, size and sha256 only."""
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    files = [{key: entry[key] for key in ("path", "size", "sha256")} for entry in manifest["files"]]
    (root / MANIFEST).write_text(json.dumps({"version": 1, "files": files}))


def test_a_manifest_without_licences_reads_as_unknown_and_not_commercial(root: Path) -> None:
    old_manifest(root)
    assert verify(root) == len(required_files())  # the files themselves still check
    rows = weights.licence_rows(weights.load_manifest(root))
    assert {(row.licence, row.commercial) for row in rows} == {("unknown", False)}
    with pytest.raises(weights.LicenceError) as caught:
        weights.check_licences(root, allow_non_commercial=False, production=True)
    for name in required_files():
        assert f"{name} is unknown, not licensed for commercial use" in str(caught.value)


def test_production_refuses_non_commercial_weights_naming_file_and_licence(root: Path) -> None:
    with pytest.raises(weights.LicenceError) as caught:
        weights.check_licences(root, allow_non_commercial=True, production=True)
    message = str(caught.value)
    assert message.startswith("tryon/attention/model.safetensors is CC-BY-NC-SA-4.0, not "
                              "licensed for commercial use")
    assert "A production worker loads only weights whose licence allows commercial use" in message
    assert "\n" not in message and "tryon/unet" not in message  # one line, only that file


def test_elsewhere_non_commercial_weights_need_the_explicit_switch(root: Path) -> None:
    with pytest.raises(weights.LicenceError, match="Set ALLOW_NON_COMMERCIAL_WEIGHTS=true"):
        weights.check_licences(root, allow_non_commercial=False, production=False)
    allowed = weights.check_licences(root, allow_non_commercial=True, production=False)
    assert [(row.path, row.licence) for row in allowed] == [
        ("tryon/attention/model.safetensors", "CC-BY-NC-SA-4.0")]


def test_commercial_weights_start_anywhere(root: Path) -> None:
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    for entry in manifest["files"]:  # as the Apache-2.0 try-on will be
        entry.update(licence="Apache-2.0", commercial=True)
    (root / MANIFEST).write_text(json.dumps(manifest))
    assert weights.check_licences(root, allow_non_commercial=False, production=True) == []


def test_verify_prints_the_licence_table_then_its_verdict(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ops.weights import main

    assert main(["verify", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["file", "licence", "commercial", "source"]
    rows = {line.split()[0]: line.split()[1:4] for line in lines[1:-1]}
    assert rows["tryon/attention/model.safetensors"] == [
        "CC-BY-NC-SA-4.0", "NO", "zhengchong/CatVTON:mix-48k-1024/attention/model.safetensors"]
    assert rows["relight/vae/config.json"][:2] == ["CreativeML-OpenRAIL-M", "yes"]
    assert len(rows) == len(required_files()) and lines[-1] == f"ok: {len(rows)} files"

    (root / "tryon/vae/config.json").write_text("{}")  # a bad file: the table, then exit 1
    assert main(["verify", str(root)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("file ") and "ok:" not in out
    assert "tryon/vae/config.json is" in err


def test_the_real_checkpoints_table_needs_no_folder(capsys: pytest.CaptureFixture[str]) -> None:
    from ops.weights import main

    assert main(["licences"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(required_files()) + 1
    assert [line.split()[:3] for line in lines if " NO " in line] == [
        ["tryon/attention/model.safetensors", "CC-BY-NC-SA-4.0", "NO"]]


def test_a_worker_checks_and_licenses_only_the_try_on_it_loads(root: Path) -> None:
    """A folder fetched for FASHN holds no CatVTON: a FASHN worker verifies it; the whole layout
    (and a CatVTON worker) names CatVTON's files missing. CatVTON's licence refuses a production
    worker running CatVTON, never one running FASHN."""
    catvton = [name for name in required_files() if name.startswith("tryon/")]
    assert catvton and not set(catvton) & set(required_files(weights.FASHN))
    assert weights.FASHN_WEIGHTS in required_files(weights.FASHN)
    assert weights.FASHN_WEIGHTS not in required_files(weights.CATVTON)
    assert weights.check_licences(root, allow_non_commercial=False, production=True,
                                  tryon=weights.FASHN) == []
    with pytest.raises(weights.LicenceError, match="tryon/attention/model.safetensors is "
                                                   "CC-BY-NC-SA-4.0"):
        weights.check_licences(root, allow_non_commercial=False, production=True,
                               tryon=weights.CATVTON)
    for name in catvton:
        (root / name).unlink()
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    manifest["files"] = [e for e in manifest["files"] if e["path"] not in catvton]
    (root / MANIFEST).write_text(json.dumps(manifest))
    assert verify(root, weights.FASHN) == len(required_files(weights.FASHN))
    for tryon in (None, weights.CATVTON):
        with pytest.raises(WeightsError) as caught:
            verify(root, tryon)
        for name in catvton:
            assert f"{name} is not in {MANIFEST}" in str(caught.value)


def test_verify_checks_one_try_on_s_files_when_asked(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`verify DIR --tryon fashn` on a folder without CatVTON: ok; the whole layout: not."""
    from ops.weights import main

    catvton = [name for name in required_files() if name.startswith("tryon/")]
    manifest = json.loads((root / MANIFEST).read_text("utf-8"))
    manifest["files"] = [e for e in manifest["files"] if e["path"] not in catvton]
    (root / MANIFEST).write_text(json.dumps(manifest))
    assert main(["verify", str(root), "--tryon", "fashn"]) == 0
    assert f"ok: {len(required_files(weights.FASHN))} files" in capsys.readouterr().out
    assert main(["verify", str(root)]) == 1
    assert "tryon/attention/model.safetensors is not in" in capsys.readouterr().err
