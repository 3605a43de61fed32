"""The public API's model list (issue 33 item 9): the digital models a shop's program can swap
to, and given its uploads, which of them a model swap of those photos can use, before anything
is charged (core/catalog/fit.py; the same rule refuses the submit, and the engine's gate)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import ModelFitsDep, PublicPrincipal, StorageDep
from api.schemas.common import Envelope
from api.schemas.public import ModelList, PublicModel
from api.validation import PageNumber
from core.catalog.fit import ModelFit
from core.models.catalog import CatalogItem
from core.storage import Storage

router = APIRouter(prefix="/api/v1", tags=["public api"])

Uploads = Annotated[list[Annotated[str, Query(min_length=1, max_length=512)]], Query()]


@router.get("/models", response_model=Envelope[ModelList],
            responses={401: {}, 404: {}, 422: {}, 429: {}})
def list_models(
    fits: ModelFitsDep,
    storage: StorageDep,
    principal: PublicPrincipal,
    upload: Uploads = [],  # noqa: B006 (FastAPI copies a default list per request)
    pageNum: PageNumber = 1,
    pageSize: Annotated[int, Query(ge=1, le=100)] = 100,
) -> Envelope[ModelList]:
    """The published digital models, a page at a time. Given `upload` (one or more of your
    uploads' ids or keys, repeated: `?upload=a&upload=b`, at most 20), each model says whether
    a model swap of those photos can use it: `compatible` true; false with the `reason` (a
    photo a model swap cannot use at all, or a skin tone too far from the model's for an even
    result) and `incompatibleUploads`; or null while not known yet (a photo still being
    analysed, or the model still being measured: ask again in a few seconds). A model that
    is not compatible is refused by POST /api/v1/generations with the same reason, before any
    charge. An upload that is not yours answers 404."""
    found = fits.offered(principal.account_id, upload, pageNum, pageSize)
    items = [_model(storage, item, found.fits.get(item.id)) for item in found.page.items]
    return Envelope(data=ModelList(items=items, total=found.page.total, pageNum=pageNum,
                                   pageSize=pageSize))


def _model(storage: Storage, item: CatalogItem, fit: ModelFit | None) -> PublicModel:
    return PublicModel(
        id=item.id, name=item.name, category=item.category, description=item.description,
        gender=item.gender, skinTone=item.skin_tone, bodyType=item.body_type,
        url=storage.presigned_get(item.key), thumbnailUrl=storage.presigned_get(item.thumbnail_key),
        compatible=None if fit is None else fit.compatible,
        reason=None if fit is None else fit.reason,
        incompatibleUploads=[] if fit is None else list(fit.unfit),
    )
