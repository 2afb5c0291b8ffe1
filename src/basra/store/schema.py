"""The store's tables as SQLAlchemy Core metadata.

The migrations (``migrations/versions``) create these tables; a test checks that the
migrated database and this metadata agree. Constraint names follow
:data:`NAMING_CONVENTION`, so that later migrations can name what they change.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "pk": "pk_%(table_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every back end.

    PostgreSQL keeps a ``timestamptz``; SQLite keeps the UTC time as text without a zone
    (ISO order, so it sorts as time does) and gets its zone back when read. A naive
    datetime is refused: the store cannot know its zone.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value}: the store keeps aware UTC times")
        utc = value.astimezone(UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def json_type() -> JSON:
    """JSON (JSONB on PostgreSQL); Python None is SQL NULL, not the JSON ``null``."""
    return JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


players = Table(
    "players", metadata,
    Column("id", Text, nullable=False),
    Column("nickname", Text, nullable=False),
    Column("token_hash", Text, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("token_hash"),
)

tables = Table(
    "tables", metadata,
    Column("id", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("variant", Text, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("teams", Boolean, nullable=False),
    Column("clock_seconds", Float, nullable=False),
    Column("bot_level", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("invite_code", Text, nullable=True),
    Column("owner_id", Text, ForeignKey("players.id"), nullable=True),
    Column("finished_at", UtcDateTime, nullable=True),
    Column("result", json_type(), nullable=True),
    Column("rematch_of", Text, ForeignKey("tables.id"), nullable=True),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("invite_code"),
    CheckConstraint("kind IN ('bot', 'quick', 'private')", name="kind"),
    CheckConstraint("status IN ('waiting', 'playing', 'finished', 'abandoned')",
                    name="status"),
    Index(None, "status"),
    Index(None, "rematch_of"),
)

table_seats = Table(
    "table_seats", metadata,
    Column("table_id", Text, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Text, ForeignKey("players.id"), nullable=True),
    Column("bot_level", Text, nullable=True),
    Column("client_seed", Text, nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
    Index(None, "player_id"),
)

rounds = Table(
    "rounds", metadata,
    Column("table_id", Text, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("server_seed", Text, nullable=False),
    Column("commitment", Text, nullable=False),
    Column("client_seed", Text, nullable=True),
    Column("started_at", UtcDateTime, nullable=True),
    PrimaryKeyConstraint("table_id", "number"),
)

plays = Table(
    "plays", metadata,
    Column("table_id", Text, nullable=False),
    Column("round_number", Integer, nullable=False),
    Column("index", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("card", Text, nullable=False),
    Column("take", Text, nullable=False),
    Column("by_bot", Boolean, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("table_id", "round_number", "index"),
    ForeignKeyConstraint(["table_id", "round_number"], ["rounds.table_id", "rounds.number"],
                         ondelete="CASCADE"),
)
