"""Bodies of sign-up, login, codes and password reset (api/routers/auth.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema, UserView
from api.validation import PasswordText


class EmailBody(Schema):
    email: str = Field(min_length=3, max_length=320)


class CodeBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")


class SignupBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")
    name: str = Field(min_length=1, max_length=128)
    password: PasswordText
    distributorId: str | None = Field(default=None, max_length=64)
    rememberMe: bool = True


class LoginBody(Schema):
    email: str = Field(min_length=1, max_length=320)
    password: str = Field(min_length=1, max_length=1024)
    rememberMe: bool = True


class ExternalLoginBody(Schema):
    email: str = Field(default="", max_length=320)
    name: str = Field(default="", max_length=128)
    distributorId: str | None = Field(default=None, max_length=64)
    accessToken: str = Field(min_length=1, max_length=4096)
    rememberMe: bool = True


class ResetBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")
    password: PasswordText


class LoggedIn(Schema):
    token: str
    user: UserView


class Sent(Schema):
    sent: bool


class Verified(Schema):
    verified: bool


class AccessToken(Schema):
    token: str
