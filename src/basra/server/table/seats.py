"""A table's seats: who sits where (a person, a bot, nobody yet), and their presence.

:class:`Seats` is the one owner of what changes at a seat: taking it by invite or filling
it with a bot, a player's connections coming and going, the grace period after a drop and
the bot that takes over, arrivals before the first round; a :class:`Seat`'s own methods
keep what its player sends (a seed part, ready, a rematch vote). The rest of the table
reads seats and calls these methods: no other module assigns a seat's field, so that a
seat's presence has one set of rules, written here.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Iterator
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
    deaf_to: frozenset[str] = frozenset()
    """The players whose phrases never reach this seat's connections (blocks, both
    ways: issue 28)."""
    muted: bool = False
    """A moderator muted the seat's player: their phrases are refused (issue 31)."""

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

    def take_away(self) -> list[dict[str, Any]]:
        """The plays a bot made for this seat's player while they were away, to tell them
        once: they are forgotten here."""
        away, self.away = self.away, []
        return away

    def show_rating(self, rating: dict[str, Any]) -> None:
        self.rating = rating

    def say_ready(self) -> bool:
        """The player is done reading the last round's summary; whether that is news."""
        if self.ready:
            return False
        self.ready = True
        return True

    def send_part(self, part: str) -> bool:
        """The player's part of the pending round's client seed (which also says ready);
        whether it is their first for the round (a changed part is news to them only)."""
        first = self.part is None
        self.part = part
        self.ready = True
        return first

    def vote_rematch(self) -> bool:
        """The player asks for a rematch; whether they had not already."""
        if self.rematch:
            return False
        self.rematch = True
        return True

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


def full(seats: Iterable[Seat]) -> bool:
    """Whether every seat is taken (a person or a bot)."""
    return not any(s.empty for s in seats)


class Seats:
    """Every seat of a table, in seat order: the one place where who sits where and who is
    here changes. Times are ``time.monotonic()``."""

    def __init__(self, seats: list[Seat], now: float | None = None) -> None:
        self.seats = seats
        now = time.monotonic() if now is None else now
        for seat in seats:
            if seat.human:  # nobody waits on a player who is not here: dropped from the start
                seat.dropped_at = now

    @classmethod
    def of_rows(cls, rows: Iterable[SeatRow], table: TableRow, settings: Settings) -> Seats:
        return cls([make_seat(row, table, settings) for row in rows])

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __getitem__(self, number: int) -> Seat:
        return self.seats[number]

    # ------------------------------------------------------------------ who sits where

    def move(self, seat: Seat, number: int) -> Seat:
        """The waiting room: ``seat``'s player moves to the empty seat ``number`` (their
        connections, name and arrival with them); the new seat."""
        target = next((s for s in self.seats if s.number == number), None)
        if target is None or not target.empty:
            raise SeatError("that seat is not free: choose another", "table/seat_taken")
        for name in ("player_id", "nickname", "account", "username", "dropped_at",
                     "arrived", "rating"):
            setattr(target, name, getattr(seat, name))
        target.connections, seat.connections = seat.connections, set()
        seat.player_id = seat.nickname = seat.username = seat.rating = None
        seat.dropped_at = None
        seat.account = seat.arrived = False
        return target

    def of_connection(self, conn: Connection) -> Seat | None:
        return next((s for s in self.seats if conn in s.connections), None)

    def of_player(self, player_id: str | None) -> Seat | None:
        if player_id is None:
            return None
        return next((s for s in self.seats if s.player_id == player_id), None)

    @property
    def full(self) -> bool:
        return full(self.seats)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def connections(self) -> list[Connection]:
        """Every seat's connections (spectators are the audience's)."""
        return [c for s in self.seats for c in s.connections]

    def join(self, status: TableStatus, command: Join) -> int:
        """Seat a player in the seat asked for, or the first empty one, of a waiting
        table; its number."""
        if status != "waiting":
            raise SeatError("this table has already started", "table/started")
        if command.seat is not None:
            seat = next((s for s in self.seats if s.number == command.seat), None)
            if seat is None or not seat.empty:
                raise SeatError("that seat is not free: choose another",
                                "table/seat_taken")
        else:
            seat = next((s for s in self.seats if s.empty), None)
        if seat is None:
            raise SeatError("every seat at this table is taken", "table/full")
        seat.player_id = command.player_id
        seat.nickname = command.nickname
        seat.account = command.account
        seat.username = command.username
        seat.dropped_at = time.monotonic()  # until they open the table
        return seat.number

    def fill_bot(self, table: TableRow, status: TableStatus, command: FillBot,
                 settings: Settings) -> int:
        """The table's owner puts a bot in an empty seat (the one asked for, or the
        first)."""
        if table.owner_id != command.by:
            raise SeatError("only the table's creator may add bots", "table/not_owner")
        if status != "waiting":
            raise SeatError("this table has already started", "table/started")
        empty = [s for s in self.seats if s.empty]
        if command.seat is not None:
            empty = [s for s in empty if s.number == command.seat]
        if not empty:
            raise SeatError("that seat is not empty", "table/seat_taken")
        seat = empty[0]
        seat.bot_level = command.level
        seat.bot = new_bot(command.level, table.id, seat.number, settings)
        return seat.number

    # ------------------------------------------------------------------ presence

    def connect(self, seat: Seat, conn: Connection, most: int) -> Connection | None:
        """A seat's player connects: the seat is theirs again (its bot stops playing it).
        Past ``most`` connections at one seat, the oldest is returned, to be closed (it
        stays the seat's until it is detached)."""
        seat.connections.add(conn)
        seat.dropped_at = None
        seat.takeover = False
        seat.arrived = True
        if len(seat.connections) > most:
            return min(seat.connections, key=lambda c: c.opened)
        return None

    def disconnect(self, conn: Connection, now: float) -> Seat | None:
        """A connection closed: the seat whose last connection it was (it dropped now, and
        its grace period begins), else None."""
        seat = self.of_connection(conn)
        if seat is None:
            return None
        seat.connections.discard(conn)
        if seat.connections:
            return None
        seat.dropped_at = now
        return seat

    def grace_ends(self, grace: float) -> list[float]:
        """When the grace period of each dropped player not yet played by a bot ends."""
        return [s.dropped_at + grace for s in self.seats
                if s.dropped_at is not None and not s.takeover]

    def take_over(self, grace: float, now: float) -> bool:
        """Hand every seat dropped longer than the grace period to its bot; whether any
        was."""
        changed = False
        for seat in self.seats:
            if (seat.dropped_at is not None and not seat.takeover
                    and now >= seat.dropped_at + grace):
                seat.takeover = True
                changed = True
        return changed

    # ------------------------------------------------------------------ arrivals

    def all_arrived(self) -> None:
        """A table rebuilt after a restart: its players were here before it."""
        for seat in self.seats:
            seat.arrived = True

    @property
    def missing(self) -> bool:
        """Whether a seated player has never opened the table."""
        return any(s.human and not s.arrived for s in self.seats)

    def arrival_wait(self, table: TableRow, settings: Settings) -> float:
        """How long the first round waits for missing players: briefly when someone is
        already here (or for a quick match), long when nobody has come yet; a tournament's
        table its own while (:attr:`Settings.tournament_arrival_seconds`)."""
        if table.kind == "tournament":
            return settings.tournament_arrival_seconds
        someone = any(s.human and s.arrived for s in self.seats)
        if table.kind == "quick" or someone:
            return settings.arrival_seconds
        return settings.unattended_seconds

    @staticmethod
    def given_up_when_missing(table: TableRow) -> bool:
        """Whether the table is given up before its first card when a matched player does
        not come (a quick match: the one who came is matched again); other tables start,
        a bot playing for whoever is missing (in a tournament they score nothing)."""
        return table.kind == "quick"

    def present(self) -> list[str]:
        """The ids of the seated players connected now."""
        return [s.player_id for s in self.seats if s.human and s.player_id and s.connected]

    # ------------------------------------------------------------------ rounds and the end

    def open_round(self) -> None:
        """A round's seed window opens: no part sent, nobody ready yet."""
        for seat in self.seats:
            seat.ready = False
            seat.part = None

    def everyone_rematch(self) -> bool:
        """Whether every seated player asked for a rematch."""
        return all(s.rematch for s in self.seats if s.human)
