"""Production refuses to run without a chain that can sign Content Credentials (issue 37): the
API and the imaging worker, started as real processes with ENVIRONMENT=production and every
other production setting valid, exit non-zero naming C2PA_CERT_CHAIN_FILE when no chain is
given, and naming the problem when the chain breaks C2PA's certificate profile (a self-signed
signing certificate). Nothing of the kind reaches the first image."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from core.provenance.chain import make_development_chain
from core.settings import Settings
from ops.stack import free_port
from tests.support.paths import REPO

WORKER = [sys.executable, "-m", "ops.worker", "--queues", "imaging"]
START_TIMEOUT = 120


def api_command() -> list[str]:
    return [sys.executable, "-m", "uvicorn", "api.main:app_factory", "--factory",
            "--host", "127.0.0.1", "--port", str(free_port())]


def production_env(servers: Settings, folder: Path, **extra: str) -> dict[str, str]:
    """Every production setting valid (secrets, the run's Temporal and storage), save what
    `extra` adds; no .env is read (the processes run in `folder`)."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("C2PA_", "ENVIRONMENT"))}
    env.update({
        "PYTHONPATH": str(REPO),
        "ENVIRONMENT": "production",
        "JWT_SECRET": "j" * 40,
        "CODE_SECRET": "c" * 40,
        "S3_SECRET_KEY": "s" * 40,
        "PAYMENT_WEBHOOK_SECRET": "w" * 40,
        "DATA_DIR": str(folder / "data"),
        "DATABASE_URL": f"sqlite:///{folder / 'app.db'}",
        "TEMPORAL_ADDRESS": servers.temporal_address,
        "S3_ENDPOINT": servers.s3_endpoint,
        "IMAGING_METRICS_PORT": "0",
        "ORCHESTRATION_METRICS_PORT": "0",
        **extra,
    })
    return env


def run(command: list[str], env: dict[str, str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=START_TIMEOUT)


def self_signed_chain(folder: Path) -> dict[str, str]:
    """A chain whose signing certificate signed itself (followed by a real CA, so only that
    rule is broken), and its key: as settings."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Self-signed image signer")])
    now = dt.datetime.now(dt.UTC)
    leaf = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.KeyUsage(
            digital_signature=True, content_commitment=False, key_encipherment=False,
            data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
            encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.EMAIL_PROTECTION]), False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    real_chain, _ = make_development_chain()
    ca = x509.load_pem_x509_certificates(real_chain)[-1]
    pem = serialization.Encoding.PEM
    chain, key_file = folder / "chain.pem", folder / "key.pem"
    chain.write_bytes(leaf.public_bytes(pem) + ca.public_bytes(pem))
    key_file.write_bytes(key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return {"C2PA_CERT_CHAIN_FILE": str(chain), "C2PA_PRIVATE_KEY_FILE": str(key_file)}


@pytest.mark.parametrize("process", ["api", "imaging worker"])
def test_production_without_a_chain_refuses_to_start(
    process: str, servers: Settings, tmp_path: Path
) -> None:
    command = api_command() if process == "api" else WORKER
    done = run(command, production_env(servers, tmp_path), tmp_path)
    assert done.returncode != 0, done.stdout + done.stderr
    # The C2PA files are the only problem named: everything else is a valid production setup.
    assert ("refusing to start in production: C2PA_CERT_CHAIN_FILE and "
            "C2PA_PRIVATE_KEY_FILE must be set") in done.stderr, done.stderr[-3000:]
    assert "worker ready" not in done.stdout
    assert not (tmp_path / "data" / "c2pa").exists()  # no development chain made instead


@pytest.mark.parametrize("process", ["api", "imaging worker"])
def test_production_with_a_self_signed_signer_refuses_to_start_and_says_why(
    process: str, servers: Settings, tmp_path: Path
) -> None:
    command = api_command() if process == "api" else WORKER
    env = production_env(servers, tmp_path, **self_signed_chain(tmp_path))
    done = run(command, env, tmp_path)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "the C2PA signing certificate must be issued by a separate CA" in done.stderr, (
        done.stderr[-3000:])
    assert "worker ready" not in done.stdout
