"""catalog_items.tone: a digital model's skin tone (CIE Lab of the cheeks, as the engine
measures it), measured once on the imaging queue (activities/catalog.py), so the model list and
the submit can tell before any charge which models a photo can be swapped to (issue 33 item 9,
core/photos/tone_match.py). Null until measured.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28 00:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("catalog_items") as table:
        table.add_column(sa.Column("tone", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("catalog_items") as table:
        table.drop_column("tone")
