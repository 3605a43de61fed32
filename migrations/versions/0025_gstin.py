"""users.gstin and orders.buyer_gstin: an Indian buyer's GST registration (GSTIN), kept in the
user's settings and copied onto each order at checkout, so the order's invoice carries it as it
was when bought (issue 33 item 12). Null when none was given.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-28 00:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as table:
        table.add_column(sa.Column("gstin", sa.String(15), nullable=True))
    with op.batch_alter_table("orders") as table:
        table.add_column(sa.Column("buyer_gstin", sa.String(15), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("orders") as table:
        table.drop_column("buyer_gstin")
    with op.batch_alter_table("users") as table:
        table.drop_column("gstin")
