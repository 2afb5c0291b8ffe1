"""The :class:`~basra.store.ports.TournamentStore` in SQL: tournaments, their entrants (each
with its players) and their pairings (each with its entrants, one row a seat).

Every write goes through the group commit. The writes that must hold against another node
writing at the same moment rest on the database's keys, not on a read before the write:
a scheduled tournament's ``schedule_key`` is unique, an entrant's id and each of its players
are unique in a tournament, a seat's (tournament, round, entrant) is unique, and a result is
written by an update that only takes an undecided pairing. The read before each write only
says politely what the key would refuse; when two nodes meet at the key itself, the refusal
is read back and told the same way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, case, false, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError

from basra.store.base import (
    ENDED,
    DuplicatePairing,
    EntrantRow,
    EntrantStatus,
    PairingRow,
    StoreError,
    TableRow,
    TournamentRow,
    TournamentStatus,
    aware,
    checked_pairing,
    checked_result,
)
from basra.store.schema import (
    players,
    tables,
    tournament_entrants,
    tournament_pairings,
    tournament_players,
    tournament_seats,
    tournaments,
)
from basra.store.sql.engine import SqlPort, now
from basra.store.sql.rows import table_row, tournament_row, tournament_values

LIVE_EVENTS: tuple[TournamentStatus, ...] = ("upcoming", "running")

_entrants, _pairings, _seats = tournament_entrants.c, tournament_pairings.c, tournament_seats.c


def _listed_order() -> list[Any]:
    """Upcoming and running ones first, soonest first; then the last finished first."""
    live = tournaments.c.status.in_(LIVE_EVENTS)
    return [case((live, 0), else_=1), case((live, tournaments.c.starts_at)),
            tournaments.c.finished_at.desc().nulls_last(), tournaments.c.starts_at.desc(),
            tournaments.c.id]


def _refused(error: StoreError) -> bool:
    """Whether the database refused the write at a key or constraint."""
    return isinstance(error.__cause__, IntegrityError)


class SqlTournaments(SqlPort):
    """Tournaments on the shared engine (every write in a group commit)."""

    async def create_tournament(self, tournament: TournamentRow) -> bool:
        values, key = tournament_values(tournament), tournament.schedule_key

        def op(connection: Connection) -> bool:
            if key is not None and self._scheduled(connection, key):
                return False
            connection.execute(insert(tournaments).values(values))
            return True

        try:
            return await self.sql.batched(f"create tournament {tournament.id}", op)
        except StoreError as error:  # the same schedule on another node, at the same moment?
            if key is None or not _refused(error):
                raise
            if await self.sql.reading(lambda connection: self._scheduled(connection, key)):
                return False
            raise

    @staticmethod
    def _scheduled(connection: Connection, key: str) -> bool:
        found = connection.execute(
            select(tournaments.c.id).where(tournaments.c.schedule_key == key))
        return found.first() is not None

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        return await self.sql.find(tournaments, tournaments.c.id == tournament_id,
                                   tournament_row)

    async def tournaments(self, statuses: Collection[TournamentStatus], limit: int = 100, *,
                          listed_only: bool = True) -> list[TournamentRow]:
        query = select(tournaments).where(tournaments.c.status.in_(list(statuses)))
        if listed_only:
            query = query.where(tournaments.c.private == false())
        query = query.order_by(*_listed_order()).limit(limit)
        return [tournament_row(row) for row in await self.sql.rows(query)]

    async def update_tournament(self, tournament_id: str, *,
                                status: TournamentStatus | None = None,
                                round: int | None = None, started_at: datetime | None = None,
                                finished_at: datetime | None = None) -> None:
        given = {"status": status, "round": round,
                 "started_at": aware(started_at, "started_at"),
                 "finished_at": aware(finished_at, "finished_at")}
        values = {name: value for name, value in given.items() if value is not None}
        where, what = tournaments.c.id == tournament_id, f"tournament {tournament_id}"
        if not values:
            if await self.tournament(tournament_id) is None:
                raise StoreError(f"no {what}")
            return
        await self.sql.update_existing(tournaments, where, what, **values)

    # ------------------------------------------------------------------ entrants

    async def add_entrant(self, entrant: EntrantRow) -> EntrantRow:
        tournament_id, entrant_id = entrant.tournament_id, entrant.id
        if not entrant.players:
            raise StoreError(f"cannot add entrant {entrant_id} to tournament {tournament_id}: "
                             "it has no player")
        values = {"tournament_id": tournament_id, "id": entrant_id, "name": entrant.name,
                  "rating": entrant.rating, "status": entrant.status,
                  "joined_at": aware(entrant.joined_at, "joined_at"),
                  "absences": entrant.absences, "place": entrant.place}
        members = [{"tournament_id": tournament_id, "entrant_id": entrant_id,
                    "position": position, "player_id": player}
                   for position, player in enumerate(entrant.players)]

        def op(connection: Connection) -> None:
            if self._entrants(connection, tournament_id, entrant_id):
                return  # joined already: it stays as it is
            connection.execute(insert(tournament_entrants).values(values))
            connection.execute(insert(tournament_players), members)

        try:
            await self.sql.batched(f"add entrant {entrant_id} to tournament {tournament_id}",
                                   op)
        except StoreError as error:  # joined at the same moment on another node?
            if not _refused(error):
                raise
            stored = await self._entrant(tournament_id, entrant_id)
            if stored is None:
                raise
            return stored
        stored = await self._entrant(tournament_id, entrant_id)
        assert stored is not None  # committed just now
        return stored

    async def _entrant(self, tournament_id: str, entrant_id: str) -> EntrantRow | None:
        found = await self.sql.reading(
            lambda connection: self._entrants(connection, tournament_id, entrant_id))
        return found[0] if found else None

    async def set_entrant(self, tournament_id: str, entrant_id: str, *,
                          status: EntrantStatus | None = None,
                          absences: int | None = None) -> None:
        given = {"status": status, "absences": absences}
        values = {name: value for name, value in given.items() if value is not None}
        where = (_entrants.tournament_id == tournament_id) & (_entrants.id == entrant_id)
        what = f"entrant {entrant_id} in tournament {tournament_id}"
        if not values:
            if await self.sql.first(select(_entrants.id).where(where)) is None:
                raise StoreError(f"no {what}")
            return
        await self.sql.update_existing(tournament_entrants, where, what, **values)

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        return await self.sql.reading(
            lambda connection: self._entrants(connection, tournament_id))

    async def entrant_of(self, tournament_id: str, player_id: str) -> EntrantRow | None:
        def read(connection: Connection) -> list[EntrantRow]:
            member = connection.execute(
                select(tournament_players.c.entrant_id).where(
                    tournament_players.c.tournament_id == tournament_id,
                    tournament_players.c.player_id == player_id)).first()
            return [] if member is None else self._entrants(
                connection, tournament_id, member.entrant_id)

        found = await self.sql.reading(read)
        return found[0] if found else None

    @staticmethod
    def _entrants(connection: Connection, tournament_id: str,
                        entrant_id: str | None = None) -> list[EntrantRow]:
        """The tournament's entrants (or the one), in the order joined, with their players'
        usernames as they are now."""
        where = [_entrants.tournament_id == tournament_id]
        members = [tournament_players.c.tournament_id == tournament_id]
        if entrant_id is not None:
            where.append(_entrants.id == entrant_id)
            members.append(tournament_players.c.entrant_id == entrant_id)
        rows = connection.execute(
            select(tournament_entrants).where(*where).order_by(_entrants.joined_at,
                                                               _entrants.id))
        joined = tournament_players.join(players,
                                         tournament_players.c.player_id == players.c.id)
        member_rows = connection.execute(
            select(tournament_players.c.entrant_id, tournament_players.c.player_id,
                   players.c.username).select_from(joined).where(*members)
            .order_by(tournament_players.c.entrant_id, tournament_players.c.position))
        made_of: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
        for member in member_rows:
            made_of[member.entrant_id].append((member.player_id, member.username))
        return [EntrantRow(tournament_id=tournament_id, id=row.id,
                           players=tuple(player for player, _ in made_of[row.id]),
                           name=row.name, rating=row.rating, status=row.status,
                           joined_at=row.joined_at, absences=row.absences,
                           usernames=tuple(username for _, username in made_of[row.id]),
                           place=row.place)
                for row in rows]

    async def set_places(self, tournament_id: str, places: Mapping[str, int]) -> None:
        if not places:
            return
        given = dict(places)
        where = _entrants.tournament_id == tournament_id

        def op(connection: Connection) -> None:
            known = {row.id for row in connection.execute(
                select(_entrants.id).where(where, _entrants.id.in_(list(given))))}
            missing = sorted(set(given) - known)
            if missing:
                raise StoreError(f"no entrant {missing[0]} in tournament {tournament_id}")
            connection.execute(
                update(tournament_entrants).where(where, _entrants.id == bindparam("entrant"))
                .values(place=bindparam("final_place")),
                [{"entrant": entrant, "final_place": place}
                 for entrant, place in given.items()])

        await self.sql.batched(f"set places in tournament {tournament_id}", op)

    async def trophies(self, player_id: str,
                       limit: int = 20) -> list[tuple[TournamentRow, int]]:
        joined = tournament_players.join(
            tournament_entrants, (_entrants.tournament_id == tournament_players.c.tournament_id)
            & (_entrants.id == tournament_players.c.entrant_id)).join(
            tournaments, tournaments.c.id == tournament_players.c.tournament_id)
        query = (select(tournaments, _entrants.place).select_from(joined)
                 .where(tournament_players.c.player_id == player_id,
                        tournaments.c.status == "finished", _entrants.place.between(1, 3))
                 .order_by(*_listed_order()[2:])
                 .limit(limit))
        return [(tournament_row(row), row.place) for row in await self.sql.rows(query)]

    # ------------------------------------------------------------------ pairings

    async def add_pairings(self, tournament_id: str, pairings: Sequence[PairingRow], *,
                           round: int | None = None) -> None:
        kept = [checked_pairing(tournament_id, pairing) for pairing in pairings]
        rows = [{"tournament_id": tournament_id, "id": pairing.id, "round": pairing.round,
                 "table_id": pairing.table_id, "created_at": pairing.created_at,
                 "decided_at": pairing.decided_at} for pairing in kept]
        seats = [{"tournament_id": tournament_id, "pairing_id": pairing.id, "seat": seat,
                  "round": pairing.round, "entrant_id": entrant,
                  "absent": entrant in pairing.absent,
                  "points": None if pairing.points is None else pairing.points[seat],
                  "rating": pairing.ratings[seat] if pairing.ratings else None}
                 for pairing in kept for seat, entrant in enumerate(pairing.entrants)]
        what = f"store {len(kept)} pairings of tournament {tournament_id}"

        def op(connection: Connection) -> None:
            self._refuse_paired(connection, tournament_id, kept)
            if rows:
                stored = (connection.execute(
                    select(func.coalesce(func.max(_pairings.number), 0))
                    .where(_pairings.tournament_id == tournament_id))).scalar_one()
                for number, row in enumerate(rows, start=stored + 1):
                    row["number"] = number
                connection.execute(insert(tournament_pairings), rows)
                connection.execute(insert(tournament_seats), seats)
            if round is not None:
                done = connection.execute(update(tournaments).where(
                    tournaments.c.id == tournament_id).values(round=round))
                if done.rowcount == 0:
                    raise StoreError(f"no tournament {tournament_id}")

        try:
            await self.sql.batched(what, op)
        except DuplicatePairing:
            raise
        except StoreError as error:  # paired at the same moment on another node?
            if not _refused(error):
                raise
            await self.sql.reading(
                lambda connection: self._refuse_paired(connection, tournament_id, kept))
            raise

    @staticmethod
    def _refuse_paired(connection: Connection, tournament_id: str,
                             pairings: Sequence[PairingRow]) -> None:
        """A DuplicatePairing if an entrant is twice in ``pairings`` or paired already in
        the round of one of them."""
        asked = [(pairing.round, entrant) for pairing in pairings
                 for entrant in pairing.entrants]
        if not asked:
            return
        paired = {(row.round, row.entrant_id) for row in connection.execute(
            select(_seats.round, _seats.entrant_id).where(
                _seats.tournament_id == tournament_id,
                _seats.round.in_(sorted({number for number, _ in asked})),
                _seats.entrant_id.in_(sorted({entrant for _, entrant in asked}))))}
        for key in asked:
            if key in paired:
                raise DuplicatePairing(f"entrant {key[1]} is paired already in round "
                                       f"{key[0]} of tournament {tournament_id}")
            paired.add(key)

    async def pairings(self, tournament_id: str,
                       round: int | None = None) -> list[PairingRow]:
        return await self.sql.reading(
            lambda connection: self._pairings(connection, tournament_id, round))

    async def undecided(self, tournament_id: str
                        ) -> list[tuple[PairingRow, TableRow | None]]:
        def read(connection: Connection) -> tuple[list[PairingRow], dict[str, TableRow]]:
            # The ended or missing tables' pairings only: a live table's is not read.
            ended = [row.id for row in connection.execute(
                select(_pairings.id)
                .select_from(tournament_pairings.outerjoin(
                    tables, tables.c.id == _pairings.table_id))
                .where(_pairings.tournament_id == tournament_id,
                       _pairings.decided_at.is_(None), _pairings.table_id.is_not(None),
                       or_(tables.c.id.is_(None), tables.c.status.in_(ENDED))))]
            if not ended:
                return [], {}
            open_ = self._pairings(connection, tournament_id, ids=ended)
            table_ids = [pairing.table_id for pairing in open_ if pairing.table_id]
            return open_, {row.id: table_row(row) for row in connection.execute(
                select(tables).where(tables.c.id.in_(table_ids)))} if table_ids else {}

        open_, stored = await self.sql.reading(read)
        return [(pairing, stored.get(pairing.table_id or "")) for pairing in open_]

    @staticmethod
    def _pairings(connection: Connection, tournament_id: str,
                        round: int | None = None, ids: list[str] | None = None
                        ) -> list[PairingRow]:
        where = [_pairings.tournament_id == tournament_id]
        if round is not None:
            where.append(_pairings.round == round)
        if ids is not None:
            where.append(_pairings.id.in_(ids))
        rows = (connection.execute(select(tournament_pairings).where(*where).order_by(
            _pairings.number, _pairings.id))).all()
        seat_where = [_seats.tournament_id == tournament_id]
        if round is not None:
            seat_where.append(_seats.round == round)
        if ids is not None:
            seat_where.append(_seats.pairing_id.in_([row.id for row in rows]))
        seated: dict[str, list[Row[Any]]] = defaultdict(list)
        if rows:
            for seat in connection.execute(
                    select(tournament_seats).where(*seat_where)
                    .order_by(_seats.pairing_id, _seats.seat)):
                seated[seat.pairing_id].append(seat)
        return [_pairing_row(row, seated[row.id]) for row in rows]

    async def decide(self, tournament_id: str, pairing_id: str, points: Sequence[float],
                     absent: Collection[str] = ()) -> bool:
        what = f"decide pairing {pairing_id} of tournament {tournament_id}"
        key = (_seats.tournament_id == tournament_id) & (_seats.pairing_id == pairing_id)

        def op(connection: Connection) -> bool:
            entrants = tuple(row.entrant_id for row in connection.execute(
                select(_seats.entrant_id).where(key).order_by(_seats.seat)))
            if not entrants:
                raise StoreError(f"cannot {what}: no such pairing")
            missing = checked_result(f"cannot {what}", entrants, points, absent)
            done = connection.execute(update(tournament_pairings).where(
                _pairings.tournament_id == tournament_id, _pairings.id == pairing_id,
                _pairings.decided_at.is_(None)).values(decided_at=now()))
            if done.rowcount == 0:
                return False  # decided already: a result counts once
            connection.execute(
                update(tournament_seats).where(key, _seats.seat == bindparam("at"))
                .values(points=bindparam("scored"), absent=bindparam("away")),
                [{"at": seat, "scored": float(scored), "away": entrant in missing}
                 for seat, (entrant, scored) in enumerate(zip(entrants, points, strict=True))])
            return True

        return await self.sql.batched(what, op)


def _pairing_row(row: Row[Any], seats: Sequence[Row[Any]]) -> PairingRow:
    decided = row.decided_at is not None
    ratings = tuple(seat.rating for seat in seats)
    return PairingRow(
        tournament_id=row.tournament_id, id=row.id, round=row.round,
        entrants=tuple(seat.entrant_id for seat in seats), table_id=row.table_id,
        created_at=row.created_at,
        points=tuple(seat.points for seat in seats) if decided else None,
        absent=tuple(seat.entrant_id for seat in seats if seat.absent),
        ratings=() if None in ratings else ratings, decided_at=row.decided_at)
