"""Content Credentials (core/provenance): the chain's profile, signing, what a manifest says, and
how an image is judged. The C2PA library's own reader is the referee throughout."""

from __future__ import annotations

import datetime as dt
import io
import json
import threading
from pathlib import Path

import c2pa
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID
from PIL import Image
from pydantic import ValidationError

from core.enums import GenerationKind
from core.photos.images import encode_output
from core.provenance.chain import (
    CredentialsError,
    check_profile,
    describe,
    development_chain,
    load_credentials,
    make_development_chain,
)
from core.provenance.manifest import (
    COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA,
    TRAINED_ALGORITHMIC_MEDIA,
    EngineIdentity,
    Ingredient,
    ProvenanceFacts,
    xmp_packet,
)
from core.provenance.signing import ContentSigner
from core.provenance.verify import ProvenanceReader, UnsupportedImage, Verdict
from core.settings import Settings
from tests.support.paths import FIXTURES

ENGINE = EngineIdentity("cpu", "0.1.0", "mediapipe 0.10.14 bundled models")


def facts(
    service: GenerationKind = GenerationKind.BODY_SWAP, test_mode: bool = False
) -> ProvenanceFacts:
    photo = Ingredient(
        "photo", "Uploaded photo", "sha256:" + "ab" * 32,
        "parentOf" if service == GenerationKind.BURST_REPLACE else "inputTo", "image/jpeg",
    )
    return ProvenanceFacts(
        generation_id="gen1", task_id="task1", service=service, engine=ENGINE,
        product_version="0.1.0", test_mode=test_mode,
        ingredients=(photo, Ingredient("background", "Background", "catalog:bg-1", "componentOf")),
    )


@pytest.fixture(scope="module")
def credentials(tmp_path_factory: pytest.TempPathFactory):
    return load_credentials(None, None, tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="module")
def signer(credentials) -> ContentSigner:
    return ContentSigner(credentials)


@pytest.fixture(scope="module")
def reader(credentials) -> ProvenanceReader:
    return ProvenanceReader(credentials.trust_anchors_pem)


def photo_jpeg(service: GenerationKind = GenerationKind.BODY_SWAP) -> bytes:
    image = Image.open(FIXTURES / "people" / "01008_00.jpg").convert("RGB").resize((768, 1024))
    data, _, _ = encode_output(image, xmp_packet(TRAINED_ALGORITHMIC_MEDIA))
    return data


def library_report(data: bytes, mime: str = "image/jpeg") -> tuple[dict, str]:
    """What c2pa's reader says with its default settings (it trusts no development chain)."""
    reader = c2pa.Reader(mime, io.BytesIO(data))
    report = json.loads(reader.json())
    return report, reader.get_validation_state()


def test_a_signed_jpeg_validates_with_only_the_development_trust_flagged(signer) -> None:
    signed = signer.sign(photo_jpeg(), "image/jpeg", facts())
    report, state = library_report(signed.data)
    assert state == "Valid"
    assert [item["code"] for item in report["validation_status"]] == [
        "signingCredential.untrusted"
    ]
    manifest = report["manifests"][report["active_manifest"]]
    assert report["active_manifest"] == signed.summary.manifest_label
    actions = manifest["assertions"][0]["data"]["actions"]
    assert [a["action"] for a in actions] == ["c2pa.created"]
    assert actions[0]["digitalSourceType"] == TRAINED_ALGORITHMIC_MEDIA
    assert manifest["claim_generator_info"][0]["name"] == "MetaModel"
    ours = next(a for a in manifest["assertions"] if a["label"] == "com.metamodel.generation")
    assert ours["data"]["generationId"] == "gen1" and ours["data"]["taskId"] == "task1"
    assert ours["data"]["engine"]["weights"] == ENGINE.weights
    assert {i["instance_id"] for i in manifest["ingredients"]} == {
        "sha256:" + "ab" * 32, "catalog:bg-1"
    }
    # No claim thumbnail: it would re-encode the image (and cost 85 KB).
    assert "thumbnail" not in manifest
    assert len(signed.data) - len(photo_jpeg()) < 8000


def test_a_background_replace_is_an_edit_of_the_uploaded_photo(signer) -> None:
    signed = signer.sign(photo_jpeg(), "image/jpeg", facts(GenerationKind.BURST_REPLACE))
    report, state = library_report(signed.data)
    assert state == "Valid"
    manifest = report["manifests"][report["active_manifest"]]
    actions = manifest["assertions"][0]["data"]["actions"]
    assert [a["action"] for a in actions] == ["c2pa.opened", "c2pa.edited"]
    assert actions[1]["digitalSourceType"] == COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA
    parent = [i for i in manifest["ingredients"] if i["relationship"] == "parentOf"]
    assert [i["instance_id"] for i in parent] == ["sha256:" + "ab" * 32]
    assert signed.summary.action == "c2pa.edited"
    assert signed.summary.digital_source_type == COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA


def test_a_png_with_alpha_is_signed_and_keeps_its_xmp(signer, reader) -> None:
    image = Image.new("RGBA", (768, 1024), (200, 40, 40, 0))
    image.paste((30, 90, 200, 255), (200, 200, 560, 900))
    data, mime, _ = encode_output(image, xmp_packet(COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA))
    assert mime == "image/png"
    signed = signer.sign(data, mime, facts(GenerationKind.BURST_REPLACE))
    _, state = library_report(signed.data, mime)
    assert state == "Valid"
    decoded = Image.open(io.BytesIO(signed.data))
    assert "compositeWithTrainedAlgorithmicMedia" in decoded.info["XML:com.adobe.xmp"]
    assert decoded.getpixel((0, 0))[3] == 0  # still transparent
    assert reader.check(signed.data).verdict == Verdict.VERIFIED


def test_the_xmp_digital_source_type_survives_signing(signer) -> None:
    signed = signer.sign(photo_jpeg(), "image/jpeg", facts())
    xmp = Image.open(io.BytesIO(signed.data)).info["xmp"]
    assert b"Iptc4xmpExt:DigitalSourceType" in xmp and TRAINED_ALGORITHMIC_MEDIA.encode() in xmp


def test_our_reader_verifies_ours_and_reads_back_the_same_summary(signer, reader) -> None:
    signed = signer.sign(photo_jpeg(), "image/jpeg", facts(test_mode=True))
    check = reader.check(signed.data)
    assert check.verdict == Verdict.VERIFIED, check
    assert check.summary == signed.summary
    assert check.summary.test_mode is True
    assert check.summary.signer == "MetaModel image signer"
    assert "untrusted" in check.summary.issuer


def test_a_changed_byte_is_an_altered_image(signer, reader) -> None:
    signed = bytearray(signer.sign(photo_jpeg(), "image/jpeg", facts()).data)
    signed[len(signed) - 2000] ^= 0x01  # in the image data, well past the manifest
    check = reader.check(bytes(signed))
    assert check.verdict == Verdict.ALTERED
    assert "assertion.dataHash.mismatch" in check.validation_codes
    assert check.summary is not None and check.summary.generation_id == "gen1"


def test_a_resaved_image_has_no_credentials(signer, reader) -> None:
    signed = signer.sign(photo_jpeg(), "image/jpeg", facts()).data
    resaved = io.BytesIO()
    Image.open(io.BytesIO(signed)).save(resaved, "JPEG", quality=90)
    check = reader.check(resaved.getvalue())
    assert check.verdict == Verdict.NONE
    assert "removed" in check.message


def test_credentials_from_another_chain_are_not_ours(tmp_path: Path, reader) -> None:
    chain, key = make_development_chain(organisation="Someone else")
    (tmp_path / "chain.pem").write_bytes(chain)
    (tmp_path / "key.pem").write_bytes(key)
    theirs = ContentSigner(
        load_credentials(tmp_path / "chain.pem", tmp_path / "key.pem", tmp_path)
    )
    check = reader.check(theirs.sign(photo_jpeg(), "image/jpeg", facts()).data)
    assert check.verdict == Verdict.NOT_OURS


def test_only_jpeg_and_png_are_read(reader) -> None:
    gif = io.BytesIO()
    Image.new("RGB", (8, 8)).save(gif, "GIF")
    for data in (gif.getvalue(), b"", b"hello"):
        with pytest.raises(UnsupportedImage):
            reader.check(data)


def test_the_development_chain_is_made_once_and_reused(tmp_path: Path) -> None:
    first = development_chain(tmp_path)
    content = first[0].read_bytes(), first[1].read_bytes()
    second = development_chain(tmp_path)
    assert second == first
    assert (second[0].read_bytes(), second[1].read_bytes()) == content
    assert oct(first[1].stat().st_mode & 0o777) == "0o600"
    assert load_credentials(None, None, tmp_path).development is True


def test_processes_starting_together_end_with_one_matching_chain(tmp_path: Path) -> None:
    threads = [threading.Thread(target=development_chain, args=(tmp_path,)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    chain, key = development_chain(tmp_path)
    check_profile(chain.read_bytes(), key.read_bytes())  # the key belongs to the chain
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c2pa"]


def _certificate(subject: str, issuer_key, public_key, issuer: str, *, ski=True, aki=True,
                 eku=True, ca=False):
    now = dt.datetime.now(dt.UTC)
    name = lambda cn: x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])  # noqa: E731
    builder = (
        x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
        .public_key(public_key).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=9))
        .add_extension(x509.KeyUsage(
            digital_signature=not ca, content_commitment=False, key_encipherment=False,
            data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
            encipher_only=False, decipher_only=False), critical=True)
    )
    if ski:
        builder = builder.add_extension(
            x509.SubjectKeyIdentifier.from_public_key(public_key), False)
    if aki and not ca:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), False)
    if eku and not ca:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH
                                   if eku == "server" else
                                   x509.oid.ExtendedKeyUsageOID.EMAIL_PROTECTION]), False)
    return builder.sign(issuer_key, hashes.SHA256())


def _pem(*certificates) -> bytes:
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certificates)


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("self-signed", "issued by a separate CA"),
        ("no ski", "Subject Key Identifier"),
        ("no aki", "Authority Key Identifier"),
        ("server eku", "emailProtection"),
        ("rsa", "EC P-256"),
        ("wrong key", "does not belong"),
        ("alone", "the CA that issued it"),
    ],
)
def test_a_chain_outside_the_c2pa_profile_is_refused_with_the_reason(case: str, message: str):
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("CA", ca_key, ca_key.public_key(), "CA", ca=True)
    key = ec.generate_private_key(ec.SECP256R1())
    options = {"no ski": {"ski": False}, "no aki": {"aki": False},
               "server eku": {"eku": "server"}}.get(case, {})
    leaf_key = rsa.generate_private_key(65537, 2048) if case == "rsa" else key
    if case == "self-signed":
        leaf = _certificate("leaf", key, key.public_key(), "leaf")
        chain = _pem(leaf, ca)
    else:
        leaf = _certificate("leaf", ca_key, leaf_key.public_key(), "CA", **options)
        chain = _pem(leaf) if case == "alone" else _pem(leaf, ca)
    signing_key = ec.generate_private_key(ec.SECP256R1()) if case == "wrong key" else leaf_key
    with pytest.raises(CredentialsError, match=message):
        check_profile(chain, _key_pem(signing_key))


def test_the_chain_and_key_are_given_together(tmp_path: Path) -> None:
    with pytest.raises(CredentialsError, match="together"):
        load_credentials(tmp_path / "chain.pem", None, tmp_path)
    with pytest.raises(CredentialsError, match="cannot be read"):
        load_credentials(tmp_path / "missing.pem", tmp_path / "missing-key.pem", tmp_path)


PRODUCTION = {
    "environment": "production",
    "jwt_secret": "j" * 40,
    "code_secret": "c" * 40,
    "s3_secret_key": "s" * 40,
    "payment_webhook_secret": "w" * 40,
}


def test_production_refuses_to_start_without_signing_keys(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="C2PA_CERT_CHAIN_FILE and C2PA_PRIVATE_KEY_FILE"):
        Settings(_env_file=None, **PRODUCTION)  # type: ignore[call-arg]
    chain, key = development_chain(tmp_path)
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, **PRODUCTION, c2pa_cert_chain_file=chain, c2pa_private_key_file=key
    )
    assert settings.c2pa_cert_chain_file == chain


def test_earlier_roots_still_verify_after_a_rotation(tmp_path: Path) -> None:
    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    old = load_credentials(None, None, old_dir)
    new_chain, new_key = make_development_chain()
    new_dir.mkdir()
    (new_dir / "chain.pem").write_bytes(new_chain)
    (new_dir / "key.pem").write_bytes(new_key)
    (tmp_path / "anchors.pem").write_bytes(old.trust_anchors_pem)
    rotated = load_credentials(new_dir / "chain.pem", new_dir / "key.pem", tmp_path,
                               tmp_path / "anchors.pem")
    signed_before = ContentSigner(old).sign(photo_jpeg(), "image/jpeg", facts()).data
    assert ProvenanceReader(rotated.trust_anchors_pem).check(signed_before).verdict == (
        Verdict.VERIFIED
    )
    without = load_credentials(new_dir / "chain.pem", new_dir / "key.pem", tmp_path)
    assert ProvenanceReader(without.trust_anchors_pem).check(signed_before).verdict == (
        Verdict.NOT_OURS
    )


def test_the_banner_says_a_development_chain_is_untrusted(tmp_path: Path) -> None:
    line = describe(load_credentials(None, None, tmp_path), tmp_path)
    assert "development chain" in line and "untrusted" in line
    assert str((tmp_path / "c2pa").resolve()) in line


def test_an_operator_makes_and_checks_a_chain_with_the_command(tmp_path: Path, capsys) -> None:
    from ops.c2pa_chain import main

    assert main(["make", str(tmp_path / "c2pa"), "--organisation", "A shop"]) == 0
    chain, key = tmp_path / "c2pa" / "chain.pem", tmp_path / "c2pa" / "key.pem"
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert main(["check", str(chain), str(key)]) == 0
    assert "O=A shop" in capsys.readouterr().out
    # An existing key is never overwritten (images signed with it must stay verifiable).
    before = key.read_bytes()
    assert main(["make", str(tmp_path / "c2pa")]) == 1
    assert key.read_bytes() == before
    assert main(["check", str(key), str(key)]) == 1
    assert "not PEM certificates" in capsys.readouterr().err
