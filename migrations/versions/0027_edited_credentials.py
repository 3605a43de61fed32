"""tasks.edited_credentials: the summary of the Content Credentials (C2PA) signed into the
retouched version an operator attached to a task's output (issue 37): a c2pa.edited of the
output, which is its parent ingredient by hash. Null when there is no retouch, for one attached
before signing began, or for one in a format that cannot carry them here (WebP).

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-28 06:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.add_column(sa.Column("edited_credentials", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tasks") as table:
        table.drop_column("edited_credentials")
