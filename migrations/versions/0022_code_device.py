"""one_time_codes.device: the known browser (device cookie id) a password-reset code was asked
from, NULL for any other browser. A code works only for the requester that asked for it, so a
stranger's guesses never spend the owner's code (issue 33 item 3).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27 23:55:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("one_time_codes") as table:
        table.add_column(sa.Column("device", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("one_time_codes") as table:
        table.drop_column("device")
