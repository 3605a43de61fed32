"""Sign-up: a code mailed to the address proves it, then the user is created and signed in
(a guest on the same browser becomes that user).

Synchronous (database, Argon2): routes call it from a worker thread and send mail afterwards.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from core import mail, ratelimit
from core.auth.code_mail import CODE_LIMIT, CodeMail
from core.auth.emails import normalise_email
from core.auth.guests import Guests
from core.auth.passwords import hash_password, password_problem
from core.auth.sessions import AuthSessions, SessionTokens
from core.auth.users import Users
from core.db import SessionFactory
from core.enums import CodePurpose
from core.errors import InvalidInput, Refused

EMAIL_TAKEN = "An account with this email already exists. Please log in."


class Signup:
    def __init__(
        self,
        sessions: SessionFactory,
        codes: CodeMail,
        auth: AuthSessions,
        guests: Guests,
        users: Users,
        codes_per_address: int = 20,
    ) -> None:
        self.sessions = sessions
        self.codes_per_address = codes_per_address
        self.codes = codes
        self.auth = auth
        self.guests = guests
        self.users = users

    def request_code(self, raw_email: str, address: str) -> mail.Mail:
        email = normalise_email(raw_email)
        if self.users.find(email) is not None:
            raise Refused(EMAIL_TAKEN)
        count, window = CODE_LIMIT
        ratelimit.hit(self.sessions, [f"signup-code:email:{email}"], count, window)
        ratelimit.hit(
            self.sessions, [f"signup-code:ip:{ratelimit.address_key(address)}"],
            self.codes_per_address, window,
        )
        return self.codes.compose(email, CodePurpose.SIGNUP)

    def sign_up(
        self,
        raw_email: str,
        otp: str,
        name: str,
        password: str,
        distributor: str,
        fingerprint: str | None,
        remember: bool,
        bearer: str | None = None,
    ) -> SessionTokens:
        problem = password_problem(password)
        if problem:
            raise InvalidInput(problem)
        email = normalise_email(raw_email)
        if self.users.find(email) is not None:
            raise Refused(EMAIL_TAKEN)
        self.codes.check(email, otp, CodePurpose.SIGNUP, consume=True)
        try:
            user = self.users.create(
                email,
                name.strip(),
                hash_password(password),
                distributor,
                fingerprint,
                self.guests.calling(bearer),
            )
        except IntegrityError:
            raise Refused(EMAIL_TAKEN) from None
        return self.auth.start(user, remember)
