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
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

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


ColumnType = type[TypeEngine[Any]] | TypeEngine[Any]


def required(**types: ColumnType) -> list[Column[Any]]:
    """NOT NULL columns of these names and types, in the order given."""
    return [Column(name, type_, nullable=False) for name, type_ in types.items()]


def optional(**types: ColumnType) -> list[Column[Any]]:
    """Columns of these names and types that may be NULL, in the order given."""
    return [Column(name, type_, nullable=True) for name, type_ in types.items()]


def table_id() -> Column[str]:
    """The column of a table's own rows: they go when the table goes."""
    return Column("table_id", Text, ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False)


def player_id(nullable: bool = False) -> Column[str]:
    """The column of a player's own rows: they go when the player goes."""
    return Column("player_id", Text, ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=nullable)


players = Table(
    "players", metadata,
    *required(id=Text, nickname=Text, token_hash=Text, created_at=UtcDateTime),
    *optional(
        username=Text,  # as claimed (None: a guest)
        username_key=Text,  # case-folded: what makes it unique
        password_hash=Text,
        deleted_at=UtcDateTime,
        # basra.confusables.lookalike_key(username): no two live accounts look alike (0005)
        username_skeleton=Text),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("token_hash"),
    Index(None, "username_key", unique=True),
    Index(None, "username_skeleton"),
)
"""``token_hash`` is the hash of the guest's first session's token (0001 kept sessions
here; since 0003 they are in ``sessions``, which alone signs anyone in)."""

sessions = Table(
    "sessions", metadata,
    Column("id", Text, nullable=False),
    player_id(),
    *required(token_hash=Text, kind=Text, created_at=UtcDateTime),
    *optional(user_agent=Text, address=Text, last_seen_at=UtcDateTime, proved_at=UtcDateTime),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("token_hash"),
    Index(None, "player_id"),
    CheckConstraint("kind IN ('guest', 'password', 'passkey')", name="kind"),
)

passkeys = Table(
    "passkeys", metadata,
    Column("credential_id", Text, nullable=False),
    player_id(),
    *required(public_key=LargeBinary, sign_count=Integer, name=Text, transports=Text,
              created_at=UtcDateTime),
    *optional(last_used_at=UtcDateTime, added_by=Text, added_from=Text),
    PrimaryKeyConstraint("credential_id"),
    Index(None, "player_id"),
)

challenges = Table(
    "challenges", metadata,
    *required(id=Text, challenge=LargeBinary, purpose=Text),
    player_id(nullable=True),
    Column("expires_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("id"),
    Index(None, "expires_at"),
)

ratings = Table(
    "ratings", metadata,
    player_id(),
    *required(variant=Text, rating=Float, deviation=Float, volatility=Float, games=Integer,
              rated_at=UtcDateTime),
    PrimaryKeyConstraint("player_id", "variant"),
    Index(None, "variant", "rating"),
)

tables = Table(
    "tables", metadata,
    *required(id=Text, kind=Text, variant=Text, seats=Integer, teams=Boolean,
              clock_seconds=Float, bot_level=Text, status=Text, created_at=UtcDateTime),
    Column("invite_code", Text, nullable=True),
    Column("owner_id", Text, ForeignKey("players.id"), nullable=True),
    *optional(finished_at=UtcDateTime, result=json_type()),
    Column("rematch_of", Text, ForeignKey("tables.id"), nullable=True),
    Column("rated", Boolean, nullable=False, server_default=false()),
    # RULES.md 6.5: the full match or the short one (0008)
    Column("length", Text, nullable=False, server_default="full"),
    Column("tournament_id", Text, nullable=True),  # the tournament that made it (0008)
    # an open table: listed in the lobby for anyone to sit at (0009)
    Column("listed", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("invite_code"),
    CheckConstraint("kind IN ('bot', 'quick', 'private', 'tournament')", name="kind"),
    CheckConstraint("status IN ('waiting', 'playing', 'finished', 'abandoned')",
                    name="status"),
    CheckConstraint("length IN ('full', 'short')", name="length"),
    Index(None, "status"),
    Index(None, "rematch_of"),
    Index(None, "tournament_id"),
)
"""``tournament_id`` is no foreign key: a pairing is stored before its table, and the table
port knows nothing of tournaments."""

table_seats = Table(
    "table_seats", metadata,
    table_id(),
    Column("seat", Integer, nullable=False),
    Column("player_id", Text, ForeignKey("players.id"), nullable=True),
    Column("bot_level", Text, nullable=True),
    Column("client_seed", Text, nullable=False),
    # deviation_after: a rated match's, for its player
    *optional(rating_before=Float, rating_after=Float, deviation_after=Float),
    PrimaryKeyConstraint("table_id", "seat"),
    Index(None, "player_id"),
)

rounds = Table(
    "rounds", metadata,
    table_id(),
    *required(number=Integer, server_seed=Text, commitment=Text),
    *optional(client_seed=Text, started_at=UtcDateTime),
    PrimaryKeyConstraint("table_id", "number"),
)

analyses = Table(
    "analyses", metadata,
    table_id(),
    *required(status=Text, claim=Text, iterations=Integer, seed=Integer,
              requested_at=UtcDateTime, updated_at=UtcDateTime),
    *optional(analysis=json_type(), message=Text),
    PrimaryKeyConstraint("table_id"),
    CheckConstraint("status IN ('running', 'done', 'failed')", name="status"),
)
"""The expert's analysis of a finished match (0004): ``running`` once a node took it
under its ``claim`` (``updated_at`` moves as it waits and goes: a row left still long enough
was a node that died; only the claim's holder may write it), then
``done`` with the basra-analysis/1 document, or ``failed`` with a one-line message."""

plays = Table(
    "plays", metadata,
    *required(table_id=Text, round_number=Integer, index=Integer, seat=Integer, card=Text,
              take=Text, by_bot=Boolean, created_at=UtcDateTime),
    PrimaryKeyConstraint("table_id", "round_number", "index"),
    ForeignKeyConstraint(["table_id", "round_number"], ["rounds.table_id", "rounds.number"],
                         ondelete="CASCADE"),
)


def tournament_id() -> Column[str]:
    """The column of a tournament's own rows: they go when the tournament goes."""
    return Column("tournament_id", Text, ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False)


tournaments = Table(
    "tournaments", metadata,
    *required(id=Text, name=Text, variant=Text, format=Text, status=Text,
              starts_at=UtcDateTime, created_at=UtcDateTime, round=Integer, rated=Boolean,
              length=Text, private=Boolean),
    *optional(minutes=Integer, rounds=Integer, clock_seconds=Float, min_rating=Integer,
              max_rating=Integer, password_hash=Text),
    Column("created_by", Text, ForeignKey("players.id"), nullable=True),
    *optional(schedule_key=Text, started_at=UtcDateTime, finished_at=UtcDateTime),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("schedule_key"),
    CheckConstraint("format IN ('arena', 'swiss')", name="format"),
    CheckConstraint("status IN ('upcoming', 'running', 'finished', 'cancelled')",
                    name="status"),
    CheckConstraint("length IN ('full', 'short')", name="length"),
    Index(None, "status", "starts_at"),
)
"""Arenas and Swiss events (0008); a scheduled one's ``schedule_key`` is unique, so that
the nodes of a cluster make it once."""

tournament_entrants = Table(
    "tournament_entrants", metadata,
    tournament_id(),
    *required(id=Text, name=Text, rating=Float, status=Text, joined_at=UtcDateTime,
              absences=Integer),
    Column("place", Integer, nullable=True),
    PrimaryKeyConstraint("tournament_id", "id"),
    CheckConstraint("status IN ('active', 'paused', 'withdrawn')", name="status"),
)

tournament_players = Table(
    "tournament_players", metadata,
    *required(tournament_id=Text, entrant_id=Text, position=Integer),
    Column("player_id", Text, ForeignKey("players.id"), nullable=False),
    PrimaryKeyConstraint("tournament_id", "entrant_id", "position"),
    ForeignKeyConstraint(["tournament_id", "entrant_id"],
                         ["tournament_entrants.tournament_id", "tournament_entrants.id"],
                         ondelete="CASCADE"),
    UniqueConstraint("tournament_id", "player_id"),
    Index(None, "player_id"),
)
"""The players making up each entrant, in order: a player is in one entrant of a
tournament at most."""

tournament_pairings = Table(
    "tournament_pairings", metadata,
    tournament_id(),
    *required(id=Text, round=Integer, number=Integer),
    Column("table_id", Text, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    Column("decided_at", UtcDateTime, nullable=True),
    PrimaryKeyConstraint("tournament_id", "id"),
)
"""``number``: the pairing's in its tournament, 1, 2, ... in the order stored (the order
read). ``table_id`` is no foreign key: the pairing is stored first, its table after it.
Decided when ``decided_at`` is set, its points with it."""

tournament_seats = Table(
    "tournament_seats", metadata,
    *required(tournament_id=Text, pairing_id=Text, seat=Integer, round=Integer,
              entrant_id=Text, absent=Boolean),
    *optional(points=Float, rating=Float),
    PrimaryKeyConstraint("tournament_id", "pairing_id", "seat"),
    ForeignKeyConstraint(["tournament_id", "pairing_id"],
                         ["tournament_pairings.tournament_id", "tournament_pairings.id"],
                         ondelete="CASCADE"),
    ForeignKeyConstraint(["tournament_id", "entrant_id"],
                         ["tournament_entrants.tournament_id", "tournament_entrants.id"],
                         ondelete="CASCADE"),
    UniqueConstraint("tournament_id", "round", "entrant_id"),
)
"""A pairing's entrants in seat order, with their points, absence and rating. Unique by
(tournament, round, entrant): no entrant is paired twice in a round, however many nodes
pair at once (:class:`~basra.store.base.DuplicatePairing`)."""

follows = Table(
    "follows", metadata,
    Column("follower_id", Text, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("followee_id", Text, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("follower_id", "followee_id"),
    Index(None, "followee_id"),
)
"""Who follows whom (0009): one's friends are the accounts one follows."""

blocks = Table(
    "blocks", metadata,
    Column("blocker_id", Text, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("blocked_id", Text, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("blocker_id", "blocked_id"),
    Index(None, "blocked_id"),
)
"""Who blocks whom (0009): the blocked cannot follow, challenge or meet the blocker, and
their phrases never reach them."""

player_settings = Table(
    "player_settings", metadata,
    player_id(),
    Column("challenges", Text, nullable=False),
    Column("prefs", json_type(), nullable=True),
    PrimaryKeyConstraint("player_id"),
    CheckConstraint("challenges IN ('anyone', 'friends', 'nobody')", name="challenges"),
)
"""A player's settings: who may challenge them (0009; no row: anyone), and an account's
browser settings (0011, ``prefs``: the /settings page's object; null until first saved)."""

game_challenges = Table(
    "game_challenges", metadata,
    *required(id=Text, variant=Text, players=Integer, teams=Boolean, rated=Boolean,
              length=Text, status=Text, created_at=UtcDateTime, expires_at=UtcDateTime),
    Column("challenger_id", Text, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("challenged_id", Text, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    *optional(table_id=Text, answered_at=UtcDateTime),
    PrimaryKeyConstraint("id"),
    Index(None, "challenged_id"),
    Index(None, "challenger_id"),
    CheckConstraint("status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')",
                    name="status"),
)
"""Challenges between players (0009): open until answered or expired; an accepted one
names the table it made."""

notifications = Table(
    "notifications", metadata,
    Column("id", Text, nullable=False),
    player_id(),
    *required(kind=Text, created_at=UtcDateTime),
    Column("body", json_type(), nullable=False),
    Column("read_at", UtcDateTime, nullable=True),
    PrimaryKeyConstraint("id"),
    Index(None, "player_id", "created_at"),
)
"""What the bell shows (0009): a player's notifications, the newest kept."""

push_subscriptions = Table(
    "push_subscriptions", metadata,
    Column("endpoint", Text, nullable=False),
    player_id(),
    *required(p256dh=Text, auth=Text, created_at=UtcDateTime),
    PrimaryKeyConstraint("endpoint"),
    Index(None, "player_id"),
)
"""Web Push subscriptions (0009): where a player's browsers take pushes, opted in."""

lesson_progress = Table(
    "lesson_progress", metadata,
    player_id(),
    *required(lesson=Text, done_at=UtcDateTime),
    PrimaryKeyConstraint("player_id", "lesson"),
)
"""The lessons a player finished (0010): one row a lesson, when it was first finished."""

puzzle_players = Table(
    "puzzle_players", metadata,
    player_id(),
    *required(rating=Float, deviation=Float, volatility=Float, played=Integer, solved=Integer,
              best_streak=Integer, updated_at=UtcDateTime),
    PrimaryKeyConstraint("player_id"),
)
"""A player's puzzle rating (0010): Glicko-2 as the match ratings, over puzzles."""

puzzle_ratings = Table(
    "puzzle_ratings", metadata,
    Column("puzzle_id", Text, nullable=False),
    *required(rating=Float, deviation=Float, volatility=Float, played=Integer, solved=Integer),
    PrimaryKeyConstraint("puzzle_id"),
)
"""A puzzle's own rating (0010), once someone has tried it (before: the rating it ships
with)."""

puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    player_id(),
    *required(puzzle_id=Text, mode=Text, served_at=UtcDateTime),
    *optional(result=Text, finished_at=UtcDateTime),
    PrimaryKeyConstraint("player_id", "puzzle_id"),
    CheckConstraint("mode IN ('rated', 'daily', 'practice')", name="mode"),
    CheckConstraint("result IN ('solved', 'failed')", name="result"),
)
"""A player's first meeting with a puzzle (0010): how the server served it (``rated`` and
``daily`` are rated; ``practice``, a streak's or a puzzle opened by its link, is not), and
how the first try ended (NULL while it is open). A puzzle rates a player once."""

reports = Table(
    "reports", metadata,
    Column("id", Text, nullable=False),
    # None: raised by the server itself (the expert's statistic: an assistance flag)
    Column("reporter_id", Text, ForeignKey("players.id", ondelete="SET NULL"), nullable=True),
    player_id(),
    *required(reason=Text, note=Text, status=Text, created_at=UtcDateTime),
    *optional(table_id=Text, resolved_at=UtcDateTime, resolved_by=Text, outcome=Text,
              detail=json_type()),
    PrimaryKeyConstraint("id"),
    CheckConstraint("reason IN ('cheating', 'leaving', 'name', 'phrases', 'other')",
                    name="reason"),
    CheckConstraint("status IN ('open', 'dismissed', 'actioned')", name="status"),
    Index(None, "status", "created_at"),
    Index(None, "player_id", "created_at"),
    Index(None, "reporter_id", "created_at"),
)
"""Reports of a player (0012), by a player or by the server (an assistance flag: no
``reporter_id``, the statistic in ``detail``); ``open`` until a moderator dismisses it or
acts on it (``outcome``: the action taken)."""

mod_log = Table(
    "mod_log", metadata,
    Column("id", Integer, nullable=False, autoincrement=True),
    *required(at=UtcDateTime, moderator_id=Text, moderator_name=Text, player_id=Text,
              player_name=Text, action=Text, reason=Text),
    *optional(report_id=Text, detail=json_type()),
    PrimaryKeyConstraint("id"),
    Index(None, "player_id", "id"),
)
"""Every moderator's action (0012), appended and never changed: who, when, to whom, what and
why. No foreign keys: the log outlives the accounts it names (their names as they were)."""

sanctions = Table(
    "sanctions", metadata,
    player_id(),
    Column("role", Text, nullable=True),  # 'moderator'
    Column("muted", Boolean, nullable=False, server_default=false()),
    Column("rated_ban", Boolean, nullable=False, server_default=false()),
    Column("rename", Boolean, nullable=False, server_default=false()),
    Column("warnings", Integer, nullable=False, server_default="0"),
    Column("updated_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("player_id"),
    CheckConstraint("role IN ('moderator')", name="role"),
)
"""A player's standing with the site (0012): a role the operator gave, and what moderators
decided (phrases muted, banned from rated play and tournaments, a new name required, how
many warnings). No row: a player in good standing."""

leaves = Table(
    "leaves", metadata,
    player_id(),
    *required(table_id=Text, at=UtcDateTime),
    PrimaryKeyConstraint("player_id", "table_id"),
    Index(None, "player_id", "at"),
)
"""Matches a player left (0012): their seat was played by its bot at the end, the player
gone past the grace period and never back; written with the match's result."""

assist_games = Table(
    "assist_games", metadata,
    player_id(),
    *required(table_id=Text, variant=Text, at=UtcDateTime, rating=Float, summary=json_type()),
    PrimaryKeyConstraint("player_id", "table_id"),
    Index(None, "player_id", "at"),
)
"""A player's rated matches as the expert's analysis saw them (0012): the per-game summary
of :mod:`basra.match.assist` and the player's rating before the match."""

refunds = Table(
    "refunds", metadata,
    *required(player_id=Text, table_id=Text, victim_id=Text, variant=Text, points=Float,
              at=UtcDateTime),
    PrimaryKeyConstraint("player_id", "table_id", "victim_id"),
)
"""The ledger of refunds (0012): the points a banned player's (``player_id``) opponent
(``victim_id``) got back for one rated match; each once ever. No foreign keys: kept as
the log is."""

name_words = Table(
    "name_words", metadata,
    *required(word=Text, added_by=Text, added_at=UtcDateTime),
    PrimaryKeyConstraint("word"),
)
"""Words moderators added to the shipped list of words no name may hold (0012)."""
