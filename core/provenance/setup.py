"""One process's Content Credentials: the chain from the settings, its signer and its reader."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from core.observability.error_reports import package_version
from core.provenance.chain import SigningCredentials, load_credentials
from core.provenance.manifest import EngineIdentity
from core.provenance.signing import ContentSigner
from core.provenance.verify import ProvenanceReader
from core.settings import Settings


@dataclass(frozen=True)
class Provenance:
    credentials: SigningCredentials
    signer: ContentSigner
    reader: ProvenanceReader
    product_version: str
    engine: EngineIdentity


def provenance_from_settings(settings: Settings) -> Provenance:
    """Built once at start: a chain that cannot sign fails the process here, with the reason
    (core.provenance.chain.CredentialsError), not at its first image."""
    credentials = load_credentials(
        settings.c2pa_cert_chain_file,
        settings.c2pa_private_key_file,
        settings.data_dir,
        settings.c2pa_trust_anchors_file,
    )
    return Provenance(
        credentials=credentials,
        signer=ContentSigner(credentials),
        reader=ProvenanceReader(credentials.trust_anchors_pem),
        product_version=package_version(),
        engine=engine_identity(settings),
    )


def engine_identity(settings: Settings) -> EngineIdentity:
    """The engine this process renders with, as a manifest names it: its kind, the product's
    version, and what identifies its weights (the generative engine's checked manifest by its
    hash; the CPU engine's models come inside the pinned mediapipe wheel)."""
    version = package_version()
    if settings.engine == "diffusion":
        manifest = Path(settings.engine_weights_dir) / "manifest.json"
        try:
            digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
            weights = f"weights manifest sha256:{digest}"
        except OSError:
            weights = f"weights in {settings.engine_weights_dir}"
        return EngineIdentity("diffusion", version, weights)
    if settings.engine == "remote":
        return EngineIdentity("remote", version, f"inference service {settings.engine_url}")
    try:
        weights = f"mediapipe {metadata.version('mediapipe')} bundled models"
    except metadata.PackageNotFoundError:
        weights = "mediapipe bundled models"
    return EngineIdentity("cpu", version, weights)
