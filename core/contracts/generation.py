"""The generation workflow (workflows/generation.py): its names, input and result, and its
activities' inputs and outputs. The API starts it by name with these dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.enums import GenerationKind, GenerationStatus

GENERATION_WORKFLOW = "Generation"

# Activity names: the orchestration ones run on the `task_queue`, imaging on `imaging_task_queue`.
VERIFY_UPLOADS = "verify_uploads"
CHARGE_CREDITS = "charge_credits"
RUN_IMAGING = "run_imaging"
FAIL_TASK = "fail_task"
NOTIFY = "notify"



class FailureType(StrEnum):
    """The types of the ApplicationErrors a generation's activities raise (Temporal carries
    them by name): the workflow and the metrics decide by them."""

    INPUT_REJECTED = "InputRejected"  # the upload or the request is not usable
    INSUFFICIENT_CREDITS = "InsufficientCredits"
    ENGINE_REJECTED = "EngineRejected"  # the engine or its quality gate refused this input
    ENGINE_UNAVAILABLE = "EngineUnavailable"  # the engine could not be reached: retried


# Error types the workflow must not retry: the same input fails the same way again.
NON_RETRYABLE_ERRORS = [
    str(kind) for kind in FailureType if kind is not FailureType.ENGINE_UNAVAILABLE
]


@dataclass
class GenerationOptions:
    """Per-deployment knobs the starter passes in (workflow code must not read settings)."""

    imaging_task_queue: str = "imaging"
    imaging_timeout_seconds: float = 300.0
    heartbeat_timeout_seconds: float = 30.0




@dataclass
class GenerationResult:
    status: GenerationStatus  # completed | failed
    completed_tasks: int
    failed_tasks: int
    credits_charged: int
    credits_refunded: int


@dataclass
class ImagePlan:
    task_id: str
    input_key: str
    # The checked version of the input: imaging refuses any other (see core/photos/inputs.py).
    input_size: int | None = None
    input_etag: str | None = None
    # The upload's stored analysis was read at submit and allows this service (for a model
    # swap, the chosen model's skin tone too): the imaging step does not judge it again.
    analysis_checked: bool = False


@dataclass
class GenerationPlan:
    """The work to do, decided once at submit (core/generations/plan.py) and carried in the
    workflow's input; made from the recorded rows for a workflow started without it."""

    generation_id: str
    account_id: str
    service: GenerationKind
    model_key: str | None
    background_kind: str | None  # image | transparent | white | None
    background_key: str | None
    cost: int = 0  # credits for the whole generation, from core.generations.prices
    tasks: list[ImagePlan] = field(default_factory=list)
    # False for a test-mode generation (a test API key): free, its outputs watermarked.
    livemode: bool = True


@dataclass
class StartGeneration:
    """The workflow's input, and its verify step's. Its workflow id is the generation id.

    `plan` is None in inputs recorded before plans were carried, and from the starters that
    have only the id (the sweeper, a repeated submit): the verify step then makes it from the
    recorded rows. (The verify step's input was `{"generation_id": ...}` alone: it decodes as
    this.)"""

    generation_id: str
    options: GenerationOptions = field(default_factory=GenerationOptions)
    plan: GenerationPlan | None = None


@dataclass
class PlacementSpec:
    """The user's placement adjustment of a re-render (core.engine.Placement as plain data):
    offsets as fractions of the frame, a scale around the subject's ground point."""

    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0


@dataclass
class ImagingInput:
    generation_id: str
    task_id: str
    service: GenerationKind
    input_key: str
    model_key: str | None
    background_kind: str | None
    background_key: str | None
    input_size: int | None = None
    input_etag: str | None = None
    # A re-render's adjustment (workflows/rerender.py); None for a generation's own tasks.
    placement: PlacementSpec | None = None
    # Whose image it is: only for the log lines (activities/observe.py binds it to each line).
    account_id: str | None = None
    # Test mode (a test API key): the output carries a visible "TEST" watermark.
    watermark: bool = False
    # The submit judged the upload's stored analysis (ImagePlan.analysis_checked): not again.
    analysis_checked: bool = False


@dataclass
class ImagingOutput:
    output_key: str
    content_type: str


@dataclass
class FailTaskInput:
    """Mark a task failed and give back its share of the charge."""

    generation_id: str
    account_id: str
    task_id: str
    reason: str
    refund_credits: int


@dataclass
class FailTaskOutput:
    refunded: int


@dataclass
class NotifyInput:
    generation_id: str
    status: GenerationStatus
    error: str | None = None
