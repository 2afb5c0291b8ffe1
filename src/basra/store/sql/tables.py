"""The :class:`~basra.store.ports.TableStore` in SQL: tables, seats, rounds and plays."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from basra.store.base import (
    DuplicatePlay,
    PlayRow,
    RatedGame,
    SeatRow,
    StoreError,
    TableLog,
    TableRow,
    TableStatus,
)
from basra.store.schema import leaves, plays, rounds, table_seats, tables
from basra.store.sql.engine import SqlPort, now
from basra.store.sql.ratings import rate
from basra.store.sql.rows import (
    insert_new,
    play_row,
    play_values,
    round_row,
    seat_row,
    seat_values,
    seats_query,
    table_row,
    table_values,
)

LIVE: tuple[TableStatus, ...] = ("waiting", "playing")

# The statements of the writes every opening and every round makes, built once: building
# one per call (``insert(t).values(...)``) was a third of the store thread's time in a
# burst of openings; these take their values as parameters and are compiled once.
INSERT_TABLE = insert(tables)
INSERT_SEATS = insert(table_seats)
INSERT_ROUND = insert(rounds)
_ROUND = (rounds.c.table_id == bindparam("b_table")) & (rounds.c.number == bindparam("b_round"))
START_ROUND = (update(rounds).where(_ROUND, rounds.c.client_seed.is_(None))
               .values(client_seed=bindparam("b_seed"), started_at=bindparam("b_at")))
ROUND_SEED = select(rounds.c.client_seed).where(_ROUND)
_SEAT = ((table_seats.c.table_id == bindparam("b_table"))
         & (table_seats.c.seat == bindparam("b_seat")))
DELETE_SEAT = delete(table_seats).where(_SEAT)


def record_leaves(connection: Connection, table_id: str, result: dict[str, Any],
                  at: datetime) -> None:
    """The players of the seats the result says were left (``left``: seat numbers played
    by their bots at the end, their players gone and never back) are written as leavers,
    in the finishing transaction (a match is left once: a second write is a no-op)."""
    left = [seat for seat in result.get("left") or () if isinstance(seat, int)]
    if not left:
        return
    rows = connection.execute(select(table_seats.c.player_id).where(
        table_seats.c.table_id == table_id, table_seats.c.seat.in_(left),
        table_seats.c.player_id.is_not(None))).all()
    for row in rows:
        insert_new(connection, leaves, player_id=row.player_id, table_id=table_id, at=at)


class SqlTables(SqlPort):
    """Tables and their logs on the shared engine (every write in a group commit)."""

    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        values = table_values(table)

        seated = [seat_values(table.id, seat) for seat in seats]

        def op(connection: Connection) -> None:
            connection.execute(INSERT_TABLE, values)
            if seated:
                connection.execute(INSERT_SEATS, seated)

        await self.sql.batched(f"create table {table.id}", op)

    async def table(self, table_id: str) -> TableRow | None:
        return await self.sql.find(tables, tables.c.id == table_id, table_row)

    async def table_by_code(self, invite_code: str) -> TableRow | None:
        return await self.sql.find(tables, tables.c.invite_code == invite_code, table_row)

    async def rematch_of(self, table_id: str) -> str | None:
        row = await self.sql.first(select(tables.c.id).where(tables.c.rematch_of == table_id))
        return None if row is None else str(row[0])

    async def set_status(self, table_id: str, status: TableStatus) -> None:
        await self._update_table(table_id, status=status)

    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: RatedGame | None = None) -> dict[str, Any]:
        if rated is None:
            # A rated table whose result was not rated (``unrated``: its players may not
            # play rated now) is kept as the casual match it was.
            unrated = {"rated": False} if result.get("unrated") else {}

            def casual(connection: Connection) -> dict[str, Any]:
                finished = now()
                done = connection.execute(update(tables).where(tables.c.id == table_id).values(
                    status="finished", result=result, finished_at=finished, **unrated))
                if done.rowcount == 0:
                    raise StoreError(f"no table {table_id}")
                record_leaves(connection, table_id, result, finished)
                return result

            return await self.sql.batched(f"finish table {table_id}", casual)

        def op(connection: Connection) -> dict[str, Any]:
            before = (connection.execute(
                select(tables.c.status, tables.c.result).where(tables.c.id == table_id)
                .with_for_update())).first()
            if before is not None and before.status == "finished":  # rated once only
                kept: dict[str, Any] = before.result or result
                return kept
            finished = now()
            rates = rate(connection, table_id, rated, finished)
            stored = result if rates is None else {**result, "ratings": rates}
            done = connection.execute(
                update(tables).where(tables.c.id == table_id).values(
                    status="finished", result=stored, finished_at=finished))
            if done.rowcount == 0:
                raise StoreError(f"no table {table_id}")
            record_leaves(connection, table_id, result, finished)
            return stored

        return await self.sql.batched(f"finish rated table {table_id}", op)

    async def _update_table(self, table_id: str, **values: Any) -> None:
        def op(connection: Connection) -> None:
            done = connection.execute(
                update(tables).where(tables.c.id == table_id).values(**values))
            if done.rowcount == 0:
                raise StoreError(f"no table {table_id}")

        await self.sql.batched(f"update table {table_id}", op)

    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        values = seat_values(table_id, seat)

        def op(connection: Connection) -> None:
            connection.execute(DELETE_SEAT, {"b_table": table_id, "b_seat": seat.seat})
            connection.execute(INSERT_SEATS, values)

        await self.sql.batched(f"set seat {seat.seat} of table {table_id}", op)

    async def live_tables(self) -> list[str]:
        query = (select(tables.c.id).where(tables.c.status.in_(LIVE))
                 .order_by(tables.c.created_at, tables.c.id))
        return [row.id for row in await self.sql.rows(query)]

    async def finished_tables(self, variant: str, seats: int, limit: int) -> list[str]:
        query = (select(tables.c.id).where(tables.c.status == "finished",
                                           tables.c.variant == variant,
                                           tables.c.seats == seats)
                 .order_by(tables.c.finished_at.desc(), tables.c.id).limit(limit))
        return [row.id for row in await self.sql.rows(query)]

    async def load(self, table_id: str) -> TableLog | None:
        def read(connection: Connection) -> TableLog | None:
            table = (connection.execute(
                select(tables).where(tables.c.id == table_id))).first()
            if table is None:
                return None
            seats = connection.execute(seats_query([table_id]))
            round_rows = connection.execute(
                select(rounds).where(rounds.c.table_id == table_id).order_by(rounds.c.number))
            play_rows = connection.execute(
                select(plays).where(plays.c.table_id == table_id)
                .order_by(plays.c.round_number, plays.c["index"]))
            return TableLog(table_row(table), tuple(seat_row(row) for row in seats),
                            tuple(round_row(row) for row in round_rows),
                            tuple(play_row(row) for row in play_rows))

        return await self.sql.reading(read)

    # rounds and plays

    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        values = {"table_id": table_id, "number": number, "server_seed": server_seed,
                  "commitment": commitment, "client_seed": None, "started_at": None}

        def op(connection: Connection) -> None:
            connection.execute(INSERT_ROUND, values)

        await self.sql.batched(f"add round {number} to table {table_id}", op)

    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        """Fix the client seed once; starting again with the same seed changes nothing,
        with another one is refused (the deck is already determined)."""
        key = {"b_table": table_id, "b_round": number}
        values = {**key, "b_seed": client_seed, "b_at": now()}

        def op(connection: Connection) -> None:
            done = connection.execute(START_ROUND, values)
            if done.rowcount == 1:
                return
            stored = connection.execute(ROUND_SEED, key).first()
            if stored is None:
                raise StoreError(f"no round {number} in table {table_id}")
            if stored.client_seed != client_seed:
                raise StoreError(f"round {number} of table {table_id} has already started "
                                 "with another client seed")

        await self.sql.batched(f"start round {number} of table {table_id}", op)

    async def add_play(self, table_id: str, play: PlayRow) -> None:
        """Append a play, durably, before returning. Plays stored at the same moment by
        different tables are committed together in one statement of one transaction
        (group commit, :meth:`~basra.store.sql.engine.SqlEngine.batched_play`); each
        caller returns only after its own commit."""
        await self.sql.batched_play(table_id, play,
                                    lambda: self._add_play_alone(table_id, play))

    async def _add_play_alone(self, table_id: str, play: PlayRow) -> None:
        values = play_values(table_id, play)
        where = f"play {play.index} of round {play.round_number} of table {table_id}"
        try:
            await self.sql.transact(f"store {where}", lambda connection: connection.execute(
                insert(plays).values(values)))
        except StoreError as error:
            if isinstance(error.__cause__, IntegrityError) and await self._has_play(
                    table_id, play.round_number, play.index):
                raise DuplicatePlay(f"{where} is already stored") from error
            raise

    async def _has_play(self, table_id: str, round_number: int, index: int) -> bool:
        query = select(plays.c.seat).where(
            plays.c.table_id == table_id, plays.c.round_number == round_number,
            plays.c["index"] == index)
        return await self.sql.first(query) is not None
