"""Codes and limits raced (the attack run of issue 18, tests/integration/test_account_attacks.py
has the rest): a sign-up code's wrong tries, a rate limit and a known browser's reset code hold
under many requests at once, on the database alone."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import select

from core import ratelimit
from core.auth import codes
from core.auth.codes import CodeProblem
from core.db import SessionFactory
from core.models.accounts import OneTimeCode


def test_a_sign_up_code_allows_five_wrong_tries_under_concurrency(
    database: SessionFactory,
) -> None:
    email = "race@example.com"
    issued = codes.issue(database, "secret", email, "signup")
    wrong = f"{(int(issued.code) + 1) % 1_000_000:06d}"

    def attempt(_: int) -> str:
        try:
            codes.check(database, "secret", email, "signup", wrong, consume=False)
        except CodeProblem as error:
            return str(error)
        return "accepted"

    with ThreadPoolExecutor(20) as pool:
        outcomes = list(pool.map(attempt, range(20)))
    assert "accepted" not in outcomes
    assert sum("wrong or has expired" in o for o in outcomes) <= codes.MAX_ATTEMPTS
    with database() as session:
        row = session.execute(select(OneTimeCode).where(OneTimeCode.email == email)).scalar_one()
        assert row.attempts == codes.MAX_ATTEMPTS
    with pytest.raises(CodeProblem, match="Too many wrong codes"):
        codes.check(database, "secret", email, "signup", issued.code, consume=True)


def test_a_rate_limit_holds_under_concurrency(database: SessionFactory) -> None:
    """Counted and checked at once: 30 simultaneous hits on a limit of 5 let exactly 5 through
    (before: 6 on SQLite, 20 on PostgreSQL, i.e. 20 free-credit guests instead of 5)."""

    def attempt(_: int) -> bool:
        try:
            ratelimit.hit(database, ["race:ip:192.0.2.1"], 5, timedelta(days=1))
        except ratelimit.RateLimited:
            return False
        return True

    with ThreadPoolExecutor(30) as pool:
        passed = sum(pool.map(attempt, range(30)))
    assert passed == 5


def test_reset_codes_are_kept_per_requester(database: SessionFactory) -> None:
    """A known browser's code is its own: a newer code asked for elsewhere does not replace it,
    and wrong tries from elsewhere do not spend it; the browser's own wrong tries do. It may
    also use the shared code a stranger asked for, whatever the strangers' tries on it."""
    email = f"p-{uuid.uuid4().hex[:8]}@example.com"
    mine = codes.issue(database, "secret", email, "reset", device="browser-1")
    theirs = codes.issue(database, "secret", email, "reset")
    for guess in others_than(codes.MAX_ATTEMPTS + 2, mine.code, theirs.code):
        with pytest.raises(CodeProblem):
            codes.check(database, "secret", email, "reset", guess, False)
    with pytest.raises(CodeProblem, match="Too many wrong codes"):
        codes.check(database, "secret", email, "reset", theirs.code, False)
    with pytest.raises(CodeProblem):  # not the strangers' to use
        codes.check(database, "secret", email, "reset", mine.code, False)
    # The browser can use its own code, and the strangers' burned one; another has neither.
    codes.check(database, "secret", email, "reset", mine.code, False, device="browser-1")
    codes.check(database, "secret", email, "reset", theirs.code, False, device="browser-1")
    with pytest.raises(CodeProblem):
        codes.check(database, "secret", email, "reset", mine.code, False, device="browser-2")
    # Used up once, every open code of the email is.
    codes.check(database, "secret", email, "reset", theirs.code, True, device="browser-1")
    with pytest.raises(CodeProblem, match="wrong or has expired"):
        codes.check(database, "secret", email, "reset", mine.code, False, device="browser-1")

    # A known browser's own wrong tries count on its own code: five, then it is spent.
    own = codes.issue(database, "secret", email, "reset", device="browser-3")
    for guess in others_than(codes.MAX_ATTEMPTS, own.code):
        with pytest.raises(CodeProblem, match="wrong or has expired"):
            codes.check(database, "secret", email, "reset", guess, False, device="browser-3")
    with pytest.raises(CodeProblem, match="Too many wrong codes"):
        codes.check(database, "secret", email, "reset", own.code, False, device="browser-3")


def others_than(count: int, *codes_: str) -> list[str]:
    """`count` six-digit codes, none of them one of `codes_`."""
    picks = (f"{n:06d}" for n in range(1_000_000))
    return [c for c, _ in zip((p for p in picks if p not in codes_), range(count), strict=False)]
