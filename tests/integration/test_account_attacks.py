"""Attacks on accounts that used to work: old guest tokens reaching the user, forged
X-Forwarded-For, minting guest credits, locking an owner out (racing a sign-up code or a limit:
test_codes_and_limits_raced.py; the visitors' helpers: tests/support/visitors.py).

Every loopback address reaches the stack, so a client bound to 127.0.0.x is a visitor of its
own (a real TCP peer, no header involved). 127.0.0.3 plays nginx: it is the one trusted proxy.
Requests from 127.0.0.1 are what uvicorn used to believe X-Forwarded-For from.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import select

from core.auth.devices import DEVICE_COOKIE
from core.auth.tokens import issue_token
from core.db import SessionFactory
from core.enums import AccountKind, SessionKind
from core.models.accounts import AuthSession, User
from core.models.base import utcnow
from core.settings import Settings
from tests.support.accounts import PASSWORD, mailed_code, sign_up
from tests.support.api_client import Guest
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack
from tests.support.visitors import (
    as_browser,
    ask_reset,
    bearer,
    client,
    forwarded,
    login,
    verify_reset,
)

PROXY = "127.0.0.3"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(
        tmp_path_factory.mktemp("attacks"),
        trusted_proxies=[f"{PROXY}/32"],
        guests_per_address_per_day=20,
        free_guests_per_address_per_day=3,
        # Above this module's own sign-ups from 127.0.0.1 (5).
        signup_codes_per_address_per_hour=8,
    ) as running:
        assert running.settings.app_host == "127.0.0.1"
        yield running.settings


def assert_locked_out(guest: Guest, key: str, task_ids: list[str]) -> None:
    """The old guest token reads nothing, downloads nothing and spends nothing."""
    assert guest.get("/imageedit/service/all").status_code == 401
    assert guest.poll(task_ids).status_code == 401  # pollTasks carries the download links
    assert guest.submit("burstreplace", [key], backgroundId="white").status_code == 401
    assert guest.get("/imageedit/users/getCreditsForGuests").status_code == 401


# Finding 2: guest tokens outlive the guest.


def test_a_guest_token_ends_when_the_guest_signs_up(stack: Settings, db: SessionFactory) -> None:
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    submitted = guest.submit("burstreplace", [key], backgroundId="white")
    task_ids = submitted.json()["data"]["taskIds"]
    guest.wait(task_ids)
    with client(stack) as api:
        user = sign_up(
            api,
            db,
            f"g-{uuid.uuid4().hex[:8]}@example.com",
            {"x-fingerprint-id": guest.fingerprint},
        )
        mine = api.get("/imageedit/service/all", headers=bearer(user))
        assert mine.json()["data"]["total"] == 1  # the guest's work is the user's now
        assert_locked_out(guest, key, task_ids)
        # Logging out ends the user's session and leaves the guest's ended.
        assert api.post("/api/v1/auth/logout", headers=bearer(user)).status_code == 200
        assert api.get("/imageedit/service/all", headers=bearer(user)).status_code == 401
        assert_locked_out(guest, key, task_ids)


def test_a_guest_token_ends_when_the_guest_logs_in_and_stays_ended_after_a_reset(
    stack: Settings, db: SessionFactory
) -> None:
    email = f"l-{uuid.uuid4().hex[:8]}@example.com"
    with client(stack, "127.0.0.5") as api:
        sign_up(api, db, email)
        guest = Guest(stack.app_url)
        key = guest.upload(fixture_images("people")[0].read_bytes())
        submitted = guest.submit("burstreplace", [key], backgroundId="white")
        assert submitted.status_code == 200, submitted.text
        task_ids = submitted.json()["data"]["taskIds"]
        logged_in = api.post(
            "/api/v1/auth/login",
            headers={"x-fingerprint-id": guest.fingerprint},
            json={"email": email, "password": PASSWORD},
        )
        assert logged_in.status_code == 200
        token = logged_in.json()["data"]["token"]
        assert (
            api.get(
                "/api/v1/task/pollTasks",
                headers=bearer(token),
                params={"taskIds": f'["{task_ids[0]}"]'},
            ).status_code
            == 200
        )
        assert_locked_out(guest, key, task_ids)

        # A password reset ends every session of the account, the user's too.
        assert (
            api.post("/api/v1/auth/generateResetPasswordOTP", json={"email": email}).status_code
            == 200
        )
        reset = api.post(
            "/api/v1/auth/resetPassword",
            json={
                "email": email,
                "otp": mailed_code(db, email, "reset-code"),
                "password": "Another-pass-2",
            },
        )
        assert reset.status_code == 200, reset.text
        assert api.get("/imageedit/service/all", headers=bearer(token)).status_code == 401
        assert_locked_out(guest, key, task_ids)


def test_a_guest_session_never_reaches_a_user_account(stack: Settings, db: SessionFactory) -> None:
    """A guest login racing the guest's own sign-up can open a guest session on the account
    just as it becomes the user's; that session's token must not work."""
    with client(stack, "127.0.0.6") as api:
        user_token = sign_up(api, db, f"r-{uuid.uuid4().hex[:8]}@example.com")
        with db.begin() as session:
            user = session.execute(select(User).order_by(User.created_at.desc())).scalars().first()
            assert user is not None
            late = AuthSession(
                kind=SessionKind.GUEST,
                account_id=user.account_id,
                refresh_hash=uuid.uuid4().hex,
                expires_at=utcnow() + timedelta(days=30),
            )
            session.add(late)
            session.flush()
            late_id = late.id
        token = issue_token(
            stack.resolved_jwt_secret(),
            account_id=user.account_id,
            kind=AccountKind.GUEST,
            distributor_id=user.distributor_id,
            ttl_seconds=3600,
            session_id=late_id,
        )
        assert api.get("/imageedit/service/all", headers=bearer(user_token)).status_code == 200
        assert api.get("/imageedit/service/all", headers=bearer(token)).status_code == 401


# Finding 4: addresses, guest credits, lock-outs.


def test_forged_forwarded_for_from_this_machine_is_ignored(stack: Settings) -> None:
    """Uvicorn used to believe X-Forwarded-For from 127.0.0.1: each forged address got its own
    bucket and the per-address limit never came."""
    with client(stack) as api:
        answers = [
            api.post(
                "/api/v1/auth/login",
                headers=forwarded(f"198.18.0.{n}"),
                json={"email": f"nobody{n}@example.com", "password": "wrong"},
            ).status_code
            for n in range(32)
        ]
    assert answers[:30] == [400] * 30 and answers[30:] == [429, 429]


def test_new_guests_cannot_mint_free_credits(stack: Settings) -> None:
    """The attack: many guest logins at once, each with a new fingerprint and a forged
    address. Only the first few of the day get credits, and then no more accounts at all."""

    def guest_login(n: int) -> str:
        with client(stack, "127.0.0.9") as api:
            answer = api.post(
                "/imageedit/users/guestlogin",
                headers={**forwarded(f"198.18.1.{n}"), "x-fingerprint-id": uuid.uuid4().hex},
            )
        if answer.status_code != 200:
            assert "message" in answer.json()
            return str(answer.status_code)
        data = answer.json()["data"]
        return f"{data['credits']} credits" + (" withheld" if data["freeCreditsWithheld"] else "")

    with ThreadPoolExecutor(10) as pool:
        outcomes = Counter(pool.map(guest_login, range(30)))
    # Those turned away from the free credits are told so (the page offers the sign-up's).
    assert outcomes == {"5 credits": 3, "0 credits withheld": 17, "429": 10}
    # Behind the trusted proxy, each visitor has a bucket of their own.
    with client(stack, PROXY) as nginx:
        for visitor in ("198.51.100.20", "198.51.100.21"):
            other = nginx.post(
                "/imageedit/users/guestlogin",
                headers={**forwarded(visitor), "x-fingerprint-id": uuid.uuid4().hex},
            )
            assert other.json()["data"]["credits"] == 5
            assert other.json()["data"]["freeCreditsWithheld"] is False


def test_wrong_passwords_elsewhere_do_not_lock_the_owner_out(
    stack: Settings, db: SessionFactory
) -> None:
    email = f"v-{uuid.uuid4().hex[:8]}@example.com"
    with client(stack, PROXY) as nginx:
        sign_up(nginx, db, email, forwarded("198.51.100.30"))
        attacker = [
            nginx.post(
                "/api/v1/auth/login",
                headers=forwarded("203.0.113.9"),
                json={"email": email, "password": "guess"},
            )
            for _ in range(12)
        ]
        assert [a.status_code for a in attacker] == [400] * 10 + [429, 429]
        assert "Too many attempts" in attacker[-1].json()["message"]
        owner = nginx.post(
            "/api/v1/auth/login",
            headers=forwarded("198.51.100.7"),
            json={"email": email, "password": PASSWORD},
        )
        assert owner.status_code == 200, owner.text


# The attack run of issue 18.


def test_a_spread_out_guessing_campaign_does_not_lock_the_owner_out(
    stack: Settings, db: SessionFactory
) -> None:
    """Finding 3: ~100 wrong passwords from 12 addresses filled the per-email ceiling, and then
    the owner's right password answered 429 from everywhere for 15 minutes. A browser the owner
    signed in from keeps its own attempts; a new one gets back in through a password reset."""
    email = f"o-{uuid.uuid4().hex[:8]}@example.com"
    home = "198.51.100.40"
    with client(stack, PROXY) as nginx:
        sign_up(nginx, db, email, forwarded(home))
        first = login(nginx, email, PASSWORD, home)
        assert first.status_code == 200, first.text
        device = first.cookies[DEVICE_COOKIE]
        assert "httponly" in first.headers["set-cookie"].lower()

        campaign = Counter(
            login(nginx, email, "guess-" + str(n), f"203.0.113.{20 + n // 10}").status_code
            for n in range(120)  # 10 from each of 12 addresses
        )
        assert campaign == {400: 99, 429: 21}, campaign  # the owner's login counted once
        stranger = login(nginx, email, PASSWORD, "192.0.2.80")
        assert stranger.status_code == 429
        assert "reset your password" in stranger.json()["message"]
        assert "Retry-After" in stranger.headers

        # The owner's browser, from home and from anywhere else, is in at once.
        for address in (home, "192.0.2.81"):
            owner = login(nginx, email, PASSWORD, address, device)
            assert owner.status_code == 200, (address, owner.text)
        # A forged device cookie, or one signed for another email, is a stranger's.
        other = f"x-{uuid.uuid4().hex[:8]}@example.com"
        sign_up(nginx, db, other, forwarded("198.51.100.41"))
        foreign = login(nginx, other, PASSWORD, "198.51.100.41").cookies[DEVICE_COOKIE]
        for fake in (foreign, device.split(".")[0] + ".0123456789abcdef0123456789abcdef",
                     "ünïcode.cookie"):
            assert login(nginx, email, PASSWORD, home, fake).status_code == 429, fake

        # A new browser proves the mailbox with a reset, and is the owner's from then on.
        assert nginx.post("/api/v1/auth/generateResetPasswordOTP", headers=forwarded(home),
                          json={"email": email}).status_code == 200
        reset = nginx.post("/api/v1/auth/resetPassword", headers=forwarded(home), json={
            "email": email, "otp": mailed_code(db, email, "reset-code"),
            "password": "Reset-pass-456"})
        assert reset.status_code == 200, reset.text
        new_browser = reset.cookies[DEVICE_COOKIE]
        assert login(nginx, email, "Reset-pass-456", home, new_browser).status_code == 200

        # A known browser's own wrong guesses lock that browser only.
        mine = [login(nginx, email, "typo", home, new_browser).status_code for _ in range(10)]
        assert mine == [400] * 9 + [429]
        assert login(nginx, email, "Reset-pass-456", home, device).status_code == 200


def wrong_code(right: str, n: int) -> str:
    return f"{(int(right) + 1 + n) % 1_000_000:06d}"


def test_a_stranger_cannot_stop_the_owner_from_resetting_their_password(
    stack: Settings, db: SessionFactory
) -> None:
    """Issue 33 item 3: five reset requests for the owner's email from five addresses filled its
    bucket, five wrong checks burned the mailed code; the owner's real code then answered "Too
    many wrong codes" and a new one "wait 60 minutes", every hour again. The owner's known
    browser now always gets and uses a code of its own, which strangers' guesses cannot spend;
    and checking codes has a limit of its own per requester."""
    email = f"r-{uuid.uuid4().hex[:8]}@example.com"
    home = "198.51.100.60"
    with client(stack, PROXY) as nginx:
        sign_up(nginx, db, email, forwarded(home))
        device = login(nginx, email, PASSWORD, home).cookies[DEVICE_COOKIE]

        # The attack, from ten addresses: five requests fill the email's bucket for strangers...
        asked = [ask_reset(nginx, email, f"203.0.113.{60 + n}").status_code for n in range(5)]
        assert asked == [200] * 5
        strangers_code = mailed_code(db, email, "reset-code")  # in the owner's mailbox
        # ... and five wrong checks burn the code the strangers asked for.
        guesses = [verify_reset(nginx, email, wrong_code(strangers_code, n),
                                f"203.0.113.{70 + n}").status_code for n in range(5)]
        assert guesses == [400] * 5
        burned = verify_reset(nginx, email, strangers_code, "203.0.113.80")
        assert burned.status_code == 400 and "Too many wrong codes" in burned.json()["message"]
        full = ask_reset(nginx, email, "203.0.113.81")
        assert full.status_code == 429 and "wait 60 minutes" in full.json()["message"]

        # The owner's browser, from anywhere, gets a code of its own at once.
        owners = ask_reset(nginx, email, "192.0.2.90", device)
        assert owners.status_code == 200, owners.text
        code = mailed_code(db, email, "reset-code")
        assert code != strangers_code
        # Strangers guessing meanwhile (from new addresses) do not spend it.
        guesses = [verify_reset(nginx, email, wrong_code(code, n),
                                f"203.0.113.{90 + n}").status_code for n in range(6)]
        assert guesses == [400] * 6
        assert verify_reset(nginx, email, code, "203.0.113.99").status_code == 400  # not theirs
        verified = verify_reset(nginx, email, code, "192.0.2.90", device)
        assert verified.status_code == 200, verified.text
        reset = nginx.post("/api/v1/auth/resetPassword", headers=as_browser("192.0.2.90", device),
                           json={"email": email, "otp": code, "password": "Owner-again-789"})
        assert reset.status_code == 200, reset.text
        assert login(nginx, email, "Owner-again-789", home, device).status_code == 200
        # Used: the code, and the strangers' one, work no more.
        for otp in (code, strangers_code):
            assert verify_reset(nginx, email, otp, "192.0.2.90", device).status_code == 400


def test_one_address_cannot_mint_accounts_by_the_dozen(stack: Settings) -> None:
    """Sign-up codes from one address are limited across emails (each email has its own five),
    so a script cannot open account after account from one connection; other addresses are not
    held back by it."""
    with client(stack, "127.0.0.3") as direct, client(stack, "127.0.0.4") as other:
        sent = [direct.post("/api/v1/auth/generateSignupOTP",
                            json={"email": f"mint-{i}-{uuid.uuid4().hex[:6]}@example.com"})
                for i in range(9)]
        assert [r.status_code for r in sent] == [200] * 8 + [429], [r.text for r in sent]
        assert "Too many attempts" in sent[-1].json()["message"]
        elsewhere = other.post("/api/v1/auth/generateSignupOTP",
                               json={"email": f"mint-x-{uuid.uuid4().hex[:6]}@example.com"})
        assert elsewhere.status_code == 200, elsewhere.text


def test_checking_reset_codes_is_limited_per_requester(stack: Settings, db: SessionFactory) -> None:
    """The check had no limit of its own (only the code's five tries). One address gets ten
    checks per email in 15 minutes and thirty across emails; the owner's browser its own ten."""
    email = f"c-{uuid.uuid4().hex[:8]}@example.com"
    guesser = "203.0.113.120"
    with client(stack, PROXY) as nginx:
        sign_up(nginx, db, email, forwarded("198.51.100.61"))
        device = login(nginx, email, PASSWORD, "198.51.100.61").cookies[DEVICE_COOKIE]
        assert ask_reset(nginx, email, guesser).status_code == 200
        answers = [verify_reset(nginx, email, f"{n:06d}", guesser).status_code for n in range(12)]
        assert answers == [400] * 10 + [429, 429]
        limited = verify_reset(nginx, email, "000000", guesser)
        assert "Retry-After" in limited.headers and limited.json()["message"]
        # Across emails (unknown accounts answer the same), one address stops at thirty.
        others = [verify_reset(nginx, f"n{n}-{uuid.uuid4().hex[:6]}@example.com", "000000",
                               "203.0.113.121").status_code for n in range(31)]
        assert others == [400] * 30 + [429]
        # Neither touched the owner's browser: its code, asked for now, works.
        assert ask_reset(nginx, email, "198.51.100.61", device).status_code == 200
        code = mailed_code(db, email, "reset-code")
        assert verify_reset(nginx, email, code, "198.51.100.61", device).status_code == 200


def test_a_guest_token_ends_at_sign_up_and_login_without_a_fingerprint(
    stack: Settings, db: SessionFactory
) -> None:
    """Finding 5: signing up with only `Authorization: Bearer <guest>` (no x-fingerprint-id)
    left that guest token answering 200. The bearer's session ends, and its work comes along."""
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    submitted = guest.submit("burstreplace", [key], backgroundId="white")
    assert submitted.status_code == 200, submitted.text
    task_ids = submitted.json()["data"]["taskIds"]
    email = f"b-{uuid.uuid4().hex[:8]}@example.com"
    with client(stack, "127.0.0.11") as api:
        user = sign_up(api, db, email, bearer(guest.token))
        assert_locked_out(guest, key, task_ids)
        mine = api.get("/imageedit/service/all", headers=bearer(user))
        assert mine.json()["data"]["total"] == 1  # the guest's generation is the user's now

        # Logging in with another guest's token alone: that guest session ends too.
        second = Guest(stack.app_url)
        assert second.get("/imageedit/users/getCreditsForGuests").status_code == 200
        logged_in = api.post("/api/v1/auth/login", headers=bearer(second.token),
                             json={"email": email, "password": PASSWORD})
        assert logged_in.status_code == 200, logged_in.text
        assert second.get("/imageedit/users/getCreditsForGuests").status_code == 401
        # The user's first session is untouched by it.
        assert api.get("/imageedit/service/all", headers=bearer(user)).status_code == 200


def test_changing_the_password_ends_every_other_session(
    stack: Settings, db: SessionFactory
) -> None:
    """Finding 6: after PATCH /user/updatePassword a second session still answered 200."""
    email = f"p-{uuid.uuid4().hex[:8]}@example.com"
    with client(stack, "127.0.0.12") as api:
        here = sign_up(api, db, email)
        elsewhere = api.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
        assert elsewhere.status_code == 200
        other = elsewhere.json()["data"]["token"]
        refresh = elsewhere.cookies["mm_refresh"]
        assert api.get("/api/v1/user/userInfo", headers=bearer(other)).status_code == 200
        changed = api.patch("/api/v1/user/updatePassword", headers=bearer(here), json={
            "currentPassword": PASSWORD, "newPassword": "Changed-pass-789"})
        assert changed.status_code == 200, changed.text
        assert api.get("/api/v1/user/userInfo", headers=bearer(other)).status_code == 401
        # Its refresh cookie cannot bring it back either.
        again = api.post("/api/v1/auth/refresh", headers={"Cookie": f"mm_refresh={refresh}"})
        assert again.status_code == 401
        # The session that changed it stays signed in.
        assert api.get("/api/v1/user/userInfo", headers=bearer(here)).status_code == 200
