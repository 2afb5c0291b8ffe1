"""The expert's analyses of finished matches (issue 14): one row a match, asked for once,
kept once done.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("claim", sa.Text(), nullable=False),
        sa.Column("iterations", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("analysis", sa.JSON(none_as_null=True).with_variant(
            JSONB(none_as_null=True), "postgresql"), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE",
                                name=op.f("fk_analyses_table_id_tables")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_analyses")),
        sa.CheckConstraint("status IN ('running', 'done', 'failed')",
                           name=op.f("ck_analyses_status")),
    )


def downgrade() -> None:
    op.drop_table("analyses")
