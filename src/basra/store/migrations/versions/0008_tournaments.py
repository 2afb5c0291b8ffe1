"""Tournaments (issue 27): arenas and Swiss events, their entrants (and each entrant's
players), their pairings (and each pairing's entrants, unique per round). A table gains its
match length (RULES.md 6.5: ``full``, the default of every table there was, or ``short``),
the tournament that made it, and the kind ``tournament``.

Widening the check on ``tables.kind`` is one statement on PostgreSQL. SQLite cannot alter a
constraint, and rebuilding ``tables`` (Alembic's batch mode) would drop it, whose implicit
delete cascades to every seat, round and play while foreign keys are on (they cannot be
turned off inside the migration's transaction). So on SQLite the table's stored definition
is edited in place, by SQLite's own procedure for loosening a CHECK (its ALTER TABLE page,
"making other kinds of table schema changes"): every row there is already valid.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from basra.store.migrations.columns import integer, text, timestamp

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS = "kind IN ('bot', 'quick', 'private')"
KINDS_WITH_TOURNAMENT = "kind IN ('bot', 'quick', 'private', 'tournament')"


def set_kinds(old: str, new: str) -> None:
    """Replace the check on ``tables.kind``: ``old`` by ``new``."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.drop_constraint(op.f("ck_tables_kind"), "tables", type_="check")
        op.create_check_constraint(op.f("ck_tables_kind"), "tables", new)
        return
    definition = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tables'").scalar_one()
    if definition.count(old) != 1:
        raise RuntimeError(f"the check {old!r} is not in the tables' definition")
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'tables'",
        (definition.replace(old, new),))
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")


def flag(name: str) -> sa.Column[bool]:
    return sa.Column(name, sa.Boolean(), nullable=False)


def number(name: str, nullable: bool = False) -> sa.Column[float]:
    return sa.Column(name, sa.Float(), nullable=nullable)


def lengths(table: str) -> sa.CheckConstraint:
    return sa.CheckConstraint("length IN ('full', 'short')", name=op.f(f"ck_{table}_length"))


def of_entrant(table: str) -> Any:
    return sa.ForeignKeyConstraint(
        ["tournament_id", "entrant_id"],
        ["tournament_entrants.tournament_id", "tournament_entrants.id"], ondelete="CASCADE",
        name=op.f(f"fk_{table}_tournament_id_tournament_entrants"))


def upgrade() -> None:
    set_kinds(KINDS, KINDS_WITH_TOURNAMENT)
    op.add_column("tables", sa.Column("length", sa.Text(), lengths("tables"),
                                      nullable=False, server_default="full"))
    op.add_column("tables", text("tournament_id", nullable=True))
    op.create_index(op.f("ix_tables_tournament_id"), "tables", ["tournament_id"])
    op.create_table(
        "tournaments",
        text("id"), text("name"), text("variant"), text("format"), text("status"),
        timestamp("starts_at"), timestamp("created_at"), integer("round"), flag("rated"),
        text("length"), flag("private"), integer("minutes", True), integer("rounds", True),
        number("clock_seconds", True), integer("min_rating", True),
        integer("max_rating", True), text("password_hash", True), text("created_by", True),
        text("schedule_key", True), timestamp("started_at", True),
        timestamp("finished_at", True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("schedule_key", name=op.f("uq_tournaments_schedule_key")),
        sa.ForeignKeyConstraint(["created_by"], ["players.id"],
                                name=op.f("fk_tournaments_created_by_players")),
        sa.CheckConstraint("format IN ('arena', 'swiss')", name=op.f("ck_tournaments_format")),
        sa.CheckConstraint("status IN ('upcoming', 'running', 'finished', 'cancelled')",
                           name=op.f("ck_tournaments_status")),
        lengths("tournaments"),
    )
    op.create_index(op.f("ix_tournaments_status"), "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_entrants",
        text("tournament_id"), text("id"), text("name"), number("rating"), text("status"),
        timestamp("joined_at"), integer("absences"), integer("place", True),
        sa.PrimaryKeyConstraint("tournament_id", "id", name=op.f("pk_tournament_entrants")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE",
                                name=op.f("fk_tournament_entrants_tournament_id_tournaments")),
        sa.CheckConstraint("status IN ('active', 'paused', 'withdrawn')",
                           name=op.f("ck_tournament_entrants_status")),
    )
    op.create_table(
        "tournament_players",
        text("tournament_id"), text("entrant_id"), integer("position"), text("player_id"),
        sa.PrimaryKeyConstraint("tournament_id", "entrant_id", "position",
                                name=op.f("pk_tournament_players")),
        of_entrant("tournament_players"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_tournament_players_player_id_players")),
        sa.UniqueConstraint("tournament_id", "player_id",
                            name=op.f("uq_tournament_players_tournament_id")),
    )
    op.create_index(op.f("ix_tournament_players_player_id"), "tournament_players",
                    ["player_id"])
    op.create_table(
        "tournament_pairings",
        text("tournament_id"), text("id"), integer("round"), integer("number"),
        text("table_id", True), timestamp("created_at"), timestamp("decided_at", True),
        sa.PrimaryKeyConstraint("tournament_id", "id", name=op.f("pk_tournament_pairings")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE",
                                name=op.f("fk_tournament_pairings_tournament_id_tournaments")),
    )
    op.create_table(
        "tournament_seats",
        text("tournament_id"), text("pairing_id"), integer("seat"), integer("round"),
        text("entrant_id"), flag("absent"), number("points", True), number("rating", True),
        sa.PrimaryKeyConstraint("tournament_id", "pairing_id", "seat",
                                name=op.f("pk_tournament_seats")),
        sa.ForeignKeyConstraint(
            ["tournament_id", "pairing_id"],
            ["tournament_pairings.tournament_id", "tournament_pairings.id"],
            ondelete="CASCADE", name=op.f("fk_tournament_seats_tournament_id_tournament_pairings")),
        of_entrant("tournament_seats"),
        sa.UniqueConstraint("tournament_id", "round", "entrant_id",
                            name=op.f("uq_tournament_seats_tournament_id")),
    )


def downgrade() -> None:
    """Back to 0007: the tournaments go; their tables stay, as quick ones (made by the
    server, as quick match's are), and every table plays the full match again."""
    for name in ("tournament_seats", "tournament_pairings", "tournament_players",
                 "tournament_entrants", "tournaments"):
        op.drop_table(name)
    op.execute("UPDATE tables SET kind = 'quick' WHERE kind = 'tournament'")
    op.drop_index(op.f("ix_tables_tournament_id"), table_name="tables")
    op.drop_column("tables", "tournament_id")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("ck_tables_length"), "tables", type_="check")
    op.drop_column("tables", "length")
    set_kinds(KINDS_WITH_TOURNAMENT, KINDS)
