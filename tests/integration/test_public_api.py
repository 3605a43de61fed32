"""The public API (issue 23, first step) against the running stack: account API keys (created,
used, revoked, hashed, accepted on the public routes only, rate limited per account) and the
versioned generations resource through them (the same submit, hold, workflow and engine as the
web app)."""

from __future__ import annotations

import io
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image
from sqlalchemy import select

from core.db import SessionFactory
from core.models.accounts import ApiKey, LedgerEntry
from core.settings import Settings
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack

LIMIT = 40  # public-route requests per minute per account on this stack


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("public-api"),
                       api_key_requests_per_minute=LIMIT) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(running: Stack) -> Settings:
    return running.settings


def new_user(api: httpx.Client, db: SessionFactory) -> dict[str, str]:
    token = sign_up(api, db, f"shop-{uuid.uuid4().hex[:8]}@example.com")
    return {"Authorization": f"Bearer {token}"}


def new_key(api: httpx.Client, session: dict[str, str], name: str = "catalog sync") -> str:
    made = api.post("/api/v1/api-keys", json={"name": name}, headers=session)
    assert made.status_code == 201, made.text
    secret: str = made.json()["data"]["secret"]
    return secret


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def upload(api: httpx.Client, secret: str, index: int = 0) -> str:
    photo = fixture_images("people")[index]
    sent = api.post("/api/v1/uploads", headers=bearer(secret),
                    files={"file": (photo.name, photo.read_bytes(), "image/jpeg")})
    assert sent.status_code == 201, sent.text
    key: str = sent.json()["data"]["key"]
    return key


def balance(api: httpx.Client, session: dict[str, str]) -> int:
    answer = api.get("/api/v1/user/creditsAvailable", headers=session)
    assert answer.status_code == 200, answer.text
    value: int = answer.json()["data"]["creditsAvailable"]["total"]
    return value


def wait_done(api: httpx.Client, secret: str, generation_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        got = api.get(f"/api/v1/generations/{generation_id}", headers=bearer(secret))
        if got.status_code == 429:  # the account's limit: wait as its program would
            time.sleep(int(got.headers["Retry-After"]))
            continue
        assert got.status_code == 200, got.text
        data: dict[str, Any] = got.json()["data"]
        if data["status"] in ("completed", "failed") and data["completedAt"]:
            return data
        time.sleep(0.3)
    raise TimeoutError(generation_id)


def test_the_key_lifecycle(api: httpx.Client, db: SessionFactory) -> None:
    session = new_user(api, db)
    made = api.post("/api/v1/api-keys", json={"name": "  catalog sync "}, headers=session)
    assert made.status_code == 201, made.text
    key = made.json()["data"]
    secret = key["secret"]
    assert secret.startswith("mm_live_") and len(secret) >= 40
    assert key["name"] == "catalog sync" and key["mode"] == "live"
    assert secret.startswith(key["prefix"]) and secret.endswith(key["last4"])
    # Only a hash is kept.
    with db() as s:
        row = s.execute(select(ApiKey).where(ApiKey.id == key["id"])).scalar_one()
        assert secret not in (row.secret_hash, row.prefix, row.name) and len(row.secret_hash) == 64
    listed = api.get("/api/v1/api-keys", headers=session).json()["data"]
    assert [k["id"] for k in listed] == [key["id"]] and "secret" not in listed[0]
    assert listed[0]["lastUsedAt"] is None

    used = api.get("/api/v1/generations", headers=bearer(secret))
    assert used.status_code == 200, used.text
    assert used.json()["data"] == {"items": [], "hasMore": False, "nextCursor": None}
    assert used.headers["RateLimit-Limit"] == str(LIMIT)
    assert int(used.headers["RateLimit-Remaining"]) == LIMIT - 1
    assert api.get("/api/v1/api-keys", headers=session).json()["data"][0]["lastUsedAt"]

    # Keys work on the public routes only: not as a session anywhere else.
    for path in ("/api/v1/api-keys", "/imageedit/service/all", "/api/v1/user/userInfo"):
        assert api.get(path, headers=bearer(secret)).status_code == 401, path

    revoked = api.delete(f"/api/v1/api-keys/{key['id']}", headers=session)
    assert revoked.status_code == 200
    refused = api.get("/api/v1/generations", headers=bearer(secret))
    assert refused.status_code == 401 and "not valid" in refused.json()["message"]
    assert api.get("/api/v1/api-keys", headers=session).json()["data"] == []
    assert api.delete(f"/api/v1/api-keys/{key['id']}", headers=session).status_code == 404
    # A made-up key of the right shape.
    assert api.get("/api/v1/generations",
                   headers=bearer("mm_live_" + "x" * 32)).status_code == 401


def test_keys_are_for_signed_in_users_only(api: httpx.Client, db: SessionFactory) -> None:
    guest = api.post("/imageedit/users/guestlogin",
                     json={"fingerprintId": uuid.uuid4().hex}).json()
    token = guest["data"]["token"]
    refused = api.post("/api/v1/api-keys", json={"name": "x"},
                       headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401
    session = new_user(api, db)
    assert api.post("/api/v1/api-keys", json={"name": ""}, headers=session).status_code == 422
    # Another user cannot revoke (or even see) someone else's key.
    secret_owner = new_user(api, db)
    new_key(api, secret_owner)
    theirs = api.get("/api/v1/api-keys", headers=secret_owner).json()["data"][0]["id"]
    assert api.delete(f"/api/v1/api-keys/{theirs}", headers=session).status_code == 404
    assert api.get("/api/v1/api-keys", headers=secret_owner).json()["data"][0]["id"] == theirs


def test_a_generation_through_a_key(api: httpx.Client, db: SessionFactory) -> None:
    session = new_user(api, db)
    secret = new_key(api, session)
    before = balance(api, session)
    key = upload(api, secret)
    body = {"service": "burstreplace", "inputs": [key], "backgroundId": "white",
            "metadata": {"sku": "TEE-042", "batch": "autumn"}}
    headers = {**bearer(secret), "Idempotency-Key": f"sku-{uuid.uuid4().hex}"}
    made = api.post("/api/v1/generations", json=body, headers=headers)
    assert made.status_code == 201, made.text
    generation = made.json()["data"]
    assert generation["object"] == "generation" and generation["service"] == "burstreplace"
    assert generation["metadata"] == body["metadata"]
    assert generation["status"] in ("queued", "running")
    again = api.post("/api/v1/generations", json=body, headers=headers)
    assert again.status_code == 201 and again.json()["data"]["id"] == generation["id"]

    done = wait_done(api, secret, generation["id"])
    assert done["status"] == "completed", done
    assert done["credits"] == {"charged": 1, "refunded": 0}  # once, for both requests
    (image,) = done["images"]
    assert image["status"] == "completed" and image["progress"] == 100
    output = httpx.get(image["outputs"][0]["url"])
    assert output.status_code == 200 and output.content[:3] == b"\xff\xd8\xff"
    assert balance(api, session) == before - 1

    # Listed, filtered, paged.
    second = api.post("/api/v1/generations", headers=bearer(secret), json={
        "service": "burstreplace", "inputs": [upload(api, secret, 1)], "backgroundId": "white"})
    assert second.status_code == 201, second.text
    first_page = api.get("/api/v1/generations", params={"limit": 1}, headers=bearer(secret))
    page = first_page.json()["data"]
    assert [g["id"] for g in page["items"]] == [second.json()["data"]["id"]]
    assert page["hasMore"] and page["nextCursor"]
    rest = api.get("/api/v1/generations", params={"limit": 1, "starting_after": page["nextCursor"]},
                   headers=bearer(secret)).json()["data"]
    assert [g["id"] for g in rest["items"]] == [generation["id"]] and not rest["hasMore"]
    completed = api.get("/api/v1/generations", params={"status": "completed"},
                        headers=bearer(secret)).json()["data"]["items"]
    assert generation["id"] in [g["id"] for g in completed]
    assert api.get("/api/v1/generations", params={"starting_after": "nonsense!"},
                   headers=bearer(secret)).status_code == 422

    wait_done(api, secret, second.json()["data"]["id"])
    deleted = api.delete(f"/api/v1/generations/{generation['id']}", headers=bearer(secret))
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["data"]["deleted"] is True
    assert deleted.json()["data"]["images"][0]["outputs"] == []
    assert deleted.json()["data"]["credits"] == {"charged": 1, "refunded": 0}
    gone = api.get(f"/api/v1/generations/{generation['id']}", headers=bearer(secret))
    assert gone.status_code == 404
    listed = api.get("/api/v1/generations", headers=bearer(secret)).json()["data"]["items"]
    assert generation["id"] not in [g["id"] for g in listed]


def test_another_accounts_generation_is_not_found(api: httpx.Client, db: SessionFactory) -> None:
    owner = new_key(api, new_user(api, db))
    made = api.post("/api/v1/generations", headers=bearer(owner), json={
        "service": "burstreplace", "inputs": [upload(api, owner)], "backgroundId": "white"})
    assert made.status_code == 201, made.text
    generation_id = made.json()["data"]["id"]
    other = new_key(api, new_user(api, db))
    assert api.get(f"/api/v1/generations/{generation_id}", headers=bearer(other)).status_code == 404
    assert api.delete(f"/api/v1/generations/{generation_id}",
                      headers=bearer(other)).status_code == 404
    assert api.get("/api/v1/generations", headers=bearer(other)).json()["data"]["items"] == []
    # Nor can another account's upload be used as an input.
    stolen = api.post("/api/v1/generations", headers=bearer(other), json={
        "service": "burstreplace", "inputs": [made.json()["data"]["images"][0]["inputKey"]],
        "backgroundId": "white"})
    assert stolen.status_code == 422 and "not one of your uploads" in stolen.json()["message"]
    wait_done(api, owner, generation_id)


def accepted_before_429(api: httpx.Client, credentials: list[dict[str, str]],
                        requests: int) -> tuple[int, httpx.Response]:
    """Send `requests` GETs on a public route, taking the credentials in turn; how many were
    answered before the first 429, and that 429."""
    for sent in range(requests):
        answer = api.get("/api/v1/generations", headers=credentials[sent % len(credentials)])
        if answer.status_code == 429:
            return sent, answer
        assert answer.status_code == 200, answer.text
    raise AssertionError(f"{requests} requests and no 429")


def test_the_rate_limit_is_the_accounts_across_all_its_keys(
        api: httpx.Client, db: SessionFactory) -> None:
    """Issue 33 item 5: 20 keys gave 20 x the limit, and a revoked key's successor a fresh
    count. The limit is the account's, whichever key (or session) spends it."""
    session = new_user(api, db)
    keys = [new_key(api, session, f"worker {n}") for n in range(20)]
    accepted, limited = accepted_before_429(api, [bearer(k) for k in keys], 20 * LIMIT)
    print(f"\n20 keys of one account: {accepted} requests accepted before the first 429 "
          f"(limit {LIMIT} a minute per account)")
    assert accepted == LIMIT
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert limited.headers["RateLimit-Limit"] == str(LIMIT)
    assert limited.headers["RateLimit-Remaining"] == "0"
    assert "Rate limit reached" in limited.json()["message"]
    assert "this account" in limited.json()["message"]
    # Every key, and the account's own session, has spent the same budget.
    for credentials in (bearer(keys[0]), bearer(keys[-1]), session):
        assert api.get("/api/v1/generations", headers=credentials).status_code == 429
    # Revoking a key and making another gives no fresh count; and making keys is limited.
    listed = api.get("/api/v1/api-keys", headers=session).json()["data"]
    assert api.delete(f"/api/v1/api-keys/{listed[0]['id']}", headers=session).status_code == 200
    again = api.post("/api/v1/api-keys", json={"name": "fresh count?"}, headers=session)
    assert again.status_code == 429, again.text
    assert "20 API keys in the last hour" in again.json()["message"]
    assert 1 <= int(again.headers["Retry-After"]) <= 3600
    # Another account's limit is untouched.
    other = new_key(api, new_user(api, db))
    assert api.get("/api/v1/generations", headers=bearer(other)).status_code == 200


def test_twenty_keys_at_once_get_the_accounts_limit_exactly(
        api: httpx.Client, db: SessionFactory) -> None:
    """The same with the 20 keys sending together: counted and checked at once, so the
    account's limit is not overrun by requests racing through different keys."""
    session = new_user(api, db)
    keys = [new_key(api, session, f"worker {n}") for n in range(20)]

    def burst(secret: str) -> list[int]:
        return [api.get("/api/v1/generations", headers=bearer(secret)).status_code
                for _ in range(3)]

    with ThreadPoolExecutor(20) as pool:
        statuses = Counter(code for codes in pool.map(burst, keys) for code in codes)
    print(f"\n20 keys at once, 60 requests: {dict(statuses)}")
    assert statuses == {200: LIMIT, 429: 60 - LIMIT}


def test_sessions_and_guests_are_limited_with_headers(
        api: httpx.Client, db: SessionFactory) -> None:
    """Issue 33 item 5: a session or guest token on the public routes was never limited and got
    no RateLimit-* headers, submitting generations included."""
    session = new_user(api, db)
    guest = {"Authorization": "Bearer " + api.post(
        "/imageedit/users/guestlogin", json={"fingerprintId": uuid.uuid4().hex}
    ).json()["data"]["token"]}
    for credentials in (session, guest):
        first = api.get("/api/v1/generations", headers=credentials)
        assert first.status_code == 200, first.text
        assert first.headers["RateLimit-Limit"] == str(LIMIT)
        assert int(first.headers["RateLimit-Remaining"]) == LIMIT - 1
        assert 1 <= int(first.headers["RateLimit-Reset"]) <= 60
        accepted, limited = accepted_before_429(api, [credentials], 3 * LIMIT)
        assert accepted == LIMIT - 1, accepted
        assert limited.headers["RateLimit-Remaining"] == "0" and limited.headers["Retry-After"]
        # Submitting a generation is refused the same way (before anything is checked or held).
        submit = api.post("/api/v1/generations", headers=credentials, json={
            "service": "burstreplace", "inputs": ["uploads/none.jpg"], "backgroundId": "white"})
        assert submit.status_code == 429, submit.text
    # The session's account and the key's are the same account: a new key finds it spent.
    key = new_key(api, session)
    assert api.get("/api/v1/generations", headers=bearer(key)).status_code == 429


def test_bad_requests_get_clear_errors(api: httpx.Client, db: SessionFactory) -> None:
    secret = new_key(api, new_user(api, db))
    cases: list[tuple[dict[str, Any], str]] = [
        ({"service": "burstreplace", "inputs": [], "backgroundId": "white"}, "inputs"),
        ({"service": "bodySwap", "inputs": ["x"]}, ""),
        ({"service": "burstreplace", "inputs": ["x"], "backgroundId": "white",
          "metadata": {f"k{i}": "v" for i in range(21)}}, "metadata"),
        ({"service": "paint", "inputs": ["x"]}, "service"),
    ]
    for body, word in cases:
        answer = api.post("/api/v1/generations", json=body, headers=bearer(secret))
        assert answer.status_code == 422, (body, answer.text)
        assert word in answer.json()["message"]
    not_image = api.post("/api/v1/uploads", headers=bearer(secret),
                         files={"file": ("a.jpg", b"GIF89a not really", "image/jpeg")})
    assert not_image.status_code == 422, not_image.text
    nothing = api.post("/api/v1/uploads", headers=bearer(secret), data={"filename": "a.jpg"})
    assert nothing.status_code == 422 and "file" in nothing.json()["message"]
    presigned = api.post("/api/v1/uploads", headers=bearer(secret),
                         data={"filename": "a.jpg", "mimeType": "image/jpeg", "size": "1000"})
    assert presigned.status_code == 201 and presigned.json()["data"]["uploadUrl"]


def test_a_test_key_charges_nothing_and_watermarks(api: httpx.Client, db: SessionFactory) -> None:
    session = new_user(api, db)
    made = api.post("/api/v1/api-keys", json={"name": "sandbox", "mode": "test"},
                    headers=session)
    assert made.status_code == 201, made.text
    test_secret = made.json()["data"]["secret"]
    assert test_secret.startswith("mm_test_") and made.json()["data"]["mode"] == "test"
    live_secret = new_key(api, session)
    before = balance(api, session)

    def run(secret: str) -> dict[str, Any]:
        made = api.post("/api/v1/generations", headers=bearer(secret), json={
            "service": "burstreplace", "inputs": [upload(api, secret, 2)],
            "backgroundId": "white"})
        assert made.status_code == 201, made.text
        return wait_done(api, secret, made.json()["data"]["id"])

    test_run = run(test_secret)
    assert test_run["status"] == "completed" and test_run["livemode"] is False
    assert test_run["credits"] == {"charged": 0, "refunded": 0}
    assert balance(api, session) == before  # the balance was never touched
    with db() as s:
        entries = s.execute(select(LedgerEntry).where(
            LedgerEntry.reference == test_run["id"])).scalars().all()
        assert entries == []

    live_run = run(live_secret)
    assert live_run["livemode"] is True and balance(api, session) == before - 1
    # The same photo on the same background: the test output is the live one under a
    # visible watermark (large changes over a fair share of the image, not everywhere).
    marked, clean = (image_of(r["images"][0]["outputs"][0]["url"]) for r in (test_run, live_run))
    assert marked.shape == clean.shape
    changed = (np.abs(marked.astype(int) - clean.astype(int)).max(axis=2) > 40).mean()
    assert 0.01 < changed < 0.5, changed

    # Each mode sees its own generations only; the web app sees the live ones.
    assert api.get(f"/api/v1/generations/{test_run['id']}",
                   headers=bearer(live_secret)).status_code == 404
    assert api.get(f"/api/v1/generations/{live_run['id']}",
                   headers=bearer(test_secret)).status_code == 404
    listed = api.get("/api/v1/generations", headers=bearer(test_secret)).json()["data"]["items"]
    assert [g["id"] for g in listed] == [test_run["id"]]
    web = api.get("/imageedit/service/all", headers=session).json()["data"]["items"]
    ids = [item["serviceId"] for item in web]
    assert test_run["id"] not in ids and live_run["id"] in ids


def image_of(url: str) -> Any:
    response = httpx.get(url)
    assert response.status_code == 200
    return np.asarray(Image.open(io.BytesIO(response.content)).convert("RGB"))


def test_the_documentation_page_is_served_beside_the_apis_own(api: httpx.Client) -> None:
    """/docs/api is the web app's page (built by `make test` first); FastAPI's /docs stays, and
    other paths under /docs are still API 404s."""
    page = api.get("/docs/api")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'id="root"' in page.text
    assert "swagger" in api.get("/docs").text.lower()
    missing = api.get("/docs/nothing")
    assert missing.status_code == 404 and missing.json()["message"] == "No such API route."
