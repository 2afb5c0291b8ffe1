"""A :class:`~basra.store.ports.TournamentStore` in memory, for the director's unit tests.

It keeps what the SQL store keeps, with the same rules (``tests/store/
test_tournament_contract.py`` runs the same scenarios on both):

- a tournament's id is unique, and its ``schedule_key`` when set (a second tournament of the
  same key is not made: :meth:`~MemoryTournamentStore.create_tournament` answers False);
  its format, status and match length are known ones, its maker a known player, its times
  timezone-aware (they come back in UTC);
- an entrant's id is unique in its tournament and so is each of its players, who must be
  known; joining again changes nothing;
- a pairing's entrants must be the tournament's; no entrant is in two pairings of a round
  (:class:`~basra.store.base.DuplicatePairing`); pairings are stored all or none, and a
  result once (:meth:`~MemoryTournamentStore.decide` answers False the second time);
- reads give rows in the SQL store's orders, entrants with their players' usernames as the
  players are *now*;
- every refusal is a :class:`~basra.store.base.StoreError` and changes nothing.

It keeps its tables and players in a :class:`~basra.store.memory.MemoryTableStore` (given,
or its own): :meth:`~MemoryTournamentStore.undecided` reads the pairings' tables there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import get_args

from basra.game.rules import MATCH_LENGTHS
from basra.store.base import (
    ENDED,
    DuplicatePairing,
    EntrantRow,
    EntrantStatus,
    PairingRow,
    StoreError,
    TableRow,
    TournamentFormat,
    TournamentRow,
    TournamentStatus,
    checked_pairing,
    checked_result,
)
from basra.store.memory import MemoryTableStore, in_utc

FORMATS: tuple[str, ...] = get_args(TournamentFormat)
STATUSES: tuple[str, ...] = get_args(TournamentStatus)
ENTRANT_STATUSES: tuple[str, ...] = get_args(EntrantStatus)
LIVE_EVENTS: tuple[str, ...] = ("upcoming", "running")
_LAST = datetime.min.replace(tzinfo=UTC)


def _in_utc(moment: datetime | None, what: str) -> datetime | None:
    return None if moment is None else in_utc(moment, what)


def _listed_order(row: TournamentRow) -> tuple[int, float, bool, float, float, str]:
    """The SQL store's order: upcoming and running ones first, soonest first; then the
    last finished first (unfinished ones last), the last started first."""
    if row.status in LIVE_EVENTS:
        return (0, row.starts_at.timestamp(), False, 0.0, -row.starts_at.timestamp(), row.id)
    finished = row.finished_at or _LAST
    return (1, 0.0, row.finished_at is None, -finished.timestamp(),
            -row.starts_at.timestamp(), row.id)


class MemoryTournamentStore:
    """Tournaments, entrants and pairings in dictionaries (see the module's docstring)."""

    def __init__(self, tables: MemoryTableStore | None = None) -> None:
        self.tables = tables if tables is not None else MemoryTableStore()
        """Where the players and the pairings' tables are."""
        self._tournaments: dict[str, TournamentRow] = {}
        self._entrants: dict[tuple[str, str], EntrantRow] = {}
        """By (tournament, entrant), as given (usernames are read from the players)."""
        self._pairings: dict[tuple[str, str], PairingRow] = {}
        """By (tournament, pairing), in the order stored."""

    # ------------------------------------------------------------------ tournaments

    async def create_tournament(self, tournament: TournamentRow) -> bool:
        what = f"cannot create tournament {tournament.id}"
        row = replace(tournament, starts_at=in_utc(tournament.starts_at, "starts_at"),
                      created_at=in_utc(tournament.created_at, "created_at"),
                      started_at=_in_utc(tournament.started_at, "started_at"),
                      finished_at=_in_utc(tournament.finished_at, "finished_at"))
        if row.schedule_key is not None and any(
                kept.schedule_key == row.schedule_key for kept in self._tournaments.values()):
            return False
        if (row.format not in FORMATS or row.status not in STATUSES
                or row.length not in MATCH_LENGTHS):
            raise StoreError(f"{what}: {row.format!r} is not a format, {row.status!r} not a "
                             f"status or {row.length!r} not a length")
        if row.id in self._tournaments:
            raise StoreError(f"{what}: the tournament exists")
        if row.created_by is not None and row.created_by not in self.tables.players:
            raise StoreError(f"{what}: no player {row.created_by}")
        self._tournaments[row.id] = row
        return True

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        return self._tournaments.get(tournament_id)

    async def tournaments(self, statuses: Collection[TournamentStatus], limit: int = 100, *,
                          listed_only: bool = True) -> list[TournamentRow]:
        found = [row for row in self._tournaments.values()
                 if row.status in statuses and not (listed_only and row.private)]
        return sorted(found, key=_listed_order)[:limit]

    async def update_tournament(self, tournament_id: str, *,
                                status: TournamentStatus | None = None,
                                round: int | None = None, started_at: datetime | None = None,
                                finished_at: datetime | None = None) -> None:
        started, finished = (_in_utc(started_at, "started_at"),
                             _in_utc(finished_at, "finished_at"))
        row = self._tournament(tournament_id)
        if status is not None and status not in STATUSES:
            raise StoreError(f"cannot update tournament {tournament_id}: "
                             f"{status!r} is not a status")
        self._tournaments[tournament_id] = replace(
            row, status=status or row.status, round=row.round if round is None else round,
            started_at=started or row.started_at, finished_at=finished or row.finished_at)

    def _tournament(self, tournament_id: str) -> TournamentRow:
        found = self._tournaments.get(tournament_id)
        if found is None:
            raise StoreError(f"no tournament {tournament_id}")
        return found

    # ------------------------------------------------------------------ entrants

    async def add_entrant(self, entrant: EntrantRow) -> EntrantRow:
        tournament_id, key = entrant.tournament_id, (entrant.tournament_id, entrant.id)
        what = f"cannot add entrant {entrant.id} to tournament {tournament_id}"
        if not entrant.players:
            raise StoreError(f"{what}: it has no player")
        row = replace(entrant, joined_at=in_utc(entrant.joined_at, "joined_at"),
                      players=tuple(entrant.players), usernames=())
        if key in self._entrants:
            return self._read(self._entrants[key])  # joined already: it stays as it is
        if tournament_id not in self._tournaments:
            raise StoreError(f"{what}: no tournament {tournament_id}")
        if row.status not in ENTRANT_STATUSES:
            raise StoreError(f"{what}: {row.status!r} is not a status")
        if len(set(row.players)) != len(row.players):
            raise StoreError(f"{what}: a player is in it twice")
        for player in row.players:
            if player not in self.tables.players:
                raise StoreError(f"{what}: no player {player}")
            if self._entrant_of(tournament_id, player) is not None:
                raise StoreError(f"{what}: player {player} is in another entrant")
        self._entrants[key] = row
        return self._read(row)

    def _read(self, row: EntrantRow) -> EntrantRow:
        """The entrant with its players' usernames as they are now."""
        return replace(row, usernames=tuple(self.tables.players[player].username
                                            for player in row.players))

    async def set_entrant(self, tournament_id: str, entrant_id: str, *,
                          status: EntrantStatus | None = None,
                          absences: int | None = None) -> None:
        row = self._entrant(tournament_id, entrant_id)
        if status is not None and status not in ENTRANT_STATUSES:
            raise StoreError(f"cannot update entrant {entrant_id} in tournament "
                             f"{tournament_id}: {status!r} is not a status")
        self._entrants[tournament_id, entrant_id] = replace(
            row, status=status or row.status,
            absences=row.absences if absences is None else absences)

    def _entrant(self, tournament_id: str, entrant_id: str) -> EntrantRow:
        found = self._entrants.get((tournament_id, entrant_id))
        if found is None:
            raise StoreError(f"no entrant {entrant_id} in tournament {tournament_id}")
        return found

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        found = [row for (tournament, _), row in self._entrants.items()
                 if tournament == tournament_id]
        return [self._read(row) for row in sorted(found, key=lambda e: (e.joined_at, e.id))]

    async def entrant_of(self, tournament_id: str, player_id: str) -> EntrantRow | None:
        found = self._entrant_of(tournament_id, player_id)
        return None if found is None else self._read(found)

    def _entrant_of(self, tournament_id: str, player_id: str) -> EntrantRow | None:
        for (tournament, _), row in self._entrants.items():
            if tournament == tournament_id and player_id in row.players:
                return row
        return None

    async def set_places(self, tournament_id: str, places: Mapping[str, int]) -> None:
        placed = {entrant: replace(self._entrant(tournament_id, entrant), place=place)
                  for entrant, place in sorted(places.items())}
        for entrant, row in placed.items():
            self._entrants[tournament_id, entrant] = row

    async def trophies(self, player_id: str,
                       limit: int = 20) -> list[tuple[TournamentRow, int]]:
        won = [(self._tournaments[tournament], row.place)
               for (tournament, _), row in self._entrants.items()
               if player_id in row.players and row.place is not None and 1 <= row.place <= 3
               and self._tournaments[tournament].status == "finished"]
        won.sort(key=lambda trophy: _listed_order(trophy[0])[2:])
        return won[:limit]

    # ------------------------------------------------------------------ pairings

    async def add_pairings(self, tournament_id: str, pairings: Sequence[PairingRow], *,
                           round: int | None = None) -> None:
        kept = [checked_pairing(tournament_id, pairing) for pairing in pairings]
        row = self._tournament(tournament_id)
        paired = {(pairing.round, entrant) for (tournament, _), pairing in self._pairings.items()
                  if tournament == tournament_id for entrant in pairing.entrants}
        for pairing in kept:
            for entrant in pairing.entrants:
                if (pairing.round, entrant) in paired:
                    raise DuplicatePairing(f"entrant {entrant} is paired already in round "
                                           f"{pairing.round} of tournament {tournament_id}")
                paired.add((pairing.round, entrant))
        ids = [pairing.id for pairing in kept]
        if len(set(ids)) != len(ids) or any((tournament_id, id_) in self._pairings
                                            for id_ in ids):
            raise StoreError(f"cannot store pairings of tournament {tournament_id}: "
                             "a pairing's id is taken")
        for pairing in kept:
            for entrant in pairing.entrants:
                self._entrant(tournament_id, entrant)
        for pairing in kept:
            self._pairings[tournament_id, pairing.id] = replace(
                pairing, created_at=in_utc(pairing.created_at, "created_at"),
                decided_at=_in_utc(pairing.decided_at, "decided_at"))
        if round is not None:
            self._tournaments[tournament_id] = replace(row, round=round)

    async def pairings(self, tournament_id: str,
                       round: int | None = None) -> list[PairingRow]:
        return [pairing for (tournament, _), pairing in self._pairings.items()
                if tournament == tournament_id and round in (None, pairing.round)]

    async def undecided(self, tournament_id: str
                        ) -> list[tuple[PairingRow, TableRow | None]]:
        out: list[tuple[PairingRow, TableRow | None]] = []
        for pairing in await self.pairings(tournament_id):
            if pairing.points is not None or pairing.table_id is None:
                continue
            table = await self.tables.table(pairing.table_id)
            if table is None or table.status in ENDED:
                out.append((pairing, table))
        return out

    async def decide(self, tournament_id: str, pairing_id: str, points: Sequence[float],
                     absent: Collection[str] = ()) -> bool:
        what = f"cannot decide pairing {pairing_id} of tournament {tournament_id}"
        pairing = self._pairings.get((tournament_id, pairing_id))
        if pairing is None:
            raise StoreError(f"{what}: no such pairing")
        missing = checked_result(what, pairing.entrants, points, absent)
        if pairing.points is not None:
            return False  # decided already: a result counts once
        self._pairings[tournament_id, pairing_id] = replace(
            pairing, points=tuple(float(scored) for scored in points), absent=missing,
            decided_at=datetime.now(UTC))
        return True
