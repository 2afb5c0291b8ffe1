"""A stolen token is not an account (issue 25): a session gains ``proved_at``, when its
holder last proved who they are (the password or a passkey); adding a passkey or a password,
removing a passkey, exporting and deleting need a proof of the last few minutes. A passkey
gains ``added_by`` and ``added_from``, the session and browser it was added from, so that
"sign out everywhere" can name the passkeys the ended sessions added. Existing rows keep
nulls: never proved, added from an unknown session.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("proved_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("passkeys", sa.Column("added_by", sa.Text(), nullable=True))
    op.add_column("passkeys", sa.Column("added_from", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("passkeys", "added_from")
    op.drop_column("passkeys", "added_by")
    op.drop_column("sessions", "proved_at")
