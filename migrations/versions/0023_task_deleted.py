"""tasks.deleted_at: one image of a generation deleted by its owner (issue 33 item 7). The row
stays, as a deleted generation's does, so that the workflow's accounting (charged, refunded per
image) and the ledger still point at something; the owner's views leave it out.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.drop_column("deleted_at")
