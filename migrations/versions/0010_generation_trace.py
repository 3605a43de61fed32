"""generation trace: the trace id of the request that submitted each generation

Operators go from a service id to its trace (`python -m ops.trace SERVICE_ID`, the admin view)
without searching every span for it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("generations") as batch_op:
        batch_op.add_column(sa.Column("trace_id", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("generations") as batch_op:
        batch_op.drop_column("trace_id")
