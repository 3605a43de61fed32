"""Submitting a generation: every input checked (uploads, references, files sent inline), the
credits held in the same transaction that records it, and its workflow started; the same
idempotency key returns the same generation."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

import anyio.from_thread
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core import credits
from core.auth.tokens import Principal
from core.catalog.fit import swap_refusal
from core.catalog.lookup import find_background, find_model
from core.contracts.generation import GenerationPlan, ImagePlan
from core.db import SessionFactory
from core.enums import CatalogKind, GenerationKind, GenerationStatus, HoldStatus
from core.errors import InvalidInput, Unavailable
from core.generations.plan import make_plan
from core.generations.read import tasks_of
from core.generations.start import facts_of, generation_facts, mark_started, start_generation
from core.models.accounts import CreditHold
from core.models.base import new_id
from core.models.catalog import CatalogItem
from core.models.generations import Generation, GenerationImage, UploadedFile
from core.observability.tracing import current_trace_id, tag_current_span
from core.photos.analysis import analysis_from_json
from core.photos.inputs import CheckedInput, check_stored_image, image_name
from core.photos.uploads import record_upload, sniffed_type
from core.settings import Settings
from core.storage import Storage
from core.workflow_search import GenerationFacts
from core.workflow_starter import WorkflowStarter

log = logging.getLogger(__name__)

MAX_INPUTS = 20

@dataclass(frozen=True)
class NewFile:
    """A file sent inside the submit itself instead of uploaded first."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class GenerationSubmission:
    service: GenerationKind
    model_id: str | None
    background_id: str | None
    inputs: list[str | NewFile]
    idempotency_key: str | None
    distributor_id: str
    fingerprint: str | None
    # The public API's labels, stored on the generation and given back (api/routers/public.py).
    metadata: dict[str, str] | None = None
    # False for a test API key: the same pipeline, nothing reserved or charged, a watermark.
    livemode: bool = True
    # What the caller calls the inputs, for the messages: the web form's field, or the public
    # API's `inputs`.
    inputs_field: str = "inputFiles"


@dataclass(frozen=True)
class Submitted:
    generation: Generation
    task_ids: list[str]


class Submissions:
    """Submitting a generation: validated, recorded with its hold, and its workflow started."""

    def __init__(
        self,
        sessions: SessionFactory,
        storage: Storage,
        settings: Settings,
        temporal: WorkflowStarter,
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings
        self.temporal = temporal

    def _resolve_reference(
        self, session: Session, principal: Principal, value: str
    ) -> tuple[str | None, dict[str, Any] | None]:
        """The object key an input refers to, the caller's upload (by id or key) with its
        analysis when it has one, or a sample."""
        upload = session.execute(
            select(UploadedFile.key, UploadedFile.analysis).where(
                UploadedFile.account_id == principal.account_id,
                or_(UploadedFile.id == value, UploadedFile.key == value),
            )
        ).one_or_none()
        if upload is not None:
            return upload[0], upload[1]
        return session.execute(
            select(CatalogItem.key).where(
                CatalogItem.kind == CatalogKind.SAMPLE,
                or_(CatalogItem.id == value, CatalogItem.key == value),
            )
        ).scalar_one_or_none(), None

    def _store_new_file(self, principal: Principal, file: NewFile) -> str:
        # Stored under the type its bytes say, not the one the sender wrote on the part.
        content_type = sniffed_type(file.data)
        _, key = record_upload(
            self.sessions, principal.account_id, file.filename, content_type, "upload"
        )
        self.storage.put_bytes(key, file.data, content_type)
        return key

    def _check_inputs(self, keys: list[str]) -> list[CheckedInput]:
        """Reject unusable images now, with a clear message, before anything is started; what
        was checked (size, ETag, type) is pinned on the tasks for the later steps."""
        checked = []
        for number, key in enumerate(keys, start=1):
            name = image_name(number, len(keys))
            checked.append(
                check_stored_image(
                    self.storage, self.settings, key, name, f"{name} has not been uploaded yet."
                )
            )
        return checked

    def _existing(
        self, session: Session, principal: Principal, idempotency_key: str
    ) -> Submitted | None:
        found = session.execute(
            select(Generation).where(
                Generation.account_id == principal.account_id,
                Generation.idempotency_key == idempotency_key,
            )
        ).scalar_one_or_none()
        if found is None:
            return None
        return Submitted(found, [task.id for task in tasks_of(session, found.id)])

    def _validate(
        self, principal: Principal, request: GenerationSubmission
    ) -> tuple[list[str | NewFile], list[bool], CatalogItem | None, CatalogItem | None]:
        """The inputs resolved (keys, or files to store), whether each one's stored analysis
        was judged here, and the model and background the request uses."""
        if not request.inputs:
            raise InvalidInput(f"{request.inputs_field}: add at least one image.")
        if len(request.inputs) > MAX_INPUTS:
            raise InvalidInput(
                f"{request.inputs_field}: at most {MAX_INPUTS} images per generation.")
        with self.sessions() as session:
            model = background = None
            if request.service == GenerationKind.BODY_SWAP:
                if not request.model_id:
                    raise InvalidInput("modelId: choose a model.")
                model = find_model(session, request.model_id, published_only=True)
                if model is None:
                    raise InvalidInput("modelId: that model does not exist.")
            if request.service == GenerationKind.BURST_REPLACE and not request.background_id:
                raise InvalidInput("backgroundId: choose a background.")
            if request.background_id:
                background = find_background(session, request.background_id, published_only=True)
                if background is None:
                    raise InvalidInput("backgroundId: that background does not exist.")
            resolved: list[str | NewFile] = []
            judged: list[bool] = []  # whose stored analysis was judged here (the plan says so)
            refusals: list[tuple[int, str]] = []
            for index, value in enumerate(request.inputs):
                judged.append(False)
                if isinstance(value, NewFile):
                    resolved.append(value)
                    continue
                key, analysis = self._resolve_reference(session, principal, value)
                if key is None:
                    raise InvalidInput(
                        f"{request.inputs_field}[{index}]: that is not one of your uploads.")
                # What the upload's analysis rules out is refused now: nothing is charged and
                # no workflow starts (an upload not analysed yet is checked by the engine). For
                # a model swap that includes the chosen model's skin tone (core/catalog/fit.py,
                # the rule the model list and the engine's gate apply too).
                if analysis:
                    found = analysis_from_json(analysis)
                    refusal = (
                        swap_refusal(found, model.tone)
                        if model is not None
                        else found.refusal(request.service)
                    )
                    if refusal:
                        refusals.append((index, refusal))
                    judged[-1] = True
                resolved.append(key)
        if refusals:
            raise InvalidInput(refused_inputs(refusals, len(request.inputs)))
        return resolved, judged, model, background

    def submit(self, principal: Principal, request: GenerationSubmission) -> Submitted:
        """Validate, reserve the credits, record the generation and start its workflow.

        The credits are reserved (a pending hold) in the same transaction that records the
        generation, so no more work is accepted than the balance covers; the workflow charges
        once, keyed by the generation id, which posts the hold. A repeated submit with the
        same idempotency key and request returns the first generation (starting its workflow
        if that never happened); with a different request it is refused.
        """
        fingerprint = request_hash(request)
        if request.idempotency_key:
            with self.sessions() as session:
                found = self._existing(session, principal, request.idempotency_key)
            if found is not None:
                return self._replayed(found, fingerprint)

        resolved, judged, model, background = self._validate(principal, request)
        keys = [
            self._store_new_file(principal, value) if isinstance(value, NewFile) else value
            for value in resolved
        ]
        checked = self._check_inputs(keys)
        generation_id = new_id()
        tag_current_span("generation.id", generation_id)
        # The work, decided once: what the workflow carries and the price held now is the
        # price it charges (core/generations/plan.py).
        plan = make_plan(
            generation_id, principal.account_id, request.service, request.livemode,
            model, background,
            [
                ImagePlan(new_id(), item.key, item.size, item.etag, analysis_checked=verdict)
                for item, verdict in zip(checked, judged, strict=True)
            ],
        )
        cost = plan.cost

        def record(session: Session) -> None:
            session.add(
                Generation(
                    id=generation_id,
                    account_id=principal.account_id,
                    service=request.service,
                    status=GenerationStatus.QUEUED,
                    model_id=(
                        request.model_id if request.service == GenerationKind.BODY_SWAP else None
                    ),
                    background_id=request.background_id,
                    credits=cost,
                    distributor_id=request.distributor_id,
                    fingerprint=request.fingerprint,
                    idempotency_key=request.idempotency_key,
                    request_hash=fingerprint,
                    request_metadata=request.metadata or None,
                    livemode=request.livemode,
                    trace_id=current_trace_id(),
                )
            )
            session.flush()
            session.add_all(
                GenerationImage(
                    id=task.task_id,
                    generation_id=generation_id,
                    position=i,
                    input_key=item.key,
                    input_size=item.size,
                    input_etag=item.etag,
                    input_mime=item.info.mime_type,
                )
                for i, (task, item) in enumerate(zip(plan.tasks, checked, strict=True))
            )

        try:
            if request.livemode:
                credits.reserve(self.sessions, principal.account_id, generation_id, cost, record)
            else:
                with self.sessions.begin() as session:  # test mode: nothing to reserve
                    record(session)
        except (IntegrityError, credits.InsufficientCredits):
            # The same idempotency key raced us; the other request's generation is the answer.
            # Its hold may have taken the last credits before ours was counted: then the
            # balance refuses us first, and the retry must still get that generation, not a
            # 402 for a request that was accepted (test_plan_attacks.py).
            found = None
            if request.idempotency_key:
                with self.sessions() as session:
                    found = self._existing(session, principal, request.idempotency_key)
            if found is None:
                raise
            return self._replayed(found, fingerprint)

        try:
            self._start_workflow(generation_id, plan, facts_of(plan, principal.kind,
                                                               request.distributor_id))
        except Exception:
            log.exception("could not start generation %s", generation_id)
            if self._withdraw(generation_id):
                raise Unavailable(
                    "The generation service is not reachable right now; nothing was charged."
                ) from None
            # The start reached Temporal and only its answer was lost: the workflow runs and
            # has charged it. Removing it now would take a credit for nothing shown.
            mark_started(self.sessions, generation_id)
        with self.sessions() as session:
            generation = session.get(Generation, generation_id)
        assert generation is not None
        return Submitted(generation, [task.task_id for task in plan.tasks])

    def _withdraw(self, generation_id: str) -> bool:
        """A generation whose start failed is as if never submitted: its reservation and its
        rows go in one transaction, so neither is left behind without the other. Unless its
        hold was posted: then the start did reach Temporal (its answer was lost) and the
        workflow charged it; it stays (False)."""
        withdrawn = False

        def remove(session: Session) -> None:
            nonlocal withdrawn
            status = session.execute(
                select(CreditHold.status).where(CreditHold.id == generation_id)
            ).scalar_one_or_none()
            if status != HoldStatus.POSTED:
                withdrawn = True
                _remove_generation(session, generation_id)

        credits.void_hold(self.sessions, generation_id, then=remove)
        return withdrawn

    def _replayed(self, found: Submitted, fingerprint: str) -> Submitted:
        """The answer to a repeated submit: the first generation, started if it never was
        (the API may have died between recording it and starting its workflow)."""
        if found.generation.request_hash and found.generation.request_hash != fingerprint:
            raise InvalidInput(
                "This Idempotency-Key was already used for a different request; "
                "use a new key for a new generation."
            )
        if (
            found.generation.workflow_started_at is None
            and found.generation.status == GenerationStatus.QUEUED
        ):
            try:
                self._start_workflow(found.generation.id)
            except Exception:
                log.exception("could not start generation %s", found.generation.id)
                raise Unavailable(
                    "The generation service is not reachable right now; nothing was charged."
                ) from None
        return found

    def _start_workflow(
        self,
        generation_id: str,
        plan: GenerationPlan | None = None,
        facts: GenerationFacts | None = None,
    ) -> None:
        """Start it with its plan; a repeated submit has only the id (the workflow's verify
        step makes the plan from the recorded rows) and reads the facts from them."""
        settings = self.settings
        if facts is None:
            facts = generation_facts(self.sessions, generation_id)

        async def start_it() -> None:
            await start_generation(self.temporal, settings, generation_id, facts, plan)

        # Submits run in worker threads; the Temporal client lives on the app's event loop.
        anyio.from_thread.run(start_it)
        try:
            mark_started(self.sessions, generation_id)
        except Exception:
            # The workflow runs: failing the submit now would remove a generation that is
            # being charged. The sweeper finds the workflow and records it later.
            log.exception("generation %s started but could not be marked so", generation_id)


def refused_inputs(refusals: list[tuple[int, str]], count: int) -> str:
    """Every refused input with its reason, one sentence each ("Image 1: ... Image 3: ..."),
    so nobody fixes one photo to be refused for the next; a single input needs no number."""
    if count == 1:
        return refusals[0][1]
    return " ".join(
        f"Image {index + 1}: {reason.rstrip('.')}." for index, reason in refusals
    )


def request_hash(request: GenerationSubmission) -> str:
    """What was asked, as a digest: the same idempotency key must mean the same request."""
    digest = hashlib.sha256()
    for part in (request.service, request.model_id or "", request.background_id or ""):
        digest.update(part.encode() + b"\x00")
    for value in request.inputs:
        if isinstance(value, NewFile):
            digest.update(b"file:" + hashlib.sha256(value.data).digest())
        else:
            digest.update(b"ref:" + value.encode())
        digest.update(b"\x00")
    if not request.livemode:
        digest.update(b"test\x00")
    if request.metadata:  # (absent from the web app's requests: their digests are unchanged)
        for name in sorted(request.metadata):
            digest.update(f"meta:{name}={request.metadata[name]}".encode() + b"\x00")
    return digest.hexdigest()


def _remove_generation(session: Session, generation_id: str) -> None:
    for task in tasks_of(session, generation_id):
        session.delete(task)
    row = session.get(Generation, generation_id)
    if row is not None:
        session.delete(row)
