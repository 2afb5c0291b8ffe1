"""Replays: a finished match step by step with every hand face up (``GET
/api/replays/ID``), and a record file the reader opens (``POST /api/replays``), checked as
``basra replay`` checks it (:mod:`basra.match.steps`); and the expert's analysis of a
finished match, asked for once and stored (:mod:`basra.server.reads.analyses`)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from basra.errors import BasraError
from basra.match.records import parse_record
from basra.match.steps import replay_steps
from basra.server.http.deps import LobbyDep, MaybePlayer, StoreDep, get_guards, limit, limit_rebuild
from basra.server.limits import address_key, client_address
from basra.server.reads.mistakes import mistakes as seat_mistakes
from basra.server.table.actor import Table
from basra.server.wire.errors import ApiError
from basra.server.wire.server_messages import dumps

router = APIRouter()

MISTAKES_KEPT = 256
"""A seat's mistakes of a match, kept once built (a done analysis never changes)."""
MISTAKES: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

MAX_RECORD_BYTES = 512 * 1024
"""The largest record file ``POST /api/replays`` reads (a long Serbian match is ~350 KB)."""


def finished_record(table: Table) -> Any:
    """A finished match's record (``replay/not_finished`` while it is in play)."""
    if table.status == "abandoned":
        raise ApiError("that match was given up before its end: there is no replay of it",
                       "replay/not_found")
    if table.status != "finished":
        raise ApiError("that match is still being played: its replay opens when it ends "
                       "(watch it live meanwhile)", "replay/not_finished")
    return table.export_record()


def json_response(body: bytes | dict[str, Any], status: int = 200) -> Response:
    if isinstance(body, dict):
        body = dumps(body)
    return Response(body, status_code=status, media_type="application/json")


@router.get("/api/replays/{table_id}")
async def table_replay(table_id: str, request: Request, lobby: LobbyDep) -> Response:
    """A finished match step by step (limited per address as profiles are)."""
    get_guards(request).views.check(request.scope)
    replays = lobby.replays
    body = replays.cached(table_id)
    if body is not None:
        return json_response(body)

    async def build() -> bytes:
        limit_rebuild(request, table_id)
        table = await lobby.any_table(table_id)
        record = finished_record(table)
        return dumps(await asyncio.to_thread(replay_steps, record, table.row.id))

    return json_response(await replays.build(table_id, build))


@router.post("/api/replays")
async def file_replay(request: Request, lobby: LobbyDep) -> Response:
    """A record file's replay: the file as sent (basra-record/1), checked as ``basra
    replay`` checks it; an illegal or malformed record is ``replay/bad_record`` with the
    one-line error naming its round and play."""
    limit(request, "tables")
    raw = await request.body()

    async def build() -> bytes:
        try:
            steps = await asyncio.to_thread(lambda: replay_steps(parse_record(raw)))
        except BasraError as exc:
            raise ApiError(exc.message, "replay/bad_record") from None
        except (ValueError, RecursionError):  # not JSON at all (orjson/json's own errors)
            raise ApiError("record: not a basra-record/1 document (JSON)",
                           "replay/bad_record") from None
        return dumps(steps)

    return json_response(await lobby.replays.build(None, build))


@router.post("/api/replays/{table_id}/analysis", status_code=202)
async def ask_analysis(table_id: str, request: Request, lobby: LobbyDep,
                       me: MaybePlayer) -> Response:
    """Ask the expert to analyse a finished match (once: later asks are answered with how
    it stands)."""
    get_guards(request).views.check(request.scope)
    known = await lobby.analyses.status(table_id)
    behind = lobby.analyses.waiting_behind(table_id)  # a rated match's: asked now, it moves up
    if isinstance(known, bytes) or (known["status"] in ("queued", "running") and not behind):
        return json_response(known, 202)
    limit(request, "tables")
    limit_rebuild(request, table_id)
    table = await lobby.any_table(table_id)
    record = finished_record(table)
    asker = me.id if me is not None else "@" + address_key(client_address(request.scope))
    return json_response(await lobby.analyses.request(table.row.id, record, asker), 202)


@router.get("/api/replays/{table_id}/analysis")
async def analysis(table_id: str, request: Request, lobby: LobbyDep,
                   store: StoreDep) -> Response:
    """How the analysis of a match stands: ``none``, ``queued``, ``running``, ``done``
    (with the analysis) or ``failed`` (limited per address as profiles are)."""
    get_guards(request).views.check(request.scope)
    known = await lobby.analyses.status(table_id)
    if isinstance(known, dict) and known["status"] == "none" and (
            len(table_id) > 64 or await store.table(table_id) is None):
        raise ApiError("no such table", "table/not_found")
    return json_response(known)


@router.get("/api/replays/{table_id}/mistakes")
async def mistakes(table_id: str, request: Request, lobby: LobbyDep, me: MaybePlayer,
                   seat: int | None = None) -> Response:
    """A seat's costliest plays of an analysed match as positions to solve again (the
    viewer's own seat when ``seat`` is not given and they played the match); the analysis
    must be done (``analysis/not_ready``)."""
    get_guards(request).views.check(request.scope)
    limit_rebuild(request, table_id)
    table = await lobby.any_table(table_id)
    record = finished_record(table)
    viewer = table.seat_of_player(me.id if me is not None else None)
    if seat is None:
        seat = viewer
    if seat is None or not 0 <= seat < len(record.players):
        raise ApiError(f"seat: a seat of the match is 0 to {len(record.players) - 1}",
                       "analysis/bad_seat")
    key = (table.row.id, seat)
    body = MISTAKES.get(key)
    if body is None:
        analysis = await lobby.analyses.document(table.row.id)
        if analysis is None:
            raise ApiError("the expert has not analysed this match yet: ask for the analysis "
                           "on its replay", "analysis/not_ready")
        body = await asyncio.to_thread(seat_mistakes, record, analysis, seat)
        body["table"] = table.row.id
        MISTAKES[key] = body
        while len(MISTAKES) > MISTAKES_KEPT:
            MISTAKES.popitem(last=False)
    else:
        MISTAKES.move_to_end(key)
    return json_response({**body, "viewer": viewer})


__all__ = ["MAX_RECORD_BYTES", "router"]
