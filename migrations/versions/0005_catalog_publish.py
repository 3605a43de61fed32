"""catalog: a publish state on catalog items (operators upload, then publish)

Items that exist already (the seeded catalog) stay visible: the column defaults to true.
Uploads through /api/v1/admin/catalog start unpublished (core/catalog/admin.py says so).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("catalog_items") as batch_op:
        batch_op.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("catalog_items") as batch_op:
        batch_op.drop_column("published")
