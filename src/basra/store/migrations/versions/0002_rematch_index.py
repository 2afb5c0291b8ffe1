"""Find a table's rematch from the store (finished tables leave memory).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(op.f("ix_tables_rematch_of"), "tables", ["rematch_of"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_rematch_of"), table_name="tables")
