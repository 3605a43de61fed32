"""hardening: credit holds, guest sessions, checked inputs, idempotent requests, mail relay

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 06:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "credit_holds",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("credit_holds") as batch_op:
        batch_op.create_index(batch_op.f("ix_credit_holds_account_id"), ["account_id"])

    with op.batch_alter_table("accounts") as batch_op:
        batch_op.add_column(
            sa.Column("held_credits", sa.Integer(), nullable=False, server_default="0")
        )

    with op.batch_alter_table("auth_sessions") as batch_op:
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), nullable=False, server_default="user")
        )
        batch_op.add_column(sa.Column("account_id", sa.String(length=32), nullable=True))
        batch_op.alter_column("user_id", existing_type=sa.String(length=32), nullable=True)
        batch_op.create_index(batch_op.f("ix_auth_sessions_account_id"), ["account_id"])
        batch_op.create_foreign_key(
            "fk_auth_sessions_account_id_accounts", "accounts", ["account_id"], ["id"]
        )

    with op.batch_alter_table("tasks") as batch_op:
        batch_op.add_column(sa.Column("input_size", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("input_etag", sa.String(length=128), nullable=True))

    with op.batch_alter_table("generations") as batch_op:
        batch_op.add_column(sa.Column("request_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("workflow_started_at", sa.DateTime(timezone=True), nullable=True)
        )

    with op.batch_alter_table("outbox") as batch_op:
        batch_op.add_column(
            sa.Column("attempts", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("last_error", sa.Text(), nullable=True))
        batch_op.add_column(
            sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.drop_column("next_attempt_at")
        batch_op.drop_column("last_error")
        batch_op.drop_column("attempts")
    with op.batch_alter_table("generations") as batch_op:
        batch_op.drop_column("workflow_started_at")
        batch_op.drop_column("request_hash")
    with op.batch_alter_table("tasks") as batch_op:
        batch_op.drop_column("input_etag")
        batch_op.drop_column("input_size")
    with op.batch_alter_table("auth_sessions") as batch_op:
        batch_op.drop_constraint("fk_auth_sessions_account_id_accounts", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_auth_sessions_account_id"))
        batch_op.alter_column("user_id", existing_type=sa.String(length=32), nullable=False)
        batch_op.drop_column("account_id")
        batch_op.drop_column("kind")
    with op.batch_alter_table("accounts") as batch_op:
        batch_op.drop_column("held_credits")
    with op.batch_alter_table("credit_holds") as batch_op:
        batch_op.drop_index(batch_op.f("ix_credit_holds_account_id"))
    op.drop_table("credit_holds")
