"""tasks.content_credentials: the summary of the Content Credentials (C2PA) signed into a task's
output (issue 37): action, digital source type, ingredients, engine, signer, and the signed file's
sha256. Null for outputs stored before signing began.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-28 06:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.add_column(sa.Column("content_credentials", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.drop_column("content_credentials")
