"""Look-alike usernames (issue 25): players gain ``username_skeleton``, the
:func:`~basra.confusables.lookalike_key` of their username (Unicode's confusable skeleton,
case folded, separators dropped), indexed, so that a new account's name is checked against
every live account's look. Filled here for every account already there; not unique, since
accounts made before may already look alike (they keep their names).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from basra.confusables import lookalike_key

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("username_skeleton", sa.Text(), nullable=True))
    op.create_index(op.f("ix_players_username_skeleton"), "players", ["username_skeleton"])
    players = sa.table("players", sa.column("id", sa.Text()), sa.column("username", sa.Text()),
                       sa.column("username_skeleton", sa.Text()))
    connection = op.get_bind()
    accounts = connection.execute(sa.select(players.c.id, players.c.username).where(
        players.c.username.is_not(None))).all()
    for player_id, username in accounts:
        connection.execute(sa.update(players).where(players.c.id == player_id)
                           .values(username_skeleton=lookalike_key(username)))


def downgrade() -> None:
    """Back to 0004 (PostgreSQL; SQLite cannot drop the column in place)."""
    op.drop_index(op.f("ix_players_username_skeleton"), table_name="players")
    op.drop_column("players", "username_skeleton")
