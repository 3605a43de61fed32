"""What an image's Content Credentials say, and the summary people and the API see.

The manifest follows C2PA 2.x with the IPTC digital source types:
- a model swap makes a person (or dresses one) with a trained model: `c2pa.created`, digital
  source type `trainedAlgorithmicMedia`;
- a background replace puts the uploaded subject into another picture: `c2pa.edited` with
  `compositeWithTrainedAlgorithmicMedia`.
Ingredients name what went in without carrying it: the uploaded photo by its SHA-256 (never the
photo), the digital model and the background by their catalog ids, and for a re-render the image
it was made from. Our own assertion (`com.metamodel.generation`) records the generation and task,
the engine and its weights, and whether it is a test-mode image.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from core.enums import GenerationKind

PRODUCT = "MetaModel"
GENERATION_ASSERTION = "com.metamodel.generation"
ACTIONS_ASSERTION = "c2pa.actions.v2"
IPTC = "http://cv.iptc.org/newscodes/digitalsourcetype/"
TRAINED_ALGORITHMIC_MEDIA = IPTC + "trainedAlgorithmicMedia"
COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA = IPTC + "compositeWithTrainedAlgorithmicMedia"
SERVICE_NAMES = {
    GenerationKind.BODY_SWAP: "model swap",
    GenerationKind.BURST_REPLACE: "background replace",
}


@dataclass(frozen=True)
class EngineIdentity:
    """The engine that made an image: its kind, version, and the identity of its weights."""

    name: str  # cpu | remote | diffusion
    version: str
    weights: str = ""  # e.g. "mediapipe 0.10.14 bundled models" or a manifest's sha256


@dataclass(frozen=True)
class Ingredient:
    """One thing an image was made from, by reference only."""

    kind: str  # photo | model | background | source
    title: str
    identifier: str  # "sha256:<hex>" for bytes, "catalog:<id>" for a catalog entry
    relationship: str = "inputTo"  # C2PA: componentOf | inputTo | parentOf
    format: str = ""


@dataclass(frozen=True)
class ProvenanceFacts:
    """Everything a manifest states about one delivered image."""

    generation_id: str
    task_id: str
    service: GenerationKind
    engine: EngineIdentity
    product_version: str
    test_mode: bool = False
    ingredients: tuple[Ingredient, ...] = ()
    rerender_of: str | None = None  # the task whose image this re-render was made from
    retouched: bool = False  # an operator's retouched version of a delivered image
    # When it was signed (ISO 8601, UTC): C2PA records a signing time only with a time-stamp
    # authority, which a deployment may not have, so our assertion records it too.
    created_at: str = ""


@dataclass(frozen=True)
class CredentialsSummary:
    """What the viewer, the output page and the API show of an image's credentials (the same
    shape whether built when signing or read back from a file)."""

    action: str
    digital_source_type: str
    claim_generator: str
    engine: str
    generation_id: str
    task_id: str
    test_mode: bool
    signer: str
    issuer: str
    signed_at: str | None
    manifest_label: str
    ingredients: list[dict[str, str]] = field(default_factory=list)
    ai_generated: bool = True
    # The signed file's sha256 ("" until known): a re-render names its source image by it.
    content_sha256: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CredentialsSummary:
        known = {name for name in cls.__dataclass_fields__}
        return cls(**{key: value for key, value in data.items() if key in known})


def action_of(facts: ProvenanceFacts) -> tuple[str, str]:
    """The C2PA action and IPTC digital source type for what was made."""
    if facts.retouched or facts.service == GenerationKind.BURST_REPLACE:
        return "c2pa.edited", COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA
    return "c2pa.created", TRAINED_ALGORITHMIC_MEDIA


def manifest_definition(facts: ProvenanceFacts, title: str, mime: str) -> dict[str, Any]:
    """The manifest to sign for one image (c2pa's ManifestDefinition JSON)."""
    action, source_type = action_of(facts)
    what = SERVICE_NAMES.get(facts.service, str(facts.service))
    if facts.retouched:
        description = f"Retouched by an operator after the {what}"
    elif facts.rerender_of:
        description = f"{what.capitalize()}, rendered again with the user's placement"
    else:
        description = what.capitalize()
    agent = {"name": f"{PRODUCT} {facts.engine.name} engine", "version": facts.engine.version}
    actions: list[dict[str, Any]] = []
    parent = next((i for i in facts.ingredients if i.relationship == "parentOf"), None)
    if action != "c2pa.created":
        # C2PA: an edit starts by opening the asset it edits, its parent ingredient.
        if parent is None:
            raise ValueError("an edited image needs its parent ingredient (parentOf)")
        actions.append({"action": "c2pa.opened",
                        "parameters": {"ingredientIds": [parent.kind]}})
    actions.append({
        "action": action,
        "digitalSourceType": source_type,
        "softwareAgent": agent,
        "description": description,
    })
    return {
        # Chosen here, so the summary stored at signing names the manifest readers will find.
        "label": f"urn:c2pa:{uuid.uuid4()}",
        "claim_generator_info": [{"name": PRODUCT, "version": facts.product_version}],
        "title": title,
        "format": mime,
        "assertions": [
            {"label": ACTIONS_ASSERTION, "data": {"actions": actions}},
            {"label": GENERATION_ASSERTION, "data": {
                "generationId": facts.generation_id,
                "taskId": facts.task_id,
                "service": str(facts.service),
                "testMode": facts.test_mode,
                "rerenderOf": facts.rerender_of,
                "createdAt": facts.created_at,
                "engine": {"name": facts.engine.name, "version": facts.engine.version,
                           "weights": facts.engine.weights},
            }},
        ],
        "ingredients": [
            {
                "label": ingredient.kind,  # what the opened action refers to
                "title": ingredient.title,
                "format": ingredient.format or "application/octet-stream",
                "relationship": ingredient.relationship,
                # The identity of what went in (a hash or a catalog id), never its bytes.
                "instance_id": ingredient.identifier,
                "metadata": {
                    "dataSource": {"type": "localProvider.REE", "details": ingredient.kind}
                },
            }
            for ingredient in facts.ingredients
        ],
    }


def summarize(manifest: dict[str, Any]) -> CredentialsSummary | None:
    """The summary of one manifest as c2pa's reader returns it (its active manifest); None when
    it is not one of ours (no generation assertion)."""
    assertions = {
        item.get("label"): item.get("data") or {} for item in manifest.get("assertions", [])
    }
    ours = assertions.get(GENERATION_ASSERTION)
    if not isinstance(ours, dict):
        return None
    actions = (assertions.get(ACTIONS_ASSERTION) or {}).get("actions") or [{}]
    # The action that made it: the last one (an edit is "opened" then "edited").
    first = actions[-1] if isinstance(actions[-1], dict) else {}
    generator = (manifest.get("claim_generator_info") or [{}])[0]
    signature = manifest.get("signature_info") or {}
    engine = ours.get("engine") or {}
    return CredentialsSummary(
        action=str(first.get("action", "")),
        digital_source_type=str(first.get("digitalSourceType", "")),
        claim_generator=f"{generator.get('name', '')} {generator.get('version', '')}".strip(),
        engine=" ".join(str(part) for part in (engine.get("name"), engine.get("version")) if part),
        generation_id=str(ours.get("generationId", "")),
        task_id=str(ours.get("taskId", "")),
        test_mode=bool(ours.get("testMode", False)),
        signer=str(signature.get("common_name", "")),
        issuer=str(signature.get("issuer", "")),
        signed_at=signature.get("time") or ours.get("createdAt") or None,
        manifest_label=str(manifest.get("label", "")),
        ingredients=[
            {
                "kind": str(_source_of(item).get("details", "")),
                "title": str(item.get("title", "")),
                "identifier": str(item.get("instance_id", "")),
                "relationship": str(item.get("relationship", "")),
            }
            for item in manifest.get("ingredients", [])
        ],
    )


def _source_of(ingredient: dict[str, Any]) -> dict[str, Any]:
    source = (ingredient.get("metadata") or {}).get("dataSource") or {}
    return source if isinstance(source, dict) else {}


def xmp_packet(digital_source_type: str) -> bytes:
    """An XMP packet with the IPTC DigitalSourceType, for tools that read only metadata (written
    into the file before it is signed: the signature covers it)."""
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" '
        'xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" '
        f'Iptc4xmpExt:DigitalSourceType="{digital_source_type}"/>'
        "</rdf:RDF></x:xmpmeta>"
        '<?xpacket end="r"?>'
    ).encode()
