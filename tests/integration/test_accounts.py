"""Accounts over HTTP against the running stack, with mail read from a real local SMTP server
and Google's user-info endpoint played by a local server speaking its protocol."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from core.db import make_database, make_session_factory
from core.models.accounts import LedgerEntry, OneTimeCode
from core.models.base import utcnow
from core.settings import Settings
from ops.stack import Stack, private_settings
from tests.support.api_client import Guest
from tests.support.local_services import MailSink, UserInfoServer
from tests.support.paths import FIXTURES, fixture_images

PASSWORD = "correct-horse-42"


@pytest.fixture(scope="module")
def mailbox() -> Iterator[MailSink]:
    sink = MailSink().start()
    yield sink
    sink.stop()


@pytest.fixture(scope="module")
def google() -> Iterator[UserInfoServer]:
    server = UserInfoServer({
        "good-token": {"sub": "1", "email": "Google.User@Example.com", "email_verified": True,
                       "name": "Google User"},
        "unverified-token": {"sub": "2", "email": "nope@example.com", "email_verified": False},
    }).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, mailbox: MailSink,
          google: UserInfoServer) -> Iterator[Settings]:
    settings = private_settings(tmp_path_factory.mktemp("accounts"))
    env = {"FIXTURES_DIR": str(FIXTURES), "SMTP_HOST": "127.0.0.1",
           "SMTP_PORT": str(mailbox.port), "GOOGLE_USERINFO_URL": google.url}
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env=env) as running:
        running.start()
        yield settings


@pytest.fixture
def api(stack: Settings) -> httpx.Client:
    return httpx.Client(base_url=stack.app_url, timeout=30)


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}@example.com"


def signup(api: httpx.Client, mailbox: MailSink, email: str, fingerprint: str | None = None,
           name: str = "Ann") -> dict[str, Any]:
    headers = {"x-fingerprint-id": fingerprint} if fingerprint else {}
    sent = api.post("/api/v1/auth/generateSignupOTP", json={"email": email})
    assert sent.status_code == 200, sent.text
    code = mailbox.latest_code(email.lower())
    assert api.post("/api/v1/auth/verifySignupOTP",
                    json={"email": email, "otp": code}).status_code == 200
    created = api.post("/api/v1/auth/signup", headers=headers, json={
        "email": email, "otp": code, "name": name, "password": PASSWORD})
    assert created.status_code == 200, created.text
    data: dict[str, Any] = created.json()["data"]
    data["refresh"] = created.cookies.get("mm_refresh")
    return data


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def credits_of(api: httpx.Client, token: str) -> dict[str, int]:
    response = api.get("/api/v1/user/creditsAvailable", headers=bearer(token))
    assert response.status_code == 200, response.text
    result: dict[str, int] = response.json()["data"]["creditsAvailable"]
    return result


def db(stack: Settings) -> Any:
    return make_session_factory(make_database(stack.resolved_database_url))


def test_signup_with_mailed_code_grants_ten_credits_once(
    api: httpx.Client, mailbox: MailSink, stack: Settings
) -> None:
    email = unique_email()
    data = signup(api, mailbox, email)
    assert data["user"]["userEmail"] == email and data["user"]["userName"] == "Ann"
    assert credits_of(api, data["token"]) == {"free": 10, "paid": 0, "total": 10, "held": 0}
    info = api.get("/api/v1/user/userInfo", headers=bearer(data["token"])).json()["data"]
    assert info["userEmail"] == email
    assert api.get("/imageedit/users/getCredits", headers=bearer(data["token"])).json() == {
        "data": {"free": 10, "paid": 0, "total": 10, "held": 0}}
    # The mail really went out over SMTP and the code is not stored in the clear.
    (message,) = mailbox.to(email)
    code = mailbox.latest_code(email)
    assert code in message.get_payload() and "10 minutes" in message.get_payload()
    with db(stack)() as session:
        stored = session.execute(select(OneTimeCode).where(OneTimeCode.email == email)).scalar_one()
        assert code not in stored.code_hash and stored.used_at is not None
        grants = session.execute(select(LedgerEntry).where(
            LedgerEntry.idempotency_key == f"signup-grant:{email}")).scalars().all()
        assert len(grants) == 1


def test_duplicate_and_mixed_case_email(api: httpx.Client, mailbox: MailSink) -> None:
    email = unique_email("Mixed.Case")
    signup(api, mailbox, email)
    again = api.post("/api/v1/auth/generateSignupOTP", json={"email": email.upper()})
    assert again.status_code == 400 and "already exists" in again.json()["message"]
    login = api.post("/api/v1/auth/login", json={"email": email.upper(), "password": PASSWORD})
    assert login.status_code == 200 and login.json()["data"]["user"]["userEmail"] == email.lower()
    alias = api.post("/imageedit/users/loginv2", json={"email": email, "password": PASSWORD})
    assert alias.status_code == 200


def test_wrong_expired_used_up_and_reused_codes(
    api: httpx.Client, mailbox: MailSink, stack: Settings
) -> None:
    email = unique_email()
    api.post("/api/v1/auth/generateSignupOTP", json={"email": email})
    code = mailbox.latest_code(email)
    wrong = "000000" if code != "000000" else "111111"
    bad = api.post("/api/v1/auth/verifySignupOTP", json={"email": email, "otp": wrong})
    assert bad.status_code == 400 and "wrong or has expired" in bad.json()["message"]

    # Expired: move the code's expiry into the past.
    with db(stack).begin() as session:
        session.execute(update(OneTimeCode).where(OneTimeCode.email == email)
                        .values(expires_at=utcnow() - timedelta(seconds=1)))
    expired = api.post("/api/v1/auth/verifySignupOTP", json={"email": email, "otp": code})
    assert expired.status_code == 400

    # Attempts used up: after 5 wrong tries even the right code is refused.
    with db(stack).begin() as session:
        session.execute(update(OneTimeCode).where(OneTimeCode.email == email)
                        .values(expires_at=utcnow() + timedelta(minutes=5),
                                created_at=utcnow() - timedelta(minutes=5)))
    for _ in range(4):
        api.post("/api/v1/auth/verifySignupOTP", json={"email": email, "otp": wrong})
    used_up = api.post("/api/v1/auth/verifySignupOTP", json={"email": email, "otp": code})
    assert used_up.status_code == 400 and "Too many wrong codes" in used_up.json()["message"]

    # Reused: a reset code works once.
    other = unique_email()
    signup(api, mailbox, other)
    api.post("/api/v1/auth/generateResetPasswordOTP", json={"email": other})
    reset_code = mailbox.latest_code(other)
    body = {"email": other, "otp": reset_code, "password": "new-password-1"}
    assert api.post("/api/v1/auth/resetPassword", json=body).status_code == 200
    reused = api.post("/api/v1/auth/resetPassword", json={**body, "password": "new-password-2"})
    assert reused.status_code == 400


def test_resend_is_throttled(api: httpx.Client, mailbox: MailSink) -> None:
    email = unique_email()
    assert api.post("/api/v1/auth/generateSignupOTP", json={"email": email}).status_code == 200
    again = api.post("/api/v1/auth/generateSignupOTP", json={"email": email})
    assert again.status_code == 429 and "ask again in" in again.json()["message"]
    assert len(mailbox.to(email)) == 1


def test_login_rate_limit_and_wrong_password(api: httpx.Client, mailbox: MailSink) -> None:
    email = unique_email()
    signup(api, mailbox, email)
    for _ in range(10):
        wrong = api.post("/api/v1/auth/login", json={"email": email, "password": "nope-nope"})
        assert wrong.status_code == 400
        assert wrong.json() == {"message": "The email or password is incorrect."}
    limited = api.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert limited.status_code == 429 and "Too many attempts" in limited.json()["message"]
    unknown = api.post("/api/v1/auth/login", json={"email": unique_email(), "password": "x" * 9})
    assert unknown.json() == {"message": "The email or password is incorrect."}


def test_guest_upgrade_keeps_generations_without_double_credits(
    api: httpx.Client, mailbox: MailSink, stack: Settings
) -> None:
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    made = guest.submit("burstreplace", [key], backgroundId="white").json()["data"]
    guest.wait(made["taskIds"])
    assert guest.credits() == 4

    user = signup(api, mailbox, unique_email(), fingerprint=guest.fingerprint)
    assert credits_of(api, user["token"])["total"] == 14  # 4 left as a guest + 10 for signing up
    mine = api.get("/imageedit/service/all", headers=bearer(user["token"])).json()["data"]
    assert [s["serviceId"] for s in mine["items"]] == [made["serviceId"]]
    # The same browser as a guest again: no second helping of free guest credits.
    assert Guest(stack.app_url, fingerprint=guest.fingerprint).credits() == 0

    # An existing user logging in from another guest browser takes that guest's work along.
    second = Guest(stack.app_url)
    key2 = second.upload(fixture_images("people")[0].read_bytes())
    made2 = second.submit("burstreplace", [key2], backgroundId="white").json()["data"]
    second.wait(made2["taskIds"])
    login = api.post("/api/v1/auth/login", headers={"x-fingerprint-id": second.fingerprint},
                     json={"email": user["user"]["userEmail"], "password": PASSWORD})
    token = login.json()["data"]["token"]
    mine = api.get("/imageedit/service/all", headers=bearer(token)).json()["data"]
    assert {s["serviceId"] for s in mine["items"]} == {made["serviceId"], made2["serviceId"]}
    assert credits_of(api, token)["total"] == 14


def test_google_login_trusts_only_googles_email(api: httpx.Client) -> None:
    body = {"email": "attacker@example.com", "name": "X", "distributorId": "metamodel",
            "accessToken": "good-token"}
    first = api.post("/api/v1/auth/externalLogin", json=body)
    assert first.status_code == 200, first.text
    assert first.json()["data"]["user"]["userEmail"] == "google.user@example.com"
    token = first.json()["data"]["token"]
    assert credits_of(api, token)["total"] == 10
    again = api.post("/api/v1/auth/externalLogin", json=body)
    assert again.json()["data"]["user"]["userId"] == first.json()["data"]["user"]["userId"]
    assert credits_of(api, again.json()["data"]["token"])["total"] == 10

    invalid = api.post("/api/v1/auth/externalLogin", json={**body, "accessToken": "forged"})
    assert invalid.status_code == 400 and "Google did not accept" in invalid.json()["message"]
    unverified = api.post("/api/v1/auth/externalLogin",
                          json={**body, "accessToken": "unverified-token"})
    assert unverified.status_code == 400


def test_logout_ends_the_session_and_refresh_renews_it(
    api: httpx.Client, mailbox: MailSink
) -> None:
    user = signup(api, mailbox, unique_email())
    cookie = {"Cookie": f"mm_refresh={user['refresh']}"}
    renewed = api.post("/api/v1/auth/refresh", headers=cookie)
    assert renewed.status_code == 200
    fresh = renewed.json()["data"]["token"]
    assert api.get("/api/v1/user/userInfo", headers=bearer(fresh)).status_code == 200
    assert api.post("/api/v1/auth/refresh").status_code == 401

    assert api.post("/api/v1/auth/logout", headers=bearer(user["token"])).status_code == 200
    for token in (user["token"], fresh):
        refused = api.get("/api/v1/user/userInfo", headers=bearer(token))
        assert refused.status_code == 401
    assert api.post("/api/v1/auth/refresh", headers=cookie).status_code == 401

    # With an expired access token, the refresh cookie alone is enough to log out.
    other = signup(api, mailbox, unique_email())
    other_cookie = {"Cookie": f"mm_refresh={other['refresh']}"}
    assert api.post("/api/v1/auth/logout", headers=other_cookie).status_code == 200
    assert api.post("/api/v1/auth/refresh", headers=other_cookie).status_code == 401
    assert api.get("/api/v1/user/userInfo", headers=bearer(other["token"])).status_code == 401


def test_password_reset_and_change(api: httpx.Client, mailbox: MailSink) -> None:
    email = unique_email()
    user = signup(api, mailbox, email)
    unknown = unique_email()
    same = [api.post("/api/v1/auth/generateResetPasswordOTP", json={"email": e})
            for e in (email, unknown)]
    assert [r.json() for r in same] == [{"data": {"sent": True}}] * 2
    assert mailbox.to(unknown) == []
    code = mailbox.latest_code(email)
    assert api.post("/api/v1/auth/verifyResetPasswordOTP",
                    json={"email": email, "otp": code}).status_code == 200
    short = api.post("/api/v1/auth/resetPassword",
                     json={"email": email, "otp": code, "password": "short"})
    assert short.status_code == 422 and "at least 8" in short.json()["message"]
    done = api.post("/imageedit/users/resetPassword",
                    json={"email": email, "otp": code, "password": "brand-new-pass"})
    assert done.status_code == 200
    assert api.get("/api/v1/user/userInfo", headers=bearer(user["token"])).status_code == 401
    login = api.post("/api/v1/auth/login", json={"email": email, "password": "brand-new-pass"})
    token = login.json()["data"]["token"]

    wrong_current = api.patch("/api/v1/user/updatePassword", headers=bearer(token),
                              json={"currentPassword": "nope", "newPassword": "another-pass"})
    assert wrong_current.status_code == 400
    changed = api.patch("/api/v1/user/updatePassword", headers=bearer(token), json={
        "currentPassword": "brand-new-pass", "newPassword": "another-pass"})
    assert changed.status_code == 200
    renamed = api.patch("/api/v1/user/userInfo", headers=bearer(token), json={"name": "Bea"})
    assert renamed.json()["data"]["userName"] == "Bea"


def test_token_for_one_distributor_is_refused_on_another(
    api: httpx.Client, mailbox: MailSink
) -> None:
    user = signup(api, mailbox, unique_email())
    elsewhere = api.get("/api/v1/user/userInfo",
                        headers={**bearer(user["token"]), "x-distributor-id": "other-shop"})
    assert elsewhere.status_code == 401
    guest_only = Guest(str(api.base_url))
    refused = api.get("/api/v1/user/userInfo", headers=bearer(guest_only.token))
    assert refused.status_code == 401
