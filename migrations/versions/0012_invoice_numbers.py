"""invoice numbers: a running sequence, one number per paid payment, assigned on first issue

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 05:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invoice_numbers",
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("payment_id", sa.String(length=64), nullable=False, unique=True),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("invoice_numbers")
