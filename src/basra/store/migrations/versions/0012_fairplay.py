"""Fair play (issue 31): reports, the moderators' append-only log, players' standing
(roles, mutes, rated bans, forced renames, warnings), the matches players left, the
expert's per-game summaries of rated matches, the ledger of rating refunds, and the words
moderators added to the names' list.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from basra.store.migrations.columns import text, timestamp

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def player(name: str = "player_id", ondelete: str = "CASCADE",
           nullable: bool = False) -> sa.Column[str]:
    return sa.Column(name, sa.Text(), sa.ForeignKey("players.id", ondelete=ondelete),
                     nullable=nullable)


def document(name: str, nullable: bool = True) -> sa.Column[object]:
    return sa.Column(name, sa.JSON(none_as_null=True).with_variant(
        JSONB(none_as_null=True), "postgresql"), nullable=nullable)


def flag(name: str) -> sa.Column[bool]:
    return sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false())


def append_only(table: str) -> None:
    """The database itself refuses to change or delete a row of ``table``."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"""CREATE FUNCTION {table}_append_only() RETURNS trigger AS $$
            BEGIN RAISE EXCEPTION '{table} is append-only'; END $$ LANGUAGE plpgsql""")
        op.execute(f"""CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION {table}_append_only()""")
        return
    for event in ("UPDATE", "DELETE"):
        op.execute(f"""CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table}
            BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END""")


def upgrade() -> None:
    op.create_table(
        "reports", text("id"), player("reporter_id", "SET NULL", nullable=True), player(),
        text("reason"), text("note"), text("status"), timestamp("created_at"),
        text("table_id", nullable=True), timestamp("resolved_at", nullable=True),
        text("resolved_by", nullable=True), text("outcome", nullable=True), document("detail"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
        sa.CheckConstraint("reason IN ('cheating', 'leaving', 'name', 'phrases', 'other')",
                           name=op.f("ck_reports_reason")),
        sa.CheckConstraint("status IN ('open', 'dismissed', 'actioned')",
                           name=op.f("ck_reports_status")))
    op.create_index(op.f("ix_reports_status"), "reports", ["status", "created_at"])
    op.create_index(op.f("ix_reports_player_id"), "reports", ["player_id", "created_at"])
    op.create_index(op.f("ix_reports_reporter_id"), "reports", ["reporter_id", "created_at"])
    op.create_table(
        "mod_log", sa.Column("id", sa.Integer(), nullable=False, autoincrement=True),
        timestamp("at"), text("moderator_id"), text("moderator_name"), text("player_id"),
        text("player_name"), text("action"), text("reason"), text("report_id", nullable=True),
        document("detail"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mod_log")))
    op.create_index(op.f("ix_mod_log_player_id"), "mod_log", ["player_id", "id"])
    append_only("mod_log")
    op.create_table(
        "sanctions", player(), text("role", nullable=True), flag("muted"), flag("rated_ban"),
        flag("rename"), sa.Column("warnings", sa.Integer(), nullable=False, server_default="0"),
        timestamp("updated_at"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_sanctions")),
        sa.CheckConstraint("role IN ('moderator')", name=op.f("ck_sanctions_role")))
    op.create_table(
        "leaves", player(), text("table_id"), timestamp("at"),
        sa.PrimaryKeyConstraint("player_id", "table_id", name=op.f("pk_leaves")))
    op.create_index(op.f("ix_leaves_player_id"), "leaves", ["player_id", "at"])
    op.create_table(
        "assist_games", player(), text("table_id"), text("variant"), timestamp("at"),
        sa.Column("rating", sa.Float(), nullable=False), document("summary", nullable=False),
        sa.PrimaryKeyConstraint("player_id", "table_id", name=op.f("pk_assist_games")))
    op.create_index(op.f("ix_assist_games_player_id"), "assist_games", ["player_id", "at"])
    op.create_table(
        "refunds", text("player_id"), text("table_id"), text("victim_id"), text("variant"),
        sa.Column("points", sa.Float(), nullable=False), timestamp("at"),
        sa.PrimaryKeyConstraint("player_id", "table_id", "victim_id",
                                name=op.f("pk_refunds")))
    op.create_table(
        "name_words", text("word"), text("added_by"), timestamp("added_at"),
        sa.PrimaryKeyConstraint("word", name=op.f("pk_name_words")))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER mod_log_append_only ON mod_log")
        op.execute("DROP FUNCTION mod_log_append_only()")
    for name in ("name_words", "refunds", "assist_games", "leaves", "sanctions", "mod_log",
                 "reports"):
        op.drop_table(name)

