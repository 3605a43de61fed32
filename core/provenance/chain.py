"""The certificate chain and private key that sign Content Credentials.

C2PA's certificate profile is strict (checked here, so a bad chain fails at start with a reason
rather than at the first image): an EC P-256 end-entity certificate issued by a separate CA, with
Subject and Authority Key Identifiers, KeyUsage digitalSignature, and an ExtendedKeyUsage with
emailProtection or C2PA's claim-signing purpose. A production deployment gives its own chain
(`C2PA_CERT_CHAIN_FILE`, `C2PA_PRIVATE_KEY_FILE`); development makes one on first start under
the data folder and keeps it, so every image of a `make run` is signed by the same chain.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID, ObjectIdentifier

# C2PA's own claim-signing EKU (C2PA 2.x certificate profile).
C2PA_CLAIM_SIGNING = ObjectIdentifier("1.3.6.1.4.1.62558.2.1")
ALLOWED_EKUS = {ExtendedKeyUsageOID.EMAIL_PROTECTION, C2PA_CLAIM_SIGNING}
DEVELOPMENT_ORGANISATION = "MetaModel development (untrusted)"
DEVELOPMENT_FOLDER = "c2pa"
CHAIN_FILE = "chain.pem"
KEY_FILE = "key.pem"


class CredentialsError(ValueError):
    """The configured chain or key cannot sign Content Credentials; the message says why."""


@dataclass(frozen=True)
class SigningCredentials:
    chain_pem: bytes  # end-entity certificate first, then its issuers
    key_pem: bytes
    # The root(s) our own reader trusts: the chain's last certificate, plus any configured
    # earlier roots (after a key rotation, images signed before still verify as ours).
    trust_anchors_pem: bytes
    signer: str  # the end-entity certificate's common name, as readers show it
    organisation: str
    development: bool  # made by `make run`: nobody else trusts it


def load_credentials(
    chain_file: Path | None,
    key_file: Path | None,
    data_dir: Path,
    extra_anchors_file: Path | None = None,
) -> SigningCredentials:
    """The configured chain and key, or the development chain in `data_dir` (made on first use).
    Raises CredentialsError when a configured file is missing or breaks the profile."""
    if (chain_file is None) != (key_file is None):
        raise CredentialsError(
            "C2PA_CERT_CHAIN_FILE and C2PA_PRIVATE_KEY_FILE must be given together"
        )
    development = chain_file is None
    if chain_file is None or key_file is None:
        chain_file, key_file = development_chain(data_dir)
    chain_pem = _read(chain_file, "C2PA_CERT_CHAIN_FILE")
    key_pem = _read(key_file, "C2PA_PRIVATE_KEY_FILE")
    certificates = check_profile(chain_pem, key_pem)
    anchors = certificates[-1].public_bytes(serialization.Encoding.PEM)
    if extra_anchors_file is not None:
        anchors += b"\n" + _read(extra_anchors_file, "C2PA_TRUST_ANCHORS_FILE")
    subject = certificates[0].subject
    return SigningCredentials(
        chain_pem=chain_pem,
        key_pem=key_pem,
        trust_anchors_pem=anchors,
        signer=_name(subject, NameOID.COMMON_NAME),
        organisation=_name(subject, NameOID.ORGANIZATION_NAME),
        development=development,
    )


def check_profile(chain_pem: bytes, key_pem: bytes) -> list[x509.Certificate]:
    """The chain's certificates, once they are known to satisfy C2PA's profile and to match the
    key; else CredentialsError naming the first problem."""
    try:
        certificates = x509.load_pem_x509_certificates(chain_pem)
    except ValueError:
        raise CredentialsError("the C2PA certificate chain is not PEM certificates") from None
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except (ValueError, TypeError):
        raise CredentialsError("the C2PA private key is not an unencrypted PEM key") from None
    if len(certificates) < 2:
        raise CredentialsError(
            "the C2PA chain needs the signing certificate and the CA that issued it "
            "(C2PA refuses self-signed signing certificates)"
        )
    leaf = certificates[0]
    public = leaf.public_key()
    if not isinstance(public, ec.EllipticCurvePublicKey) or public.curve.name != "secp256r1":
        raise CredentialsError("the C2PA signing certificate must hold an EC P-256 key (ES256)")
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.public_key() != public:
        raise CredentialsError("the C2PA private key does not belong to the signing certificate")
    if leaf.issuer == leaf.subject:
        raise CredentialsError("the C2PA signing certificate must be issued by a separate CA")
    for extension, label in (
        (x509.SubjectKeyIdentifier, "a Subject Key Identifier"),
        (x509.AuthorityKeyIdentifier, "an Authority Key Identifier"),
    ):
        try:
            leaf.extensions.get_extension_for_class(extension)
        except x509.ExtensionNotFound:
            raise CredentialsError(f"the C2PA signing certificate needs {label}") from None
    try:
        usage = leaf.extensions.get_extension_for_class(x509.KeyUsage).value
        purposes = set(leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value)
    except x509.ExtensionNotFound:
        raise CredentialsError(
            "the C2PA signing certificate needs KeyUsage and ExtendedKeyUsage extensions"
        ) from None
    if not usage.digital_signature:
        raise CredentialsError("the C2PA signing certificate's KeyUsage lacks digitalSignature")
    if not purposes & ALLOWED_EKUS:
        raise CredentialsError(
            "the C2PA signing certificate's ExtendedKeyUsage needs emailProtection or C2PA's "
            "claim signing (1.3.6.1.4.1.62558.2.1)"
        )
    now = dt.datetime.now(dt.UTC)
    if not leaf.not_valid_before_utc <= now <= leaf.not_valid_after_utc:
        raise CredentialsError("the C2PA signing certificate is not valid today")
    return certificates


def development_chain(data_dir: Path) -> tuple[Path, Path]:
    """The development chain's files under `data_dir`, made on first use and kept. Two processes
    starting together (the API and the worker) may both make one: each writes a complete folder
    and renames it into place, and the loser uses the winner's, so the chain and key always match.
    """
    folder = data_dir / DEVELOPMENT_FOLDER
    if not (folder / CHAIN_FILE).exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".c2pa-", dir=data_dir))
        chain_pem, key_pem = make_development_chain()
        (staging / CHAIN_FILE).write_bytes(chain_pem)
        (staging / KEY_FILE).write_bytes(key_pem)
        (staging / KEY_FILE).chmod(0o600)
        try:
            os.rename(staging, folder)
        except OSError:  # another process won the race (or an empty folder was left)
            if not (folder / CHAIN_FILE).exists():
                shutil.rmtree(folder, ignore_errors=True)
                os.rename(staging, folder)
            else:
                shutil.rmtree(staging, ignore_errors=True)
    return folder / CHAIN_FILE, folder / KEY_FILE


def make_development_chain(
    organisation: str = DEVELOPMENT_ORGANISATION, days: int = 3650
) -> tuple[bytes, bytes]:
    """A CA and a signing certificate that satisfy C2PA's profile: (chain PEM, key PEM)."""
    now = dt.datetime.now(dt.UTC)
    start = now - dt.timedelta(days=1)

    def name(common_name: str) -> x509.Name:
        return x509.Name([
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, organisation),
        ])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("MetaModel Content Credentials CA"))
        .issuer_name(name("MetaModel Content Credentials CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(now + dt.timedelta(days=days + 365))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(signing=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(name("MetaModel image signer"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(signing=True), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.EMAIL_PROTECTION, C2PA_CLAIM_SIGNING]),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    chain = leaf.public_bytes(pem) + ca.public_bytes(pem)
    key_pem = key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return chain, key_pem


def _key_usage(signing: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=signing, content_commitment=False, key_encipherment=False,
        data_encipherment=False, key_agreement=False, key_cert_sign=not signing,
        crl_sign=not signing, encipher_only=False, decipher_only=False,
    )


def _read(path: Path, setting: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise CredentialsError(f"{setting} cannot be read ({path}): {error.strerror}") from None


def _name(name: x509.Name, oid: ObjectIdentifier) -> str:
    values = name.get_attributes_for_oid(oid)
    return str(values[0].value) if values else ""


def describe(credentials: SigningCredentials, data_dir: Path) -> str:
    """One line for the start-up banner and logs: who signs, and whether anyone trusts it."""
    if credentials.development:
        folder = (data_dir / DEVELOPMENT_FOLDER).resolve()
        return (
            f"signed with a development chain in {folder}: valid, but untrusted outside this "
            "installation (set C2PA_CERT_CHAIN_FILE and C2PA_PRIVATE_KEY_FILE for production)"
        )
    return f"signed by {credentials.signer} ({credentials.organisation})"
