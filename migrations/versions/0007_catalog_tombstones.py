"""catalog: tombstones for deleted catalog items

The seed (ops/seed.py) adds every catalog item that is missing at each stack start, so a
seeded model or background an operator deleted came back. A deletion now leaves a tombstone
with the item's id, and the seed skips every id that has one.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "catalog_tombstones",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("catalog_tombstones")
