"""Accounts, sessions, passkeys and ratings (issue 12).

Players gain a username, its case-folded key (unique), a password hash and a deletion
time; sessions move to a table of their own (every existing guest's token becomes its
first session, so nobody is signed out); passkeys and WebAuthn challenges get tables;
ratings are kept per player and variant; a table says whether it is rated, and each seat
of a rated match keeps its player's rating before and after it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from basra.store.migrations.columns import text, timestamp

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def owned_by_player(table: str, nullable: bool = False) -> list[Any]:
    return [text("player_id", nullable=nullable),
            sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                    name=op.f(f"fk_{table}_player_id_players"))]


def upgrade() -> None:
    for column in (text("username", True), text("username_key", True),
                   text("password_hash", True), timestamp("deleted_at", True)):
        op.add_column("players", column)
    op.create_index(op.f("ix_players_username_key"), "players", ["username_key"],
                    unique=True)
    op.create_table(
        "sessions",
        text("id"), *owned_by_player("sessions"), text("token_hash"), text("kind"),
        timestamp("created_at"), text("user_agent", True), text("address", True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_sessions_token_hash")),
        sa.CheckConstraint("kind IN ('guest', 'password', 'passkey')",
                           name=op.f("ck_sessions_kind")),
    )
    op.create_index(op.f("ix_sessions_player_id"), "sessions", ["player_id"])
    # Every guest keeps the session it has: its token's hash becomes its first session.
    op.execute("INSERT INTO sessions (id, player_id, token_hash, kind, created_at) "
               "SELECT 'first-' || id, id, token_hash, 'guest', created_at FROM players")
    op.create_table(
        "passkeys",
        text("credential_id"), *owned_by_player("passkeys"),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        text("name"), text("transports"), timestamp("created_at"),
        timestamp("last_used_at", True),
        sa.PrimaryKeyConstraint("credential_id", name=op.f("pk_passkeys")),
    )
    op.create_index(op.f("ix_passkeys_player_id"), "passkeys", ["player_id"])
    op.create_table(
        "challenges",
        text("id"), sa.Column("challenge", sa.LargeBinary(), nullable=False),
        text("purpose"), *owned_by_player("challenges", nullable=True),
        timestamp("expires_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
    )
    op.create_index(op.f("ix_challenges_expires_at"), "challenges", ["expires_at"])
    op.create_table(
        "ratings",
        *owned_by_player("ratings"), text("variant"),
        *(sa.Column(name, sa.Float(), nullable=False)
          for name in ("rating", "deviation", "volatility")),
        sa.Column("games", sa.Integer(), nullable=False), timestamp("rated_at"),
        sa.PrimaryKeyConstraint("player_id", "variant", name=op.f("pk_ratings")),
    )
    op.create_index(op.f("ix_ratings_variant"), "ratings", ["variant", "rating"])
    op.add_column("tables", sa.Column("rated", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    for name in ("rating_before", "rating_after", "deviation_after"):
        op.add_column("table_seats", sa.Column(name, sa.Float(), nullable=True))


def downgrade() -> None:
    """Back to 0002 (PostgreSQL; SQLite cannot drop these columns in place)."""
    for name in ("rating_before", "rating_after", "deviation_after"):
        op.drop_column("table_seats", name)
    op.drop_column("tables", "rated")
    for name in ("ratings", "challenges", "passkeys", "sessions"):
        op.drop_table(name)
    op.drop_index(op.f("ix_players_username_key"), table_name="players")
    for name in ("deleted_at", "password_hash", "username_key", "username"):
        op.drop_column("players", name)
