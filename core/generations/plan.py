"""A generation's plan: the work its workflow does, decided once.

The submit makes it from what it has just checked (the inputs, pinned by size and ETag, with
the analysis verdict; the catalog entries it looked up; the price) and the workflow carries it
in its input, so nothing is priced, looked up or judged again on the way to the engine. What
can change after the submit is confirmed by the same functions: the generation not given up
meanwhile, its catalog photos still stored, each upload still the version checked
(confirm_plan).

A workflow started without a plan (started before plans were carried, or started late by the
sweeper or a repeated submit) gets one from the recorded rows (plan_of_record), made by the
same functions the submit uses.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from core.catalog.lookup import background_kind, find_background, find_model
from core.contracts.generation import GenerationPlan, ImagePlan
from core.enums import GenerationKind
from core.errors import InvalidInput
from core.generations.prices import generation_cost
from core.generations.read import tasks_of
from core.generations.tasks import TERMINAL
from core.models.accounts import CreditHold
from core.models.catalog import CatalogItem
from core.models.generations import Generation
from core.photos.inputs import check_pinned_version, check_stored_image, image_name
from core.settings import Settings
from core.storage import Storage

MODEL_GONE = "The chosen model is not available any more."
BACKGROUND_GONE = "The chosen background is not available any more."


def make_plan(
    generation_id: str,
    account_id: str,
    service: GenerationKind,
    livemode: bool,
    model: CatalogItem | None,
    background: CatalogItem | None,
    tasks: list[ImagePlan],
    recorded_cost: int | None = None,
) -> GenerationPlan:
    """The plan for these choices: the catalog entries as the engine needs them (storage keys,
    a built-in background by its kind) and the price, the one rule (core/generations/prices.py)
    the hold, the charge and a failed image's refund all follow. `recorded_cost`: the price a
    recorded generation was held and shown at, which it keeps (plan_of_record)."""
    kind = background_kind(background) if background is not None else None
    cost = generation_cost(service, len(tasks)) if recorded_cost is None else recorded_cost
    return GenerationPlan(
        generation_id=generation_id,
        account_id=account_id,
        service=service,
        model_key=model.key if model is not None else None,
        background_kind=kind,
        background_key=background.key if background is not None and kind == "image" else None,
        cost=cost if livemode else 0,
        tasks=tasks,
        livemode=livemode,
    )


def still_open(generation: Generation | None) -> None:
    """InvalidInput when the generation is gone or finished (given up by the sweeper, or ended
    by an earlier run): such a one is never charged."""
    if generation is None:
        raise InvalidInput("This generation no longer exists.")
    if generation.status in TERMINAL:
        raise InvalidInput(generation.error or "This generation has already finished.")


def catalog_choices(
    session: Session, model_id: str | None, background_id: str | None
) -> tuple[CatalogItem | None, CatalogItem | None]:
    """A recorded generation's model and background; one removed from the catalog since the
    submit fails it for good (InvalidInput). Unpublished ones still serve: a generation keeps
    what it was submitted with."""
    model = find_model(session, model_id) if model_id else None
    if model_id and model is None:
        raise InvalidInput(MODEL_GONE)
    background = find_background(session, background_id) if background_id else None
    if background_id and background is None:
        raise InvalidInput(BACKGROUND_GONE)
    return model, background


def confirm_plan(storage: Storage, settings: Settings, plan: GenerationPlan) -> None:
    """What the plan uses is still there: the catalog photos (an operator may have deleted the
    model or background since the submit: the item and its objects go together,
    core/catalog/admin.py), then each input, still the version checked at submit: from its
    metadata alone when its version was pinned (the imaging step reads and checks the bytes
    before it decodes them), else read and checked in full. InvalidInput, or the input check's
    ImageRejected, when something is gone or changed."""
    if plan.model_key and storage.stat(plan.model_key) is None:
        raise InvalidInput(MODEL_GONE)
    if plan.background_key and storage.stat(plan.background_key) is None:
        raise InvalidInput(BACKGROUND_GONE)
    confirm_inputs(storage, settings, plan.tasks)


def confirm_inputs(storage: Storage, settings: Settings, tasks: Sequence[ImagePlan]) -> None:
    """Each input is still there and still the version checked (see confirm_plan)."""
    for number, task in enumerate(tasks, start=1):
        name = image_name(number, len(tasks))
        missing = f"{name} was not found; please upload it again."
        if task.input_size is not None and task.input_etag:
            check_pinned_version(
                storage, task.input_key, name, missing, task.input_size, task.input_etag
            )
        else:
            checked = check_stored_image(storage, settings, task.input_key, name, missing)
            task.input_size, task.input_etag = checked.size, checked.etag


def plan_of_record(session: Session, generation_id: str) -> GenerationPlan:
    """The plan of a recorded generation whose workflow was started without one: from its rows,
    by the rules the submit applies, at the price recorded and paid by the account it was held
    on (InvalidInput when it cannot run).
    What it uses is confirmed by the caller (confirm_plan), outside the database session."""
    generation = session.get(Generation, generation_id)
    still_open(generation)
    assert generation is not None
    model, background = catalog_choices(session, generation.model_id, generation.background_id)
    tasks = [
        ImagePlan(task.id, task.input_key, task.input_size, task.input_etag)
        for task in tasks_of(session, generation_id)
    ]
    # The account that pays is the one whose credits were held at submit: a guest's
    # generations move to their user's account when they log in (Guests.adopt_work), their
    # holds do not, and the charge and refunds must meet the hold (test_plan_attacks.py).
    hold = session.get(CreditHold, generation_id)
    payer = hold.account_id if hold is not None else generation.account_id
    # The price is the one held and shown at submit (recorded on the generation), not today's:
    # a workflow started late (a lost start, then the sweeper) after a price change would
    # otherwise charge more, or less, than its hold (tests/integration/test_plan_attacks.py).
    return make_plan(
        generation.id, payer, GenerationKind(generation.service),
        generation.livemode,
        model, background, tasks, recorded_cost=generation.credits,
    )
