"""task placement: re-renders of a task with the user's placement adjustment (issue 13)

A re-render is a new task of the same generation: `source_task_id` names the task whose input
it renders again, `placement_x`/`placement_y`/`placement_scale` the user's move and scale.
`rerenders` on the source counts them (a conditional update keeps the free work bounded).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as batch_op:
        batch_op.add_column(sa.Column("source_task_id", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("placement_x", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("placement_y", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("placement_scale", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("rerenders", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.create_index("ix_tasks_source_task_id", ["source_task_id"])


def downgrade() -> None:
    with op.batch_alter_table("tasks") as batch_op:
        batch_op.drop_index("ix_tasks_source_task_id")
        batch_op.drop_column("rerenders")
        batch_op.drop_column("placement_scale")
        batch_op.drop_column("placement_y")
        batch_op.drop_column("placement_x")
        batch_op.drop_column("source_task_id")
