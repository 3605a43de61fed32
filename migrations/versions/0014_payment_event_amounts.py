"""payment events: the amount and currency each event claimed, so a mismatch can be reported

A paid checkout event whose amount or currency differs from its order is recorded and kept
pending (never failing the order); the reconciliation lists those whose order is still unpaid,
with what the event said beside what the order expects.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("payment_events") as table:
        table.add_column(sa.Column("amount", sa.Integer(), nullable=True))
        table.add_column(sa.Column("currency", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("payment_events") as table:
        table.drop_column("currency")
        table.drop_column("amount")
