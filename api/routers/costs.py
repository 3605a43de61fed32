"""What a generation would cost, before submitting."""

from __future__ import annotations

from fastapi import APIRouter

from api.schemas.common import Envelope
from api.schemas.costs import Cost, CostBody, MultiCost, MultiCostBody
from core.generations.prices import generation_cost

router = APIRouter(prefix="/api/v1/request", tags=["costs"])


@router.post("/costPublic", response_model=Envelope[Cost])
def cost_public(body: CostBody) -> Envelope[Cost]:
    return Envelope(data=Cost(credits=generation_cost(body.requestType, len(body.inputFiles))))


@router.post("/multiCostCalcPublic", response_model=Envelope[MultiCost])
def multi_cost(body: MultiCostBody) -> Envelope[MultiCost]:
    entries = [
        Cost(credits=generation_cost(entry.requestType, len(entry.inputFiles)))
        for entry in body.entries
    ]
    return Envelope(data=MultiCost(credits=sum(e.credits for e in entries), entries=entries))
