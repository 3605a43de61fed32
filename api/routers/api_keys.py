"""The signed-in user's API keys (User Setting → API keys): create (the secret is shown once),
list, revoke."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from api.deps import ApiKeysDep, CurrentUser
from api.schemas.common import Envelope, Ok
from api.schemas.public import ApiKeyView, CreatedApiKey, NewApiKeyBody
from core.models.accounts import ApiKey

router = APIRouter(prefix="/api/v1/api-keys", tags=["api keys"])


def key_view(key: ApiKey) -> ApiKeyView:
    return ApiKeyView(
        id=key.id, name=key.name, mode=key.mode, prefix=key.prefix, last4=key.last4,
        createdAt=key.created_at.isoformat(),
        lastUsedAt=key.last_used_at.isoformat() if key.last_used_at else None,
    )


@router.post("", response_model=Envelope[CreatedApiKey], status_code=201,
             responses={401: {}, 422: {}, 429: {}})
def create_key(api_keys: ApiKeysDep, user: CurrentUser,
               body: NewApiKeyBody) -> Envelope[CreatedApiKey]:
    """A new key for the caller's account. `secret` is in this answer only: store it now.
    At most 20 new keys an hour per account (429 beyond)."""
    made = api_keys.create(user, body.name, body.mode)
    view = key_view(made.key)
    return Envelope(data=CreatedApiKey(**view.model_dump(), secret=made.secret))


@router.get("", response_model=Envelope[list[ApiKeyView]], responses={401: {}})
def list_keys(api_keys: ApiKeysDep, user: CurrentUser) -> Envelope[list[ApiKeyView]]:
    """The keys that work now, newest first (never their secrets)."""
    return Envelope(data=[key_view(key) for key in api_keys.list(user)])


@router.delete("/{key_id}", response_model=Envelope[Ok], responses={401: {}, 404: {}})
def revoke_key(api_keys: ApiKeysDep, user: CurrentUser,
               key_id: Annotated[str, Path(max_length=32)]) -> Envelope[Ok]:
    """Revoke the key for good: requests with it answer 401 from now on."""
    api_keys.revoke(user, key_id)
    return Envelope(data=Ok(ok=True))
