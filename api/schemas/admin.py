"""Bodies of the operators' generation and showcase routes (api/routers/admin.py)."""

from __future__ import annotations

from api.schemas.common import Schema, ServiceView


class CurateBody(Schema):
    showcased: bool


class AdminGeneration(Schema):
    generation: ServiceView
    ownerEmail: str | None
    temporalUrl: str
    # The trace of the submit (32 hex digits): `python -m ops.trace {service id}` prints it,
    # a collector's UI (Jaeger) finds it by this id, and log lines carry it.
    traceId: str | None = None
    # Deleted by its owner (ISO time): shown as deleted, with no images (they are gone from
    # storage) and no actions; None while it stands.
    deletedAt: str | None = None


class AdminGenerationList(Schema):
    items: list[AdminGeneration]
