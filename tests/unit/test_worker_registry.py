"""The worker registers what the activities and workflows packages define (issue 20): every
activity method of every class under activities/ is served on exactly one queue, every workflow
class under workflows/ is registered, and nothing is registered twice. A module that forgot its
REGISTRATION or WORKFLOWS would fail here, not in production with an activity nobody polls."""

from __future__ import annotations

import inspect
from collections import Counter

from temporalio import activity, workflow

import activities
import workflows
from activities.registry import Queue, WorkerDeps
from core.settings import Settings
from ops.worker import _modules, registered_workflows, registrations


def _activity_names_defined() -> set[str]:
    names = set()
    for module in _modules(activities):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for _, fn in inspect.getmembers(cls, inspect.isfunction):
                definition = activity._Definition.from_callable(fn)
                if definition is not None and definition.name:
                    names.add(definition.name)
    return names


def _activity_names_registered() -> Counter[str]:
    # Built without a database or storage: building binds methods, it connects to nothing.
    deps = WorkerDeps(sessions=None, storage=None, settings=Settings(), engine=object())  # type: ignore[arg-type]
    names: Counter[str] = Counter()
    for queue in Queue:
        for registration in registrations():
            if registration.queue != queue:
                continue
            for fn in registration.build(deps):
                definition = activity._Definition.from_callable(fn)
                assert definition is not None and definition.name, fn
                names[definition.name] += 1
    return names


def test_every_activity_is_registered_once() -> None:
    defined = _activity_names_defined()
    registered = _activity_names_registered()
    assert len(defined) >= 20
    assert set(registered) == defined
    assert max(registered.values()) == 1


def test_every_workflow_is_registered_once() -> None:
    defined = {
        cls
        for module in _modules(workflows)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and workflow._Definition.from_class(cls) is not None
    }
    registered = registered_workflows()
    assert len(defined) >= 10
    assert set(registered) == defined
    assert len(registered) == len(set(registered))


def test_the_engine_work_runs_on_the_imaging_queue() -> None:
    imaging = {
        activity._Definition.must_from_callable(fn).name
        for registration in registrations()
        if registration.queue == Queue.IMAGING
        for fn in registration.build(
            WorkerDeps(sessions=None, storage=None, settings=Settings(), engine=object())  # type: ignore[arg-type]
        )
    }
    assert imaging == {"run_imaging", "count_people_in_photo", "analyse_uploaded_photo",
                       "measure_catalog_model_tones"}
