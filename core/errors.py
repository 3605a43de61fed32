"""Domain errors: the business rules in core/ raise these; api/errors.py maps each class to an
HTTP status in one table, and activities turn them into non-retryable Temporal failures.

Every message is written for the person using the product: it is shown as it is.
"""

from __future__ import annotations


class DomainError(Exception):
    """Base of every error a rule raises on purpose. `message` is shown to the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(DomainError):
    """The request cannot be used as it is (a field is missing, malformed or out of range)."""


class Refused(DomainError):
    """A well-formed request that the rules refuse (wrong password, email already registered)."""


class Conflict(DomainError):
    """The request clashes with the current state of the thing (e.g. a second subscription
    while one is live)."""


class NotFound(DomainError):
    """The thing does not exist, or belongs to someone else (we never say which)."""


class NotAuthenticated(DomainError):
    """No valid session: log in (again) or start a new guest session."""


class Forbidden(DomainError):
    """Signed in, but not allowed to do this."""


class Unavailable(DomainError):
    """A service we depend on is down right now; nothing was changed, try again later."""


class UpstreamFailed(DomainError):
    """A third party (Google, a payment provider) could not be reached."""


class PaymentDeclined(DomainError):
    """A charge the request needed was declined (the card on file); nothing was changed."""
