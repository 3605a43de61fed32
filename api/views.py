"""Generations and tasks as the API shows them: presigned links instead of object keys."""

from __future__ import annotations

from collections.abc import Mapping

from api.schemas.common import (
    ContentCredentials,
    CredentialsIngredient,
    Output,
    Placement,
    ServiceView,
    ShowcasePage,
    ShowcasePair,
    TaskView,
)
from core.enums import GenerationKind, GenerationStatus, Rating
from core.keys import thumbnail_key
from core.library.showcase import Pair, PairPage
from core.models.generations import Generation, GenerationImage
from core.provenance.manifest import CredentialsSummary
from core.storage import Storage


def output_view(storage: Storage, key: str, thumbnail: str | None) -> Output:
    return Output(
        key=key,
        url=storage.presigned_get(key),
        thumbnailUrl=storage.presigned_get(thumbnail or thumbnail_key(key)),
    )


def edited_view(storage: Storage, task: GenerationImage) -> Output | None:
    if not task.edited_key:
        return None
    return output_view(storage, task.edited_key, task.edited_thumbnail_key)


def task_view(
    storage: Storage,
    task: GenerationImage,
    feedback: tuple[str, str] | None = None,
    images: bool = True,
) -> TaskView:
    """`images=False`: no links at all (a deleted generation's images are gone from storage)."""
    outputs = []
    if images and task.status == GenerationStatus.COMPLETED and task.output_key:
        outputs.append(output_view(storage, task.output_key, task.output_thumbnail_key))
    return TaskView(
        taskId=task.id,
        status=GenerationStatus(task.status),
        progress=task.progress,
        stage=task.stage,
        inputKey=task.input_key,
        inputThumbnailUrl=storage.presigned_get(thumbnail_key(task.input_key)) if images else "",
        outputs=outputs,
        error=task.error,
        note=task.note,
        edited=edited_view(storage, task) if images else None,
        shared=task.shared_at is not None,
        rating=Rating(feedback[0]) if feedback else None,
        comment=feedback[1] if feedback else "",
        sourceTaskId=task.source_task_id,
        placement=placement_view(task),
        contentCredentials=credentials_view(task.content_credentials) if images else None,
        editedCredentials=credentials_view(task.edited_credentials)
        if images and task.edited_key else None,
    )


def credentials_view(stored: Mapping[str, object] | None) -> ContentCredentials | None:
    """The stored summary of an output's Content Credentials (tasks.content_credentials) or a
    summary read from a file (core.provenance.verify), as the API shows it."""
    if not stored:
        return None
    return summary_view(CredentialsSummary.from_json(dict(stored)))


def summary_view(summary: CredentialsSummary) -> ContentCredentials:
    return ContentCredentials(
        aiGenerated=summary.ai_generated,
        action=summary.action,
        digitalSourceType=summary.digital_source_type,
        claimGenerator=summary.claim_generator,
        engine=summary.engine,
        generationId=summary.generation_id,
        taskId=summary.task_id,
        testMode=summary.test_mode,
        signer=summary.signer,
        issuer=summary.issuer,
        signedAt=summary.signed_at,
        manifestLabel=summary.manifest_label,
        ingredients=[CredentialsIngredient(**item) for item in summary.ingredients],
        sha256=summary.content_sha256,
    )


def placement_view(task: GenerationImage) -> Placement | None:
    if task.source_task_id is None:
        return None
    return Placement(
        x=task.placement_x or 0.0,
        y=task.placement_y or 0.0,
        scale=task.placement_scale if task.placement_scale is not None else 1.0,
    )


def service_view(
    storage: Storage,
    generation: Generation,
    tasks: list[GenerationImage],
    feedback: Mapping[str, tuple[str, str]] | None = None,
) -> ServiceView:
    """`feedback`: the caller's (rating, comment) per task id, for the owner's own views. A
    deleted generation is shown without links: its images are gone from storage."""
    feedback = feedback or {}
    images = generation.deleted_at is None
    return ServiceView(
        serviceId=generation.id,
        service=GenerationKind(generation.service),
        status=GenerationStatus(generation.status),
        credits=generation.credits,
        modelId=generation.model_id,
        backgroundId=generation.background_id,
        error=generation.error,
        createdAt=generation.created_at.isoformat(),
        completedAt=generation.completed_at.isoformat() if generation.completed_at else None,
        tasks=[task_view(storage, task, feedback.get(task.id), images) for task in tasks],
    )


def pair_view(storage: Storage, pair: Pair) -> ShowcasePair:
    task = pair.task
    output = output_view(storage, task.output_key or "", task.output_thumbnail_key)
    return ShowcasePair(
        taskId=task.id,
        service=GenerationKind(pair.generation.service),
        inputUrl=storage.presigned_get(task.input_key, content_type=task.input_mime),
        inputThumbnailUrl=storage.presigned_get(thumbnail_key(task.input_key)),
        outputUrl=output.url,
        outputThumbnailUrl=output.thumbnailUrl,
        showcased=task.showcased_at is not None,
    )


def showcase_page(
    storage: Storage, found: PairPage, page: int, page_size: int
) -> ShowcasePage:
    return ShowcasePage(
        items=[pair_view(storage, pair) for pair in found.pairs],
        total=found.total,
        pageNum=page,
        pageSize=page_size,
    )
