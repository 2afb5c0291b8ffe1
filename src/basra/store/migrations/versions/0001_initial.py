"""The first schema: players, tables, their seats, rounds and plays.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from basra.store.migrations.columns import integer, text, timestamp

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        text("id"), text("nickname"), text("token_hash"), timestamp("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.create_table(
        "tables",
        text("id"), text("kind"), text("variant"), integer("seats"),
        sa.Column("teams", sa.Boolean(), nullable=False),
        sa.Column("clock_seconds", sa.Float(), nullable=False),
        text("bot_level"), text("status"), timestamp("created_at"),
        text("invite_code", nullable=True), text("owner_id", nullable=True),
        timestamp("finished_at", nullable=True),
        sa.Column("result", sa.JSON(none_as_null=True).with_variant(
            postgresql.JSONB(none_as_null=True), "postgresql"), nullable=True),
        text("rematch_of", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sa.UniqueConstraint("invite_code", name=op.f("uq_tables_invite_code")),
        sa.CheckConstraint("kind IN ('bot', 'quick', 'private')", name=op.f("ck_tables_kind")),
        sa.CheckConstraint("status IN ('waiting', 'playing', 'finished', 'abandoned')",
                           name=op.f("ck_tables_status")),
        sa.ForeignKeyConstraint(["owner_id"], ["players.id"],
                                name=op.f("fk_tables_owner_id_players")),
        sa.ForeignKeyConstraint(["rematch_of"], ["tables.id"],
                                name=op.f("fk_tables_rematch_of_tables")),
    )
    op.create_index(op.f("ix_tables_status"), "tables", ["status"])
    op.create_table(
        "table_seats",
        text("table_id"), integer("seat"), text("player_id", nullable=True),
        text("bot_level", nullable=True), text("client_seed"),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_table_seats")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE",
                                name=op.f("fk_table_seats_table_id_tables")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_table_seats_player_id_players")),
    )
    op.create_index(op.f("ix_table_seats_player_id"), "table_seats", ["player_id"])
    op.create_table(
        "rounds",
        text("table_id"), integer("number"), text("server_seed"), text("commitment"),
        text("client_seed", nullable=True), timestamp("started_at", nullable=True),
        sa.PrimaryKeyConstraint("table_id", "number", name=op.f("pk_rounds")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE",
                                name=op.f("fk_rounds_table_id_tables")),
    )
    op.create_table(
        "plays",
        text("table_id"), integer("round_number"), integer("index"), integer("seat"),
        text("card"), text("take"),
        sa.Column("by_bot", sa.Boolean(), nullable=False),
        timestamp("created_at"),
        sa.PrimaryKeyConstraint("table_id", "round_number", "index", name=op.f("pk_plays")),
        sa.ForeignKeyConstraint(["table_id", "round_number"],
                                ["rounds.table_id", "rounds.number"], ondelete="CASCADE",
                                name=op.f("fk_plays_table_id_rounds")),
    )


def downgrade() -> None:
    for name in ("plays", "rounds", "table_seats", "tables", "players"):
        op.drop_table(name)
