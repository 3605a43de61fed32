"""catalog: a short description on catalog items, and a digital model's gender, skin tone and
body type (the model picker's filters)

Items that exist already get an empty description and no attributes; the seed (ops/seed.py)
fills those it made itself while they still carry its old default names.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("catalog_items") as table:
        table.add_column(
            sa.Column("description", sa.String(length=280), nullable=False, server_default="")
        )
        table.add_column(sa.Column("gender", sa.String(length=16), nullable=True))
        table.add_column(sa.Column("skin_tone", sa.String(length=16), nullable=True))
        table.add_column(sa.Column("body_type", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("catalog_items") as table:
        table.drop_column("body_type")
        table.drop_column("skin_tone")
        table.drop_column("gender")
        table.drop_column("description")
