"""subscriptions: monthly plans as subscriptions, and each period's payment as an order

A paid monthly plan becomes a subscription, owned by its Temporal workflow
(`subscription-{id}`), at most one live (active or past_due) per user. Orders learn which
subscription period they pay for (the checkout order is period 1, each renewal an order of its
own) and the card they were paid with (the local provider's card on file).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 11:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

LIVE = "status != 'canceled'"


def upgrade() -> None:
    with op.batch_alter_table("orders") as batch_op:
        batch_op.add_column(sa.Column("payment_method", sa.String(length=128), nullable=True))
        batch_op.add_column(sa.Column("subscription_id", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("subscription_period", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_orders_subscription_id"), ["subscription_id"])
    op.create_table(
        "subscriptions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("order_id", sa.String(length=32), nullable=False),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("provider_subscription_id", sa.String(length=128), nullable=True),
        sa.Column("payment_method", sa.String(length=128), nullable=True),
        sa.Column("plan_id", sa.String(length=64), nullable=False),
        sa.Column("rate_code", sa.String(length=64), nullable=False),
        sa.Column("plan_name", sa.String(length=128), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("credits", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("current_period_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("current_period_end", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cancel_at_period_end", sa.Boolean(), nullable=False),
        sa.Column("pending_plan_id", sa.String(length=64), nullable=True),
        sa.Column("pending_rate_code", sa.String(length=64), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("canceled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["order_id"], ["orders.id"]),
        sa.ForeignKeyConstraint(["plan_id"], ["plans.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("order_id"),
        sa.UniqueConstraint("provider_subscription_id"),
    )
    with op.batch_alter_table("subscriptions") as batch_op:
        batch_op.create_index(batch_op.f("ix_subscriptions_account_id"), ["account_id"])
        batch_op.create_index(batch_op.f("ix_subscriptions_user_id"), ["user_id"])
    # One live subscription per user, kept by the database itself (two checkouts racing).
    op.create_index(
        "uq_subscriptions_live_user",
        "subscriptions",
        ["user_id"],
        unique=True,
        sqlite_where=sa.text(LIVE),
        postgresql_where=sa.text(LIVE),
    )


def downgrade() -> None:
    op.drop_index("uq_subscriptions_live_user", table_name="subscriptions")
    with op.batch_alter_table("subscriptions") as batch_op:
        batch_op.drop_index(batch_op.f("ix_subscriptions_user_id"))
        batch_op.drop_index(batch_op.f("ix_subscriptions_account_id"))
    op.drop_table("subscriptions")
    with op.batch_alter_table("orders") as batch_op:
        batch_op.drop_index(batch_op.f("ix_orders_subscription_id"))
        batch_op.drop_column("subscription_period")
        batch_op.drop_column("subscription_id")
        batch_op.drop_column("payment_method")
