"""Tables over HTTP: play a bot, open a private table (listed in the lobby or not), join one
by invite code, sit at an open one, fill a seat with a bot, and a table's public info (with
its event's id at a tournament's table) and match record (live or from the store)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.http.deps import (
    LobbyDep,
    MaybePlayer,
    Player,
    StoreDep,
    get_guards,
    limit,
    limit_rebuild,
)
from basra.server.lobby.tables import TableOptions
from basra.server.table.actor import Table
from basra.store.base import SeatRow, TableRow

router = APIRouter()


class TableIn(BaseModel):
    variant: str = Field(default="egyptian", max_length=40)
    players: int = Field(default=2, ge=2, le=4)
    teams: bool = False
    bot_level: str = Field(default="medium", max_length=20)
    clock_seconds: float | None = None
    rated: bool = False
    """A private table that moves ratings (every seat an account's)."""
    length: str = Field(default="full", max_length=10)
    listed: bool = False
    """A private table listed in the lobby for anyone to sit at (an open table)."""

    def options(self) -> TableOptions:
        return TableOptions(self.variant, self.players, self.teams, self.bot_level,
                            self.clock_seconds, self.rated, self.length, self.listed)


class SitIn(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=3)


class JoinIn(BaseModel):
    invite_code: str = Field(max_length=40)


class BotIn(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=3)
    level: str = Field(default="medium", max_length=20)


OPEN_KEPT: dict[int, tuple[float, dict[str, Any]]] = {}
"""The open tables' answer of each store, and when it was made (kept a second)."""


def open_json(row: TableRow, seats: tuple[SeatRow, ...]) -> dict[str, Any]:
    by_seat = {s.seat: s for s in seats}
    return {"table": row.id, "variant": row.variant, "players": row.seats, "teams": row.teams,
            "rated": row.rated, "length": row.length,
            "created_at": row.created_at.isoformat(),
            "seats": [{"seat": n, "name": by_seat[n].nickname if n in by_seat and (
                by_seat[n].player_id) else None,
                "kind": "human" if n in by_seat and by_seat[n].player_id else "bot"
                if n in by_seat and by_seat[n].bot_level else "empty",
                "side": n % 2 if row.teams else n} for n in range(row.seats)]}


def table_out(table: Table, seat: int | None) -> dict[str, Any]:
    """A table as HTTP answers give it; the invite link only to a seated player."""
    out: dict[str, Any] = {"table": table.table_json(seat), "seat": seat}
    if table.row.invite_code and seat is not None:
        out["invite_link"] = f"/join/{table.row.invite_code}"
    return out


@router.post("/api/tables/bot", status_code=201)
async def play_bot(body: TableIn, player: Player, request: Request,
                   lobby: LobbyDep) -> dict[str, Any]:
    limit(request, "tables")
    return table_out(await lobby.play_bot(player, body.options()), 0)


@router.post("/api/tables/private", status_code=201)
async def create_private(body: TableIn, player: Player, request: Request,
                         lobby: LobbyDep) -> dict[str, Any]:
    limit(request, "tables")
    return table_out(await lobby.create_private(player, body.options()), 0)


@router.post("/api/tables/join")
async def join(body: JoinIn, request: Request, player: Player,
               lobby: LobbyDep) -> dict[str, Any]:
    get_guards(request).invites.check(request.scope)
    table, seat = await lobby.join(player, body.invite_code)
    return table_out(table, seat)


@router.get("/api/tables/open")
async def open_tables(request: Request, store: StoreDep) -> dict[str, Any]:
    """The open tables waiting for players (listed by their creators), newest first, with
    who sits where; the same answer for a second."""
    get_guards(request).views.check(request.scope, "open tables")
    now = time.monotonic()
    kept = OPEN_KEPT.get(id(store))
    if kept is not None and now - kept[0] < 1.0:
        return kept[1]
    answer = {"tables": [open_json(row, seats) for row, seats in await store.open_tables()]}
    OPEN_KEPT[id(store)] = (now, answer)
    return answer


@router.post("/api/tables/{table_id}/sit")
async def sit(table_id: str, body: SitIn, request: Request, player: Player,
              lobby: LobbyDep) -> dict[str, Any]:
    """Take a seat at an open table (the one asked for, or the first free)."""
    get_guards(request).invites.check(request.scope)
    table, seat = await lobby.sit(player, table_id, body.seat)
    return table_out(table, seat)


@router.post("/api/tables/{table_id}/bots")
async def add_bot(table_id: str, body: BotIn, player: Player,
                  lobby: LobbyDep) -> dict[str, Any]:
    return {"seat": await lobby.fill_bot(player, table_id, body.seat, body.level)}


@router.get("/api/tables/{table_id}")
async def table_info(table_id: str, request: Request, lobby: LobbyDep,
                     me: MaybePlayer) -> dict[str, Any]:
    limit_rebuild(request, table_id)
    table = await lobby.any_table(table_id)
    out = table_out(table, table.seat_of_player(me.id if me else None))
    if table.row.tournament_id is not None:
        out["tournament_id"] = table.row.tournament_id
    return out


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    limit_rebuild(request, table_id)
    return (await lobby.any_table(table_id)).record_json()
