"""Signing in: with a password (rate-limited so that guessing cannot lock the owner out), with
Google, and back in after a forgotten password (a mailed code). A guest's work on the same
browser goes with them.

Synchronous (database, Argon2, one call to Google): routes call it from a worker thread and
send mail afterwards.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from core import mail, ratelimit
from core.auth import codes
from core.auth.code_mail import CODE_LIMIT, CodeMail
from core.auth.devices import issue_device_cookie, known_device
from core.auth.emails import BAD_EMAIL, is_email, normalise_email
from core.auth.guests import Guests
from core.auth.passwords import hash_password, password_problem, verify_password
from core.auth.sessions import AuthSessions, SessionTokens
from core.auth.users import Users
from core.db import SessionFactory
from core.enums import CodePurpose
from core.errors import InvalidInput, Refused, UpstreamFailed
from core.models.accounts import User
from core.settings import Settings

WRONG_LOGIN = "The email or password is incorrect."
GOOGLE_REFUSED = "Google did not accept this sign-in. Please try again."

# Wrong logins from a browser the account has not signed in from lock (email, address) pairs:
# someone elsewhere guessing cannot lock the owner out of their own account. The per-email
# ceiling, well above, still stops a guessing campaign spread over many addresses; the
# per-address one stops one address trying many emails. A browser with the account's device
# cookie (core/auth/devices.py) is counted on its own and never meets those limits, so the
# ceiling an attacker fills does not lock the owner's known browsers out.
LOGIN_LIMIT = (10, timedelta(minutes=15))  # per (email, address), and per known device
LOGIN_EMAIL_CEILING = 100  # per email, from all addresses, in the same window
LOGIN_ADDRESS_LIMIT = 30  # per address, all emails
CEILING_MESSAGE = (
    "Too many sign-in attempts on this account from browsers it has not been used in. "
    "Please {wait}, sign in from a browser you have used before, or reset your password "
    "with a code sent to your email to continue now."
)
GOOGLE_LIMIT = (60, timedelta(minutes=15))  # per address

# Password reset (issue 33 item 3): a stranger could ask for the owner's codes until the email's
# bucket was full and burn each with five wrong tries, and the owner could neither use a code
# nor get a new one for an hour. Now a browser the account is known in (its device cookie) has
# its own bucket of codes and its own codes (core/auth/codes.py), which strangers can neither fill
# nor spend. Checking a code (verify and reset alike) is limited per requester, never per
# email: a known browser on its own, any other per (email, address) and per address across
# emails. Guessing stays out of reach: five wrong tries per code, five codes an hour per email
# from unknown browsers (about 1 in 40,000 an hour for a guesser), and one address can spread
# its tries over few accounts.
RESET_CHECK_LIMIT = (10, timedelta(minutes=15))  # per known browser, and per (email, address)
RESET_CHECK_ADDRESS_LIMIT = 30  # per address, all emails, in the same window


class Logins:
    def __init__(
        self,
        sessions: SessionFactory,
        settings: Settings,
        codes: CodeMail,
        auth: AuthSessions,
        guests: Guests,
        users: Users,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.codes = codes
        self.auth = auth
        self.guests = guests
        self.users = users

    def with_password(
        self,
        raw_email: str,
        password: str,
        fingerprint: str | None,
        address: str,
        remember: bool,
        device_cookie: str | None = None,
        bearer: str | None = None,
    ) -> SessionTokens:
        if not is_email(raw_email):
            raise Refused(BAD_EMAIL)
        email = normalise_email(raw_email)
        self._count_attempt(email, address, device_cookie)
        user = self.users.find(email)
        # Always verify (against a dummy hash for unknown emails): the answer takes as long
        # either way.
        if not verify_password(user.password_hash if user else None, password) or user is None:
            raise Refused(WRONG_LOGIN)
        self.guests.adopt_work(user, fingerprint, self.guests.calling(bearer))
        return self.auth.start(user, remember)

    def _count_attempt(self, email: str, address: str, device_cookie: str | None) -> None:
        """Count a login attempt: on the browser's own device bucket when it is one this
        email signed in from, else on the (email, address) pair, the email's ceiling and the
        address."""
        count, window = LOGIN_LIMIT
        device = known_device(self.auth.token_secret, device_cookie, email)
        if device is not None:
            ratelimit.hit(self.sessions, [f"login:device:{device}"], count, window)
            return
        ip = ratelimit.address_key(address)
        ceiling = f"login:email:{email}"
        limits = {
            f"login:pair:{email}:{ip}": count,
            ceiling: LOGIN_EMAIL_CEILING,
            f"login:ip:{ip}": LOGIN_ADDRESS_LIMIT,
        }
        try:
            ratelimit.hit_each(self.sessions, limits, window)
        except ratelimit.RateLimited as limited:
            if limited.bucket != ceiling:
                raise
            wait = ratelimit.wait_phrase(limited.retry_after)
            raise ratelimit.RateLimited(
                limited.retry_after, ceiling, CEILING_MESSAGE.format(wait=wait)
            ) from None

    def with_google(
        self,
        access_token_value: str,
        name_hint: str,
        distributor: str,
        fingerprint: str | None,
        address: str,
        remember: bool,
        bearer: str | None = None,
    ) -> SessionTokens:
        """Verify the Google access token with Google's user-info endpoint and trust only the
        email it returns (never the one in the request)."""
        ratelimit.hit_email_and_address(self.sessions, "google", "-", address, GOOGLE_LIMIT, 1)
        if not access_token_value.isascii() or not access_token_value.isprintable():
            # No real token has other characters, and they cannot go into an HTTP header.
            raise Refused(GOOGLE_REFUSED)
        try:
            response = httpx.get(
                self.settings.google_userinfo_url,
                timeout=10,
                headers={"Authorization": f"Bearer {access_token_value}"},
            )
        except httpx.HTTPError:
            raise UpstreamFailed("Google could not be reached. Please try again later.") from None
        if response.status_code != 200:
            raise Refused(GOOGLE_REFUSED)
        info = response.json()
        email = str(info.get("email") or "").strip().lower()
        if not is_email(email) or info.get("email_verified") is False:
            raise Refused("Your Google account has no verified email address.")
        name = str(info.get("name") or name_hint or email.split("@")[0])[:128]
        user = self.users.find(email)
        caller = self.guests.calling(bearer)
        if user is None:
            try:
                user = self.users.create(email, name, None, distributor, fingerprint, caller)
            except IntegrityError:  # created by a concurrent request a moment ago
                user = self.users.find(email)
                if user is None:
                    raise
                self.guests.adopt_work(user, fingerprint, caller)
        else:
            self.guests.adopt_work(user, fingerprint, caller)
        return self.auth.start(user, remember)

    # Password reset: the same answers whether or not the email has an account.

    def request_reset_code(
        self, raw_email: str, address: str, device_cookie: str | None = None
    ) -> mail.Mail | None:
        email = normalise_email(raw_email)
        device = known_device(self.auth.token_secret, device_cookie, email)
        if device is not None:
            # The owner's known browser: its own bucket, which strangers' requests never fill.
            ratelimit.hit(self.sessions, [f"reset-code:device:{device}"], *CODE_LIMIT)
        else:
            ratelimit.hit_email_and_address(
                self.sessions, "reset-code", email, address, CODE_LIMIT, 4
            )
        if self.users.find(email) is None:
            return None
        try:
            return self.codes.compose(email, CodePurpose.RESET, device)
        except codes.ResendTooSoon:
            return None  # asked again too soon: same answer, the earlier code still works

    def verify_reset_code(
        self, raw_email: str, otp: str, address: str, device_cookie: str | None = None
    ) -> None:
        """Check a reset code before asking for the new password (used up at the reset)."""
        email = normalise_email(raw_email)
        device = self._count_code_check(email, address, device_cookie)
        self.codes.check(email, otp, CodePurpose.RESET, device=device)

    def reset_password(
        self,
        raw_email: str,
        otp: str,
        password: str,
        address: str,
        device_cookie: str | None = None,
    ) -> str:
        """Set the new password and end every session; the browser's new device cookie (the
        mailed code proved the mailbox, so this browser is the owner's from now on)."""
        problem = password_problem(password)
        if problem:
            raise InvalidInput(problem)
        email = normalise_email(raw_email)
        device = self._count_code_check(email, address, device_cookie)
        self.codes.check(email, otp, CodePurpose.RESET, consume=True, device=device)
        with self.sessions.begin() as session:
            user = session.execute(select(User).where(User.email == email)).scalar_one_or_none()
            if user is None:  # a code is only ever mailed to an existing account
                raise Refused("The code is wrong or has expired.")
            user.password_hash = hash_password(password)
            account_id = user.account_id
        self.auth.end_all(account_id)
        return issue_device_cookie(self.auth.token_secret, email)

    def _count_code_check(self, email: str, address: str, device_cookie: str | None) -> str | None:
        """Count one reset-code check against the requester's limits (never the email's, which
        a stranger could fill); the known browser's device id, if it is one."""
        count, window = RESET_CHECK_LIMIT
        device = known_device(self.auth.token_secret, device_cookie, email)
        if device is not None:
            ratelimit.hit(self.sessions, [f"reset-check:device:{device}"], count, window)
            return device
        ip = ratelimit.address_key(address)
        ratelimit.hit_each(
            self.sessions,
            {f"reset-check:pair:{email}:{ip}": count,
             f"reset-check:ip:{ip}": RESET_CHECK_ADDRESS_LIMIT},
            window,
        )
        return None
