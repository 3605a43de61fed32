"""generations.livemode: false for a test API key's generations (issue 23's test mode)

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27 04:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("generations") as table:
        table.add_column(
            sa.Column("livemode", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("generations") as table:
        table.drop_column("livemode")
