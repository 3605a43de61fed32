"""The requests that used to answer 500, on SQLite and on PostgreSQL: each now gets a 4xx with
a message a person understands."""

from __future__ import annotations

import json

import httpx
import pytest

from core.settings import Settings
from tests.support.api_client import Guest
from tests.support.stacks import DatabaseStacks


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def stack(request: pytest.FixtureRequest, database_stacks: DatabaseStacks) -> Settings:
    """The run's stack on SQLite, then on PostgreSQL (tests/integration/conftest.py), whose
    Google user-info endpoint knows no token."""
    return database_stacks.on(request).settings


def assert_refused(response: httpx.Response, status: int = 422) -> None:
    assert response.status_code == status, response.text
    assert response.json()["message"]


@pytest.mark.parametrize(("path", "page"), [
    ("/imageedit/service/all", "pageNumber"),
    ("/imageedit/seed", "pagenum"),
    ("/api/v1/model", "pageNum"),
])
def test_huge_page_numbers(stack: Settings, path: str, page: str) -> None:
    guest = Guest(stack.app_url)
    for value in (10**18, 10**19, 8747655052933021564928):
        assert_refused(guest.get(path, **{page: value}))
    assert guest.get(path, **{page: 2}).status_code == 200


def assert_nul_refused(response: httpx.Response) -> None:
    assert_refused(response)
    assert "NUL character" in response.json()["message"], response.text


def test_nul_characters_anywhere(stack: Settings) -> None:
    """On PostgreSQL each of these was a 500 (a text column cannot hold a NUL); now one rule
    answers 422 for every kind of input: query, path, JSON body, form field, file name."""
    guest = Guest(stack.app_url)
    nul = "a\x00b"
    # Query and path parameters (the ASGI check).
    assert_nul_refused(guest.get("/api/v1/request/presignedUrl", filename=nul,
                                 mimeType="image/jpeg"))
    assert_nul_refused(guest.get("/api/v1/model", category=nul))
    assert_nul_refused(guest.get("/imageedit/service/a%00b"))
    # JSON bodies (the Schema base class): fingerprint, email, keys, ids, names.
    assert_nul_refused(httpx.post(f"{stack.app_url}/imageedit/users/guestlogin",
                                  json={"fingerprintId": nul}))
    assert_nul_refused(httpx.post(f"{stack.app_url}/api/v1/auth/login",
                                  json={"email": f"x{nul}@example.com", "password": "p"}))
    assert_nul_refused(guest.post("/api/v1/util/createThumbnail", json={"key": nul}))
    assert_nul_refused(guest.post("/imageedit/service/updateguestemail",
                                  json={"email": "a@b.co", "serviceId": nul}))
    assert_nul_refused(httpx.post(f"{stack.app_url}/api/v1/contact", json={
        "name": nul, "email": "a@b.co", "message": "hi"}))
    assert_nul_refused(guest.post("/api/v1/request/costPublic", json={
        "requestType": "bodySwap", "inputFiles": ["k"], "modelId": nul}))
    # Form fields and uploaded file names (the app-wide form check).
    assert_nul_refused(guest.submit("bodySwap", ["k"], modelId=nul))
    assert_nul_refused(guest.submit("burstreplace", [nul], backgroundId="white"))
    # A file name with a raw NUL (httpx would send it as %00), in a hand-made form.
    form = (b"--b\r\nContent-Disposition: form-data; name=\"backgroundId\"\r\n\r\nwhite\r\n"
            b"--b\r\nContent-Disposition: form-data; name=\"inputFiles\"; filename=\"x\x00.jpg\""
            b"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\r\n--b--\r\n")
    assert_nul_refused(guest.post("/imageedit/service/burstreplace", content=form,
                                  headers={"Content-Type": "multipart/form-data; boundary=b"}))
    # Task ids arrive as JSON inside the query string ("\u0000" escapes, not %00).
    assert_refused(guest.poll([nul]))
    assert guest.credits() == guest.start_credits


def test_deeply_nested_task_ids(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    nested = "[" * 5000 + "]" * 5000
    assert_refused(guest.get("/api/v1/task/pollTasks", taskIds=nested))
    assert_refused(guest.get("/api/v1/task/pollTasks", taskIds=json.dumps([["x"]])))


def test_non_ascii_google_token(stack: Settings) -> None:
    """The token goes into an HTTP header to Google: non-ASCII was a UnicodeEncodeError (500),
    and a control character must not reach a header either."""
    for token in ("tökén-ÿ", "日本語", "ok\r\nX-Injected: 1", "tab\there"):
        answer = httpx.post(f"{stack.app_url}/api/v1/auth/externalLogin", json={
            "accessToken": token, "email": "", "name": ""})
        assert_refused(answer, 400)
        assert "Google did not accept" in answer.json()["message"]


def test_empty_uploads(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    target = guest.get("/api/v1/request/presignedUrl", filename="e.jpg",
                       mimeType="image/jpeg").json()["data"]
    put = httpx.put(target["url"], content=b"", headers={"Content-Type": "image/jpeg"})
    assert put.status_code == 200, put.text
    assert_refused(guest.post("/api/v1/util/createThumbnail", json={"key": target["key"]}))
    assert_refused(guest.submit("burstreplace", [target["key"]], backgroundId="white"))
    files = {"inputFiles": ("e.jpg", b"", "image/jpeg")}
    assert_refused(guest.post("/imageedit/service/burstreplace",
                              data={"backgroundId": "white"}, files=files))
    assert guest.credits() == guest.start_credits

