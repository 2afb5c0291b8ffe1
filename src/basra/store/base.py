"""The store: where the server keeps players, tables, rounds and plays, durably.

An async interface with two back ends behind one implementation (:mod:`basra.store.sql`):
SQLite, the embedded default, and PostgreSQL. A table's match is never stored as a state:
it is its rounds (with their fairness data) and its plays, an append-only log that the
server replays through the engine to rebuild the table after a restart. A play is
identified by (table, round, index), so storing the same play twice is refused
(:class:`DuplicatePlay`) and no accepted play is ever applied twice.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

TableKind = Literal["bot", "quick", "private"]
TableStatus = Literal["waiting", "playing", "finished", "abandoned"]


class StoreError(Exception):
    """A store operation that cannot be done (the message says why, in the database's own
    words). Not a :class:`~basra.errors.BasraError`: it is the operator's failure, not bad
    input, so the server logs it and answers ``server/internal`` without its message."""


class DuplicatePlay(StoreError):
    """A play with the same (table, round, index) is already stored."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    nickname: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    player_id: str | None
    """The seated person, or None for a bot seat or an empty one."""
    bot_level: str | None
    """The bot that plays the seat when no person does (None: empty or a person)."""
    client_seed: str
    """The seat's current client seed (FAIRNESS.md), as the player set it."""
    nickname: str | None = None
    """The seated person's nickname (filled in when read with the seat)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    kind: TableKind
    variant: str
    seats: int
    teams: bool
    clock_seconds: float
    bot_level: str
    """Level of the bots that fill seats and play for dropped or timed-out players."""
    status: TableStatus
    created_at: datetime
    invite_code: str | None = None
    owner_id: str | None = None
    finished_at: datetime | None = None
    result: dict[str, Any] | None = None
    """For a finished match: {"winner": side, "totals": [...], "sets": [...]}."""
    rematch_of: str | None = None


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    """1-based: the round's nonce (FAIRNESS.md)."""
    server_seed: str
    commitment: str
    client_seed: str | None
    """Fixed when the round starts; None while the round is pending."""
    started_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PlayRow:
    round_number: int
    index: int
    """1-based position of the play in its round."""
    seat: int
    card: str
    take: tuple[str, ...]
    by_bot: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A finished match as a player's history shows it."""

    table_id: str
    variant: str
    seat: int
    players: tuple[str, ...]
    """Names per seat (nicknames, or bot:LEVEL)."""
    teams: bool
    winner: int | None
    totals: tuple[int, ...]
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class TableLog:
    """Everything stored about a table: enough to rebuild it."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    rounds: tuple[RoundRow, ...]
    plays: tuple[PlayRow, ...] = field(default=())


class Store(ABC):
    """The server's durable storage. Every method commits before it returns."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date (Alembic migrations)."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def ping(self) -> bool:
        """Whether the database answers (for the readiness endpoint)."""

    # players
    @abstractmethod
    async def create_player(self, player_id: str, nickname: str, token_hash: str) -> PlayerRow:
        ...

    @abstractmethod
    async def player_by_token(self, token_hash: str) -> PlayerRow | None: ...

    @abstractmethod
    async def rename_player(self, player_id: str, nickname: str) -> None:
        """A player's new nickname (the tables they sit at from now on show it)."""

    @abstractmethod
    async def player(self, player_id: str) -> PlayerRow | None: ...

    # tables and seats
    @abstractmethod
    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None: ...

    @abstractmethod
    async def table(self, table_id: str) -> TableRow | None: ...

    @abstractmethod
    async def table_by_code(self, invite_code: str) -> TableRow | None: ...

    @abstractmethod
    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the table made as a rematch of ``table_id``, if any."""

    @abstractmethod
    async def set_status(self, table_id: str, status: TableStatus) -> None: ...

    @abstractmethod
    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store a seat's occupant, bot level and client seed (replacing the old row)."""

    @abstractmethod
    async def finish_table(self, table_id: str, result: dict[str, Any]) -> None:
        """Mark a table finished with its result (sets status and finished_at)."""

    @abstractmethod
    async def live_tables(self) -> list[str]:
        """Ids of tables waiting or playing: the ones to rebuild after a restart."""

    @abstractmethod
    async def load(self, table_id: str) -> TableLog | None:
        """The table with its seats, rounds and plays (in order)."""

    # rounds and plays
    @abstractmethod
    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        """A pending round: its server seed is drawn and its commitment published."""

    @abstractmethod
    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        """Fix the round's client seed: the deck is determined from now on."""

    @abstractmethod
    async def add_play(self, table_id: str, play: PlayRow) -> None:
        """Append a play; raises :class:`DuplicatePlay` if (round, index) exists."""

    # history
    @abstractmethod
    async def history(self, player_id: str, limit: int = 50) -> list[HistoryRow]:
        """The player's finished matches, newest first."""
