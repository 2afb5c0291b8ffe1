"""Rows in and out: the store's records as column values, and database rows as records.

Shared by the ports: a table's seats are read by the table port (to rebuild it) and by the
history port (to name who sat where), and every port checks its times the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Row
from sqlalchemy.sql.schema import Table

from basra.store.base import (
    PasskeyRow,
    PlayerRow,
    PlayRow,
    RatingRow,
    RoundRow,
    SeatRow,
    SessionRow,
    TableRow,
    TournamentRow,
    aware,
)
from basra.store.schema import players, table_seats

TOURNAMENT_FIELDS = tuple(field.name for field in fields(TournamentRow))
"""A tournament's fields: its columns too, of the same names."""


def username_key(username: str) -> str:
    """What makes a username unique: the name case-folded (``Amira`` is ``amira``)."""
    return username.casefold()


def seats_query(table_ids: Iterable[str]) -> Select[Any]:
    """The seats of these tables with their players' nicknames, by table and seat."""
    joined = table_seats.outerjoin(players, table_seats.c.player_id == players.c.id)
    return (select(table_seats, players.c.nickname, players.c.username).select_from(joined)
            .where(table_seats.c.table_id.in_(list(table_ids)))
            .order_by(table_seats.c.table_id, table_seats.c.seat))


# ---------------------------------------------------------------------------------------
# records as column values


def table_values(table: TableRow) -> dict[str, Any]:
    return {
        "id": table.id, "kind": table.kind, "variant": table.variant, "seats": table.seats,
        "teams": table.teams, "clock_seconds": table.clock_seconds,
        "bot_level": table.bot_level, "status": table.status,
        "created_at": aware(table.created_at, "created_at"),
        "invite_code": table.invite_code, "owner_id": table.owner_id,
        "finished_at": aware(table.finished_at, "finished_at"),
        "result": table.result, "rematch_of": table.rematch_of, "rated": table.rated,
        "length": table.length, "tournament_id": table.tournament_id,
        "listed": table.listed,
    }


def tournament_values(tournament: TournamentRow) -> dict[str, Any]:
    values = {name: getattr(tournament, name) for name in TOURNAMENT_FIELDS}
    for name in ("starts_at", "created_at", "started_at", "finished_at"):
        aware(values[name], name)
    return values


def seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "player_id": seat.player_id,
            "bot_level": seat.bot_level, "client_seed": seat.client_seed}


def play_values(table_id: str, play: PlayRow) -> dict[str, Any]:
    return {"table_id": table_id, "round_number": play.round_number, "index": play.index,
            "seat": play.seat, "card": play.card, "take": " ".join(play.take),
            "by_bot": play.by_bot, "created_at": aware(play.created_at, "created_at")}


# ---------------------------------------------------------------------------------------
# rows as records


def player_row(row: Row[Any]) -> PlayerRow:
    return PlayerRow(id=row.id, nickname=row.nickname, created_at=row.created_at,
                     username=row.username, has_password=row.password_hash is not None)


def session_row(row: Row[Any]) -> SessionRow:
    return SessionRow(id=row.id, player_id=row.player_id, kind=row.kind,
                      created_at=row.created_at, user_agent=row.user_agent,
                      address=row.address, last_seen_at=row.last_seen_at,
                      proved_at=row.proved_at)


def passkey_row(row: Row[Any]) -> PasskeyRow:
    return PasskeyRow(credential_id=row.credential_id, player_id=row.player_id,
                      public_key=bytes(row.public_key), sign_count=row.sign_count,
                      name=row.name, created_at=row.created_at,
                      transports=tuple(row.transports.split()),
                      last_used_at=row.last_used_at, added_by=row.added_by,
                      added_from=row.added_from)


def rating_row(row: Row[Any]) -> RatingRow:
    return RatingRow(variant=row.variant, rating=row.rating, deviation=row.deviation,
                     volatility=row.volatility, games=row.games, rated_at=row.rated_at)


def table_row(row: Row[Any]) -> TableRow:
    return TableRow(
        id=row.id, kind=row.kind, variant=row.variant, seats=row.seats, teams=row.teams,
        clock_seconds=row.clock_seconds, bot_level=row.bot_level, status=row.status,
        created_at=row.created_at, invite_code=row.invite_code, owner_id=row.owner_id,
        finished_at=row.finished_at, result=row.result, rematch_of=row.rematch_of,
        rated=row.rated, length=row.length, tournament_id=row.tournament_id,
        listed=bool(row.listed))


def tournament_row(row: Row[Any]) -> TournamentRow:
    return TournamentRow(**{name: row._mapping[name] for name in TOURNAMENT_FIELDS})


def seat_row(row: Row[Any]) -> SeatRow:
    return SeatRow(seat=row.seat, player_id=row.player_id, bot_level=row.bot_level,
                   client_seed=row.client_seed, nickname=row.nickname,
                   account=row.username is not None, username=row.username)


def round_row(row: Row[Any]) -> RoundRow:
    return RoundRow(number=row.number, server_seed=row.server_seed,
                    commitment=row.commitment, client_seed=row.client_seed,
                    started_at=row.started_at)


def play_row(row: Row[Any]) -> PlayRow:
    return PlayRow(round_number=row.round_number, index=row._mapping["index"],
                   seat=row.seat,
                   card=row.card, take=tuple(row.take.split()), by_bot=row.by_bot,
                   created_at=row.created_at)


def insert_new(connection: Connection, table: Table, **values: Any) -> bool:
    """Insert the row unless its key is there already: whether it was new."""
    maker = pg_insert if connection.dialect.name == "postgresql" else sqlite_insert
    done = connection.execute(maker(table).values(**values).on_conflict_do_nothing())
    return bool(done.rowcount)
