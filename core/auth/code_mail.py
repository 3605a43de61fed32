"""The six-digit codes mailed for sign-up and password reset (core/auth/codes.py keeps them): the
mail that carries one, and the check of a code a person typed."""

from __future__ import annotations

from datetime import timedelta

from core import mail
from core.auth import codes
from core.auth.emails import normalise_email
from core.db import SessionFactory
from core.enums import CodePurpose

CODE_LIMIT = (5, timedelta(hours=1))  # codes mailed per email, and x4 per address


class CodeMail:
    def __init__(self, sessions: SessionFactory, code_secret: str) -> None:
        self.sessions = sessions
        self.code_secret = code_secret

    def compose(self, email: str, purpose: CodePurpose, device: str | None = None) -> mail.Mail:
        """A new code for the email, in the mail that carries it (sent by the caller); bound to
        `device` when a known browser asked for it (core/auth/codes.py)."""
        issued = codes.issue(self.sessions, self.code_secret, email, purpose, device)
        what = "finish signing up" if purpose == CodePurpose.SIGNUP else "reset your password"
        return mail.Mail(
            to=email,
            subject=f"Your MetaModel code: {issued.code}",
            body=f"Your code to {what} is {issued.code}.\n\nIt is valid for 10 minutes. "
            "If you did not ask for it, you can ignore this mail.\n",
            kind=f"{purpose}-code",
            dedupe_key=f"code:{issued.id}",
        )

    def check(
        self,
        raw_email: str,
        otp: str,
        purpose: CodePurpose,
        consume: bool = False,
        device: str | None = None,
    ) -> str:
        """The normalised email when the code is right (used up when `consume`), else a
        codes.CodeProblem for the person. `device`: the known browser checking it, if any."""
        email = normalise_email(raw_email)
        codes.check(self.sessions, self.code_secret, email, purpose, otp, consume, device)
        return email
