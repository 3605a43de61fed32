"""Operators: `python -m ops.admin grant EMAIL` (or `revoke EMAIL`, `list`).

The user must have signed up first. Settings (DATABASE_URL, DATA_DIR) are read as by every
process, so on the embedded stack it works as it is."""

from __future__ import annotations

import argparse
import sys

from sqlalchemy import select

from core.auth.emails import normalise_email
from core.db import SessionFactory, make_database, make_session_factory
from core.enums import UserRole
from core.errors import InvalidInput
from core.models.accounts import User
from core.settings import get_settings


def set_role(sessions: SessionFactory, raw_email: str, role: UserRole) -> bool:
    """Give the user the role; False when no user has that email."""
    email = normalise_email(raw_email)
    with sessions.begin() as session:
        user = session.execute(select(User).where(User.email == email)).scalar_one_or_none()
        if user is None:
            return False
        user.role = role
    return True


def admins(sessions: SessionFactory) -> list[str]:
    with sessions() as session:
        return list(
            session.execute(
                select(User.email).where(User.role == UserRole.ADMIN).order_by(User.email)
            ).scalars()
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.admin", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("grant", "revoke"):
        sub.add_parser(name, help=f"{name} the admin role").add_argument("email")
    sub.add_parser("list", help="list the admins")
    args = parser.parse_args(argv)
    database = make_database(get_settings().resolved_database_url)
    sessions = make_session_factory(database)
    try:
        if args.command == "list":
            for email in admins(sessions):
                print(email)
            return 0
        role = UserRole.ADMIN if args.command == "grant" else UserRole.USER
        try:
            found = set_role(sessions, args.email, role)
        except InvalidInput as error:
            print(error.message, file=sys.stderr)
            return 2
        if not found:
            print(f"No user with the email {args.email!r}; they must sign up first.",
                  file=sys.stderr)
            return 1
        print(f"{args.email}: {role}")
        return 0
    finally:
        database.dispose()


if __name__ == "__main__":
    sys.exit(main())
