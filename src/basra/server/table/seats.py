"""A table's seats: who sits where (a person, a bot, nobody yet), their connections, taking
a seat by invite or filling one with a bot, and waiting for seated players to arrive."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.server.config import Settings
from basra.server.table.commands import Connection, FillBot, Join
from basra.server.wire.errors import Refusal
from basra.server.wire.sayings import Sayings
from basra.store.base import SeatRow, TableRow, TableStatus

AWAY_KEPT = 200
"""The most plays made for an absent player that are kept to tell them (a whole match's
worth)."""


class SeatError(Refusal):
    """Joining or filling a seat that cannot be had (the message says why): ``table/full``,
    ``table/started``, ``table/not_owner``, ``table/seat_taken``."""

    code = "table/seat_taken"


@dataclass(eq=False)
class Seat:
    number: int
    player_id: str | None
    nickname: str | None
    bot_level: str | None
    bot: Bot
    connections: set[Connection] = field(default_factory=set)
    dropped_at: float | None = None
    takeover: bool = False
    """A bot plays for the absent player until they return."""
    ready: bool = False
    part: str | None = None
    """This seat's part of the pending round's client seed, if its player sent one."""
    rematch: bool = False
    arrived: bool = False
    """Whether the seat's player has connected to this table at least once."""
    away: list[dict[str, Any]] = field(default_factory=list)
    """The plays a bot made for this seat's player since they last played themselves
    (told when they come back: ``away``)."""
    account: bool = False
    """Whether the seat's player has an account."""
    rating: dict[str, Any] | None = None
    """At a rated table: the player's rating as shown ({"rating", "label"})."""
    username: str | None = None
    """The seated account's username (None: a guest, a bot or an empty seat), for links to
    its profile (the live list)."""
    sayings: Sayings = field(default_factory=Sayings)
    """The quick phrases and reactions the seat's player sent this match."""

    @property
    def human(self) -> bool:
        return self.player_id is not None

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot_level is None

    @property
    def name(self) -> str:
        if self.player_id is not None:
            return self.nickname or "player"
        return f"bot:{self.bot_level}" if self.bot_level else ""

    @property
    def connected(self) -> bool:
        """Whether one of the seat's connections is open."""
        return any(not c.closed for c in self.connections)

    def note_play(self, round_number: int, card: str, take: list[str], by_bot: bool) -> None:
        """A play of this seat was applied: one a bot made for its player is kept to be
        told (``clock``: their time ran out; ``dropped``: they were away); one of their
        own means they are back and have seen the table."""
        if not by_bot:
            self.away.clear()
        elif len(self.away) < AWAY_KEPT:
            self.away.append({"round": round_number, "card": card, "take": take,
                              "reason": "dropped" if self.takeover else "clock"})

    def row(self) -> SeatRow:
        return SeatRow(self.number, self.player_id, self.bot_level, "", self.nickname,
                       self.account, self.username)


def new_bot(level: str, table_id: str, seat: int, settings: Settings) -> Bot:
    """The bot of a seat: it plays a bot seat, and a person's seat when they are away.
    Seeded afresh, unless the settings fix every bot's seed (tests)."""
    seed = (f"{settings.bot_seed}:{seat}" if settings.bot_seed is not None
            else f"{table_id}:{seat}:{secrets.token_hex(4)}")
    return make_bot(level, seed=seed)


def make_seat(row: SeatRow, table: TableRow, settings: Settings) -> Seat:
    level = row.bot_level or table.bot_level
    return Seat(row.seat, row.player_id, row.nickname, row.bot_level,
                new_bot(level, table.id, row.seat, settings), account=row.account,
                username=row.username)


def seat_of(seats: list[Seat], conn: Connection) -> Seat | None:
    return next((s for s in seats if conn in s.connections), None)


def seat_of_player(seats: list[Seat], player_id: str | None) -> Seat | None:
    if player_id is None:
        return None
    return next((s for s in seats if s.player_id == player_id), None)


def full(seats: list[Seat]) -> bool:
    return not any(s.empty for s in seats)


def join(seats: list[Seat], status: TableStatus, command: Join) -> int:
    """Seat a player in the first empty seat of a waiting table; its number."""
    if status != "waiting":
        raise SeatError("this table has already started", "table/started")
    seat = next((s for s in seats if s.empty), None)
    if seat is None:
        raise SeatError("every seat at this table is taken", "table/full")
    seat.player_id = command.player_id
    seat.nickname = command.nickname
    seat.account = command.account
    seat.username = command.username
    seat.dropped_at = time.monotonic()  # until they open the table
    return seat.number


def fill_bot(seats: list[Seat], table: TableRow, status: TableStatus, command: FillBot,
             settings: Settings) -> int:
    """The table's owner puts a bot in an empty seat (the one asked for, or the first)."""
    if table.owner_id != command.by:
        raise SeatError("only the table's creator may add bots", "table/not_owner")
    if status != "waiting":
        raise SeatError("this table has already started", "table/started")
    empty = [s for s in seats if s.empty]
    if command.seat is not None:
        empty = [s for s in empty if s.number == command.seat]
    if not empty:
        raise SeatError("that seat is not empty", "table/seat_taken")
    seat = empty[0]
    seat.bot_level = command.level
    seat.bot = new_bot(command.level, table.id, seat.number, settings)
    return seat.number


# ---------------------------------------------------------------------- arrivals


def missing(seats: list[Seat]) -> bool:
    """Whether a seated player has never opened the table."""
    return any(s.human and not s.arrived for s in seats)


def arrival_wait(seats: list[Seat], table: TableRow, settings: Settings) -> float:
    """How long the first round waits for missing players: briefly when someone is
    already here (or for a quick match), long when nobody has come yet."""
    someone = any(s.human and s.arrived for s in seats)
    if table.kind == "quick" or someone:
        return settings.arrival_seconds
    return settings.unattended_seconds


def present(seats: list[Seat]) -> list[str]:
    """The ids of the seated players connected now."""
    return [s.player_id for s in seats if s.human and s.player_id and s.connected]
