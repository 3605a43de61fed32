"""tasks: the engine's note on a delivered image (e.g. "Framed from the knees up: …")

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.add_column(sa.Column("note", sa.String(300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.drop_column("note")
