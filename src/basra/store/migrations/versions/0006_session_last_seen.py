"""Sessions expire (issue 25): a session gains ``last_seen_at``, when it was last used
(moved at most once an hour). A session unused for 30 days (a guest's: 180 days) or older
than a year names nobody any more (:data:`basra.store.base.SESSION_IDLE`). Existing
sessions count as used at the upgrade: nobody is signed out by it for being idle.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
    sessions = sa.table("sessions", sa.column("last_seen_at", sa.DateTime(timezone=True)))
    moment = datetime.now(UTC)
    if op.get_bind().dialect.name == "sqlite":  # kept as UTC text without a zone there
        moment = moment.replace(tzinfo=None)
    op.execute(sessions.update().values(last_seen_at=moment))


def downgrade() -> None:
    op.drop_column("sessions", "last_seen_at")
