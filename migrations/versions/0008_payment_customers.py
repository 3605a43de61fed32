"""payments: the provider's customer of each user

The Stripe provider makes one Stripe customer per user and reuses it for every later checkout
(packs and subscriptions alike), so a user's payments and subscriptions sit under one customer.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "payment_customers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("provider", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("customer_id", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("provider", "user_id"),
        sa.UniqueConstraint("provider", "customer_id"),
    )


def downgrade() -> None:
    op.drop_table("payment_customers")
