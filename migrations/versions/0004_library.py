"""library: user roles, deleted generations, sharing and showcase, edited images, feedback,
contact messages

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 06:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch_op:
        batch_op.add_column(
            sa.Column("role", sa.String(length=16), nullable=False, server_default="user")
        )
    with op.batch_alter_table("generations") as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("tasks") as batch_op:
        batch_op.add_column(sa.Column("input_mime", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("shared_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("showcased_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("edited_key", sa.String(length=512), nullable=True))
        batch_op.add_column(
            sa.Column("edited_thumbnail_key", sa.String(length=512), nullable=True)
        )
        batch_op.add_column(sa.Column("edited_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "image_feedback",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("task_id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.String(length=8), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["task_id"], ["tasks.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("task_id", "account_id"),
    )
    with op.batch_alter_table("image_feedback") as batch_op:
        batch_op.create_index(batch_op.f("ix_image_feedback_task_id"), ["task_id"])
        batch_op.create_index(batch_op.f("ix_image_feedback_account_id"), ["account_id"])
    op.create_table(
        "contact_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=True),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("topic", sa.String(length=32), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("contact_messages")
    with op.batch_alter_table("image_feedback") as batch_op:
        batch_op.drop_index(batch_op.f("ix_image_feedback_account_id"))
        batch_op.drop_index(batch_op.f("ix_image_feedback_task_id"))
    op.drop_table("image_feedback")
    with op.batch_alter_table("tasks") as batch_op:
        for column in ("edited_at", "edited_thumbnail_key", "edited_key", "showcased_at",
                       "shared_at", "input_mime"):
            batch_op.drop_column(column)
    with op.batch_alter_table("generations") as batch_op:
        batch_op.drop_column("deleted_at")
    with op.batch_alter_table("users") as batch_op:
        batch_op.drop_column("role")
