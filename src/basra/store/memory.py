"""A :class:`~basra.store.ports.TableStore` in memory, for the table actor's unit tests.

It keeps what the SQL store keeps, with the same rules, so that a test on it says something
about the server (``tests/store/test_table_contract.py`` runs the same scenarios on both):

- a table's id and its invite code are unique; its kind, status and match length are
  known ones; its times must be timezone-aware (they come back in UTC); its owner and its
  seats' players must be known players, its ``rematch_of`` a known table (SQL's foreign
  keys);
- a round is added once per number, started once (again with the same client seed is
  nothing, with another one is refused); a play needs its round, and a second play at the
  same (round, index) is :class:`~basra.store.base.DuplicatePlay`;
- :meth:`~MemoryTableStore.load` gives seats, rounds and plays in order, a seat with its
  player's nickname and username as the players are *now* (as SQL's join does);
- results are kept as JSON is (a copy; tuples come back as lists);
- every refusal is a :class:`~basra.store.base.StoreError` that says what could not be
  done in the same words as SQL's (``cannot set seat 1 of table t1: ...``), and changes
  nothing.

Players live in :attr:`MemoryTableStore.players` (the test adds them: there is no identity
store here). What it does not do: rating. A rated :meth:`~MemoryTableStore.finish_table`
finishes the table once (a second finish returns the result first stored, as SQL's does),
but stores the result as given, without ``ratings``: what SQL does when a player's account
was deleted before the match ended.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, get_args

from basra.game.rules import MATCH_LENGTHS
from basra.store.base import (
    DuplicatePlay,
    PlayerRow,
    PlayRow,
    RatedGame,
    RoundRow,
    SeatRow,
    StoreError,
    TableKind,
    TableLog,
    TableRow,
    TableStatus,
    aware,
)

LIVE: tuple[TableStatus, ...] = ("waiting", "playing")
STATUSES: tuple[str, ...] = get_args(TableStatus)
KINDS: tuple[str, ...] = get_args(TableKind)


def in_utc(moment: datetime, what: str) -> datetime:
    """``moment`` in UTC, as the SQL store gives every time back; naive ones are refused."""
    aware(moment, what)
    return moment.astimezone(UTC)


def _as_json(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of ``value`` as a JSON column keeps it (refused if JSON cannot hold it)."""
    if value is None:
        return None
    try:
        copied: dict[str, Any] = json.loads(json.dumps(value))
    except (TypeError, ValueError) as error:
        raise StoreError(f"not JSON: {error}") from error
    return copied


@dataclass
class _Table:
    """One table as kept: its row, and its log keyed as SQL's primary keys are."""

    row: TableRow
    seats: dict[int, SeatRow] = field(default_factory=dict)
    rounds: dict[int, RoundRow] = field(default_factory=dict)
    plays: dict[tuple[int, int], PlayRow] = field(default_factory=dict)


class MemoryTableStore:
    """Tables, seats, rounds and plays in dictionaries (see the module's docstring)."""

    def __init__(self, players: Iterable[PlayerRow] = ()) -> None:
        self.players: dict[str, PlayerRow] = {player.id: player for player in players}
        """The known players, by id: seats and owners must name one of them."""
        self._tables: dict[str, _Table] = {}

    def add_player(self, player_id: str, nickname: str,
                   username: str | None = None) -> PlayerRow:
        """A known player (a guest unless ``username`` is given), as a test sets one up."""
        player = PlayerRow(player_id, nickname, datetime.now(UTC), username=username)
        self.players[player_id] = player
        return player

    # ------------------------------------------------------------------ checks

    def _found(self, table_id: str, what: str) -> _Table:
        found = self._tables.get(table_id)
        if found is None:
            raise StoreError(f"cannot {what}: no table {table_id}")
        return found

    def _check_player(self, player_id: str | None, what: str) -> None:
        if player_id is not None and player_id not in self.players:
            raise StoreError(f"cannot {what}: no player {player_id}")

    def _kept_seat(self, seat: SeatRow, what: str) -> SeatRow:
        """The seat as kept: its player must be known; its names are the player's, read
        with the seat."""
        self._check_player(seat.player_id, what)
        return SeatRow(seat.seat, seat.player_id, seat.bot_level, seat.client_seed)

    def _seat(self, seat: SeatRow) -> SeatRow:
        """A seat as read: with its player's names as they are now."""
        player = self.players.get(seat.player_id) if seat.player_id else None
        if player is None:
            return seat
        return replace(seat, nickname=player.nickname, account=player.username is not None,
                       username=player.username)

    # ------------------------------------------------------------------ tables

    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        what = f"create table {table.id}"
        row = replace(table, created_at=in_utc(table.created_at, "created_at"),
                      finished_at=(None if table.finished_at is None
                                   else in_utc(table.finished_at, "finished_at")),
                      result=_as_json(table.result))
        if (table.status not in STATUSES or table.kind not in KINDS
                or table.length not in MATCH_LENGTHS):
            raise StoreError(f"cannot {what}: {table.kind!r} is not a kind, "
                             f"{table.status!r} not a status or {table.length!r} not a length")
        if table.id in self._tables:
            raise StoreError(f"cannot {what}: the table exists")
        if table.invite_code is not None and any(
                kept.row.invite_code == table.invite_code for kept in self._tables.values()):
            raise StoreError(f"cannot {what}: invite code {table.invite_code} is taken")
        self._check_player(table.owner_id, what)
        if table.rematch_of is not None and table.rematch_of not in self._tables:
            raise StoreError(f"cannot {what}: no table {table.rematch_of} to rematch")
        kept = {seat.seat: self._kept_seat(seat, what) for seat in seats}
        if len(kept) != len(seats):
            raise StoreError(f"cannot {what}: a seat is given twice")
        self._tables[table.id] = _Table(row, kept)

    async def table(self, table_id: str) -> TableRow | None:
        found = self._tables.get(table_id)
        return None if found is None else self._row(found)

    async def table_by_code(self, invite_code: str) -> TableRow | None:
        # Whatever the table's status, as SQL answers: the lobby decides who may join.
        for kept in self._tables.values():
            if kept.row.invite_code == invite_code:
                return self._row(kept)
        return None

    async def rematch_of(self, table_id: str) -> str | None:
        for kept in self._tables.values():  # in the order made
            if kept.row.rematch_of == table_id:
                return kept.row.id
        return None

    @staticmethod
    def _row(kept: _Table) -> TableRow:
        return replace(kept.row, result=_as_json(kept.row.result))

    async def set_status(self, table_id: str, status: TableStatus) -> None:
        self._update(table_id, status=status)

    def _update(self, table_id: str, **changes: Any) -> None:
        found = self._tables.get(table_id)
        if found is None:
            raise StoreError(f"no table {table_id}")
        if changes.get("status", found.row.status) not in STATUSES:
            raise StoreError(f"cannot update table {table_id}: "
                             f"status {changes['status']!r} is not a status")
        found.row = replace(found.row, **changes)

    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        what = f"set seat {seat.seat} of table {table_id}"
        found = self._found(table_id, what)
        found.seats[seat.seat] = self._kept_seat(seat, what)

    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: RatedGame | None = None) -> dict[str, Any]:
        stored = _as_json(result)
        if rated is None:
            unrated = {"rated": False} if result.get("unrated") else {}
            self._update(table_id, status="finished", result=stored,
                         finished_at=datetime.now(UTC), **unrated)
            return result
        found = self._tables.get(table_id)
        if found is None:
            raise StoreError(f"no table {table_id}")
        if found.row.status == "finished":  # finished once only, as a rated match is
            return _as_json(found.row.result) or result
        self._update(table_id, status="finished", result=stored,
                     finished_at=datetime.now(UTC))
        return result

    async def live_tables(self) -> list[str]:
        live = [kept.row for kept in self._tables.values() if kept.row.status in LIVE]
        return [row.id for row in sorted(live, key=lambda row: (row.created_at, row.id))]

    async def finished_tables(self, variant: str, seats: int, limit: int) -> list[str]:
        done = [kept.row for kept in self._tables.values()
                if kept.row.status == "finished" and kept.row.variant == variant
                and kept.row.seats == seats]
        done.sort(key=lambda row: (-(row.finished_at or row.created_at).timestamp(), row.id))
        return [row.id for row in done[:limit]]

    async def load(self, table_id: str) -> TableLog | None:
        found = self._tables.get(table_id)
        if found is None:
            return None
        return TableLog(self._row(found),
                        tuple(self._seat(found.seats[n]) for n in sorted(found.seats)),
                        tuple(found.rounds[n] for n in sorted(found.rounds)),
                        tuple(found.plays[key] for key in sorted(found.plays)))

    # ------------------------------------------------------------------ rounds and plays

    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        what = f"add round {number} to table {table_id}"
        found = self._found(table_id, what)
        if number in found.rounds:
            raise StoreError(f"cannot {what}: the round exists")
        found.rounds[number] = RoundRow(number, server_seed, commitment, None)

    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        """Fix the client seed once; starting again with the same seed changes nothing,
        with another one is refused (the deck is already determined)."""
        found = self._tables.get(table_id)
        pending = None if found is None else found.rounds.get(number)
        if found is None or pending is None:
            raise StoreError(f"no round {number} in table {table_id}")
        if pending.client_seed is None:
            found.rounds[number] = replace(pending, client_seed=client_seed,
                                           started_at=datetime.now(UTC))
        elif pending.client_seed != client_seed:
            raise StoreError(f"round {number} of table {table_id} has already started "
                             "with another client seed")

    async def add_play(self, table_id: str, play: PlayRow) -> None:
        where = f"play {play.index} of round {play.round_number} of table {table_id}"
        row = replace(play, take=tuple(play.take),
                      created_at=in_utc(play.created_at, "created_at"))
        found = self._tables.get(table_id)
        if found is None or play.round_number not in found.rounds:
            raise StoreError(f"cannot store {where}: no round {play.round_number}")
        key = (play.round_number, play.index)
        if key in found.plays:
            raise DuplicatePlay(f"{where} is already stored")
        found.plays[key] = row
