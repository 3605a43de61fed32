"""uploads: the photo analysis (what it shows, what each service can do with it), as JSON

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("files") as table:
        table.add_column(sa.Column("analysis", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("files") as table:
        table.drop_column("analysis")
