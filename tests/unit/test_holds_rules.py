"""Pure rules behind holds, idempotency keys and the sweeper of generations never started."""

from __future__ import annotations

from datetime import timedelta

from core.credits import Balance
from core.enums import GenerationKind
from core.generations.submit import GenerationSubmission, NewFile, request_hash
from core.generations.sweep import Stuck, SweepAction, sweep_action


def request(**changes: object) -> GenerationSubmission:
    fields: dict[str, object] = {
        "service": GenerationKind.BURST_REPLACE, "model_id": None, "background_id": "white",
        "inputs": ["upload-1"], "idempotency_key": "k", "distributor_id": "metamodel",
        "fingerprint": "f",
    }
    fields.update(changes)
    return GenerationSubmission(**fields)  # type: ignore[arg-type]


def test_the_request_hash_covers_what_was_asked_and_nothing_else() -> None:
    first = request_hash(request())
    # Who asks and under which key do not change what was asked.
    assert request_hash(request(idempotency_key="other", fingerprint="g")) == first
    for different in (
        request(service=GenerationKind.BODY_SWAP, model_id="model-1"),
        request(background_id="transparent"),
        request(inputs=["upload-2"]),
        request(inputs=["upload-1", "upload-1"]),
        request(inputs=[NewFile("a.jpg", "image/jpeg", b"1")]),
    ):
        assert request_hash(different) != first
    # Fields are delimited: moving text from one field to the next is another request.
    assert request_hash(request(background_id="ab", inputs=["c"])) != request_hash(
        request(background_id="a", inputs=["bc"]))
    # A file sent in the submit itself counts by its bytes, not its name.
    assert request_hash(request(inputs=[NewFile("a.jpg", "image/jpeg", b"1")])) == request_hash(
        request(inputs=[NewFile("b.jpg", "image/jpeg", b"1")]))


def test_what_can_be_spent_is_the_balance_less_what_is_reserved() -> None:
    balance = Balance(free=3, paid=4, held=5)
    assert (balance.total, balance.available) == (7, 2)


def test_the_sweeper_starts_late_but_not_too_late_and_never_under_a_running_workflow() -> None:
    limit = timedelta(hours=1)
    young, old = Stuck("g", timedelta(minutes=2)), Stuck("g", timedelta(hours=2))
    assert sweep_action(young, workflow_exists=False, give_up_after=limit) == SweepAction.START
    assert sweep_action(old, workflow_exists=False, give_up_after=limit) == SweepAction.GIVE_UP
    assert sweep_action(old, workflow_exists=True, give_up_after=limit) == SweepAction.RECORD
    assert sweep_action(young, workflow_exists=True, give_up_after=limit) == SweepAction.RECORD
