"""Settings (issue 30): an account's browser settings (theme, deck colours, card size,
motion, sound, auto-continue, confirm before playing, the screen-reader table, language)
kept with its social settings, as one JSON object (``prefs``; null until first saved).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("player_settings", sa.Column(
        "prefs", sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql"),
        nullable=True))


def downgrade() -> None:
    op.drop_column("player_settings", "prefs")
