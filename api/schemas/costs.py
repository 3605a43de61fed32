"""Bodies of the credit cost quotes (api/routers/costs.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema
from api.schemas.wire import Service
from api.validation import IdText, KeyText


class CostBody(Schema):
    requestType: Service
    inputFiles: list[KeyText] = Field(min_length=1, max_length=20)
    modelId: IdText | None = None
    backgroundId: IdText | None = None


class Cost(Schema):
    credits: int


class MultiCostBody(Schema):
    entries: list[CostBody] = Field(min_length=1, max_length=50)


class MultiCost(Schema):
    credits: int
    entries: list[Cost]
