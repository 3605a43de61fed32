"""webhook_endpoints.livemode: false for an endpoint made with a test API key; test events go only
to test endpoints, live events only to live ones (issue 33 item 2). Existing endpoints are live.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27 23:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as table:
        table.add_column(
            sa.Column("livemode", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as table:
        table.drop_column("livemode")
