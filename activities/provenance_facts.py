"""What a stored output's Content Credentials say about how it was made (core/provenance):
read for the imaging activity (activities/imaging.py) from the generation's row and catalog.
"""

from __future__ import annotations

from sqlalchemy import select

from core.catalog.lookup import find_background, find_model
from core.contracts.generation import ImagingInput
from core.db import SessionFactory
from core.enums import GenerationKind
from core.models.generations import Generation, GenerationImage
from core.provenance.manifest import Ingredient, ProvenanceFacts
from core.provenance.setup import Provenance


def provenance_facts(
    sessions: SessionFactory, provenance: Provenance, inp: ImagingInput, photo: Ingredient
) -> ProvenanceFacts:
    """What the output's Content Credentials say: the generation's catalog choices and
    mode, and for a re-render the image it was made from (by its signed hash)."""
    ingredients = [photo]
    rerender_of: str | None = None
    with sessions() as session:
        row = session.execute(
            select(
                Generation.model_id, Generation.background_id, Generation.livemode,
                GenerationImage.source_task_id,
            )
            .join(GenerationImage, GenerationImage.generation_id == Generation.id)
            .where(GenerationImage.id == inp.task_id)
        ).first()
        source = None
        if row is not None and row.source_task_id:
            source = session.execute(
                select(GenerationImage.content_credentials)
                .where(GenerationImage.id == row.source_task_id)
            ).scalar_one_or_none()
        # Titled by their catalog names (what people recognise), identified by their ids.
        model = find_model(session, row.model_id) if row and row.model_id else None
        background = (
            find_background(session, row.background_id) if row and row.background_id else None
        )
    if row is not None:
        if inp.service == GenerationKind.BODY_SWAP and row.model_id:
            ingredients.append(Ingredient(
                "model", model.name if model else "Digital model",
                f"catalog:{row.model_id}", "inputTo",
            ))
        if row.background_id:
            ingredients.append(Ingredient(
                "background", background.name if background else "Background",
                f"catalog:{row.background_id}", "componentOf",
            ))
        if row.source_task_id:
            rerender_of = row.source_task_id
            digest = (source or {}).get("content_sha256")
            ingredients.append(Ingredient(
                "source", "Image it was rendered again from",
                f"sha256:{digest}" if digest else f"task:{row.source_task_id}", "inputTo",
            ))
    return ProvenanceFacts(
        generation_id=inp.generation_id,
        task_id=inp.task_id,
        service=inp.service,
        engine=provenance.engine,
        product_version=provenance.product_version,
        test_mode=not row.livemode if row is not None else inp.watermark,
        ingredients=tuple(ingredients),
        rerender_of=rerender_of,
    )
