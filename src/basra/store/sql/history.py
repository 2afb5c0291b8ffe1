"""The :class:`~basra.store.ports.HistoryStore` in SQL: finished matches as a player's
history reads them.

A match is a player's to count (their profile's games, wins and losses; their history's
"Won" and "Lost") only if they took part in it (``HistoryRow.took_part``): they made at
least :data:`TOOK_PART` plays of their own (a whole hand), or it rated them. A rematch they
never played a card in, or a bot game they left after a play or two, the bot finishing it,
is listed as not played (issue 28: a newcomer found such matches counted as a win and a
loss)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, case, func, or_, select
from sqlalchemy.engine import Connection, Row

from basra.store.base import HistoryRow, PlayRecord
from basra.store.schema import plays, table_seats, tables
from basra.store.sql.engine import SqlPort
from basra.store.sql.rows import seats_query

TOOK_PART = 4
"""Plays of one's own that make a match one's own (a hand of four)."""


def took_part() -> ColumnElement[bool]:
    """Whether the seat (``table_seats``, joined with ``tables``) took part in its match."""
    own = (select(func.count()).select_from(plays)
           .where(plays.c.table_id == tables.c.id, plays.c.seat == table_seats.c.seat,
                  plays.c.by_bot.is_(False))
           .scalar_subquery())
    return or_(table_seats.c.rating_after.is_not(None), own >= TOOK_PART)


class SqlHistory(SqlPort):
    """Players' finished matches, read on the shared engine."""

    async def history(self, player_id: str, limit: int = 50) -> list[HistoryRow]:
        finished = func.coalesce(tables.c.finished_at, tables.c.created_at)
        query = (select(tables, func.min(table_seats.c.seat).label("my_seat"),
                        func.max(table_seats.c.rating_before).label("before"),
                        func.max(table_seats.c.rating_after).label("after"),
                        func.max(case((took_part(), 1), else_=0)).label("took_part"))
                 .join(table_seats, table_seats.c.table_id == tables.c.id)
                 .where(table_seats.c.player_id == player_id, tables.c.status == "finished")
                 .group_by(tables.c.id)
                 .order_by(finished.desc(), tables.c.id)
                 .limit(limit))

        def read(connection: Connection) -> tuple[Sequence[Row[Any]], Sequence[Row[Any]]]:
            matches = connection.execute(query).all()
            return matches, connection.execute(seats_query(row.id for row in matches)).all()

        matches, seats = await self.sql.reading(read)
        names = seat_names(seats)
        return [history_row(row, names.get(row.id, ((), ()))) for row in matches]

    async def play_record(self, player_id: str, since: datetime) -> PlayRecord:
        finished = (select(func.count(func.distinct(tables.c.id)))
                    .join(table_seats, table_seats.c.table_id == tables.c.id)
                    .where(table_seats.c.player_id == player_id,
                           tables.c.status == "finished"))
        # A day's rated matches finished without ratings: the player's aborts are those
        # whose result names their seat (who never played, who resigned too early).
        unrated = (select(table_seats.c.seat, tables.c.result)
                   .join(table_seats, table_seats.c.table_id == tables.c.id)
                   .where(table_seats.c.player_id == player_id,
                          tables.c.status == "finished", tables.c.rated.is_(True),
                          table_seats.c.rating_after.is_(None),
                          tables.c.finished_at >= since)
                   .limit(1000))

        def read(connection: Connection) -> tuple[int, Sequence[Any]]:
            return (int(connection.execute(finished).scalar_one()),
                    connection.execute(unrated).all())

        count, rows = await self.sql.reading(read)
        aborted = sum(1 for seat, result in rows
                      if isinstance(result, dict) and result.get("aborted")
                      and seat in (result.get("aborted_by") or []))
        return PlayRecord(count, aborted)

    async def rated_between(self, first: str, second: str, since: datetime) -> int:
        one, two = table_seats.alias("one"), table_seats.alias("two")
        query = (select(func.count(func.distinct(tables.c.id)))
                 .join(one, one.c.table_id == tables.c.id)
                 .join(two, two.c.table_id == tables.c.id)
                 .where(one.c.player_id == first, two.c.player_id == second,
                        one.c.rating_after.is_not(None), tables.c.status == "finished",
                        tables.c.finished_at >= since))
        return await self.sql.reading(lambda connection: int(
            connection.execute(query).scalar_one()))


def seat_name(row: Row[Any]) -> str:
    """How history names a seat: the nickname, ``bot:LEVEL``, or ``empty``."""
    if row.player_id is not None:
        return str(row.nickname)
    return f"bot:{row.bot_level}" if row.bot_level else "empty"


def seat_names(seats: Iterable[Row[Any]]
               ) -> dict[str, tuple[tuple[str, ...], tuple[str | None, ...]]]:
    """Each table's seat names and usernames in seat order (``seats`` come by table and
    seat)."""
    names: dict[str, list[str]] = {}
    usernames: dict[str, list[str | None]] = {}
    for row in seats:
        names.setdefault(row.table_id, []).append(seat_name(row))
        usernames.setdefault(row.table_id, []).append(row.username)
    return {table_id: (tuple(seat), tuple(usernames[table_id]))
            for table_id, seat in names.items()}


def history_row(row: Row[Any], seats: tuple[tuple[str, ...], tuple[str | None, ...]]
                ) -> HistoryRow:
    names, usernames = seats
    result: dict[str, Any] = row.result or {}
    winner = result.get("winner")
    return HistoryRow(
        table_id=row.id, variant=row.variant, seat=row.my_seat, players=names,
        teams=row.teams, winner=None if winner is None else int(winner),
        totals=tuple(int(total) for total in result.get("totals", ())),
        finished_at=row.finished_at or row.created_at,
        rated=bool(row.rated) and not result.get("aborted") and row.after is not None,
        change=(None if row.after is None or row.before is None
                else float(round(row.after) - round(row.before))),
        result=result, usernames=usernames, took_part=bool(row.took_part))
