"""Friends and challenges (issue 28): who follows and who blocks whom, who may challenge a
player, challenges between players, the notifications the bell shows, and Web Push
subscriptions; a table gains ``listed`` (an open table, listed in the lobby for anyone to
sit at; every table there was is not).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from basra.store.migrations.columns import integer, text, timestamp

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def player(name: str, nullable: bool = False) -> sa.Column[str]:
    return sa.Column(name, sa.Text(), sa.ForeignKey("players.id", ondelete="CASCADE"),
                     nullable=nullable)


def json_column(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.JSON(none_as_null=True).with_variant(
        JSONB(none_as_null=True), "postgresql"), nullable=False)


def upgrade() -> None:
    op.add_column("tables", sa.Column("listed", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.create_table(
        "follows", player("follower_id"), player("followee_id"), timestamp("created_at"),
        sa.PrimaryKeyConstraint("follower_id", "followee_id", name=op.f("pk_follows")))
    op.create_index(op.f("ix_follows_followee_id"), "follows", ["followee_id"])
    op.create_table(
        "blocks", player("blocker_id"), player("blocked_id"), timestamp("created_at"),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id", name=op.f("pk_blocks")))
    op.create_index(op.f("ix_blocks_blocked_id"), "blocks", ["blocked_id"])
    op.create_table(
        "player_settings", player("player_id"), text("challenges"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_settings")),
        sa.CheckConstraint("challenges IN ('anyone', 'friends', 'nobody')",
                           name=op.f("ck_player_settings_challenges")))
    op.create_table(
        "game_challenges", text("id"), text("variant"), integer("players"),
        sa.Column("teams", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False), text("length"), text("status"),
        timestamp("created_at"), timestamp("expires_at"), player("challenger_id"),
        player("challenged_id"), text("table_id", nullable=True),
        timestamp("answered_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_challenges")),
        sa.CheckConstraint(
            "status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')",
            name=op.f("ck_game_challenges_status")))
    op.create_index(op.f("ix_game_challenges_challenged_id"), "game_challenges",
                    ["challenged_id"])
    op.create_index(op.f("ix_game_challenges_challenger_id"), "game_challenges",
                    ["challenger_id"])
    op.create_table(
        "notifications", text("id"), player("player_id"), text("kind"),
        timestamp("created_at"), json_column("body"), timestamp("read_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")))
    op.create_index(op.f("ix_notifications_player_id"), "notifications",
                    ["player_id", "created_at"])
    op.create_table(
        "push_subscriptions", text("endpoint"), player("player_id"), text("p256dh"),
        text("auth"), timestamp("created_at"),
        sa.PrimaryKeyConstraint("endpoint", name=op.f("pk_push_subscriptions")))
    op.create_index(op.f("ix_push_subscriptions_player_id"), "push_subscriptions",
                    ["player_id"])


def downgrade() -> None:
    for name in ("push_subscriptions", "notifications", "game_challenges",
                 "player_settings", "blocks", "follows"):
        op.drop_table(name)
    # SQLite drops a column in place (3.35 and later): no batch rebuild of ``tables``,
    # whose implicit delete would cascade to every seat, round and play (see 0008).
    op.execute("ALTER TABLE tables DROP COLUMN listed")
