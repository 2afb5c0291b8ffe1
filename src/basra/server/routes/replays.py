"""Replays: a finished match step by step with every hand face up (``GET
/api/replays/ID``), and a record file the reader opens (``POST /api/replays``), checked as
``basra replay`` checks it (:mod:`basra.replay_steps`); and the expert's analysis of a
finished match, asked for once and stored (:mod:`basra.server.analyses`)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response

from basra.errors import BasraError
from basra.records import parse_record
from basra.replay_steps import replay_steps
from basra.server.deps import LobbyDep, StoreDep, get_guards, limit
from basra.server.errors import ApiError
from basra.server.table import Table

router = APIRouter()

MAX_RECORD_BYTES = 512 * 1024
"""The largest record file ``POST /api/replays`` reads (a long Serbian match is ~100 KB)."""
CACHED = 64
"""Finished matches' replays kept encoded (a finished match never changes)."""

_cache: OrderedDict[str, bytes] = OrderedDict()


def finished_record(table: Table) -> Any:
    """A finished match's record (``replay/not_finished`` while it is in play)."""
    if table.status == "abandoned" and not table.driver.rounds:
        raise ApiError("that match was given up before its first card: there is nothing "
                       "to replay", "replay/not_found")
    if table.status != "finished":
        raise ApiError("that match is still being played: its replay opens when it ends "
                       "(watch it live meanwhile)", "replay/not_finished")
    return table.export_record()


def encode_json(data: Any) -> bytes:
    """Compact UTF-8 JSON (a name with a lone surrogate, which orjson refuses, is written
    escaped by the standard library)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, separators=(",", ":")).encode()


def json_response(body: bytes, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type="application/json")


@router.get("/api/replays/{table_id}")
async def table_replay(table_id: str, request: Request, lobby: LobbyDep) -> Response:
    """A finished match step by step (limited per address as profiles are)."""
    get_guards(request).views.check(request.scope)
    body = _cache.get(table_id)
    if body is not None:
        _cache.move_to_end(table_id)
        return json_response(body)
    table = await lobby.any_table(table_id)
    record = finished_record(table)
    body = encode_json(await asyncio.to_thread(replay_steps, record, table.row.id))
    _cache[table_id] = body
    while len(_cache) > CACHED:
        _cache.popitem(last=False)
    return json_response(body)


@router.post("/api/replays")
async def file_replay(request: Request) -> Response:
    """A record file's replay: the file as sent (basra-record/1), checked as ``basra
    replay`` checks it; an illegal or malformed record is ``replay/bad_record`` with the
    one-line error naming its round and play."""
    limit(request, "tables")
    raw = await request.body()
    try:
        steps = await asyncio.to_thread(lambda: replay_steps(parse_record(raw)))
    except BasraError as exc:
        raise ApiError(exc.message, "replay/bad_record") from None
    except (ValueError, RecursionError):  # not JSON at all (orjson/json's own errors)
        raise ApiError("record: not a basra-record/1 document (JSON)",
                       "replay/bad_record") from None
    return json_response(encode_json(steps))


@router.post("/api/replays/{table_id}/analysis", status_code=202)
async def ask_analysis(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Ask the expert to analyse a finished match (once: later asks are answered with how
    it stands)."""
    table = await lobby.any_table(table_id)
    record = finished_record(table)
    known = await lobby.analyses.status(table.row.id)
    if known["status"] in ("done", "queued", "running"):
        return known
    limit(request, "tables")
    return await lobby.analyses.request(table.row.id, record)


@router.get("/api/replays/{table_id}/analysis")
async def analysis(table_id: str, lobby: LobbyDep, store: StoreDep) -> dict[str, Any]:
    """How the analysis of a match stands: ``none``, ``queued``, ``running``, ``done``
    (with the analysis) or ``failed``."""
    known = await lobby.analyses.status(table_id)
    if known["status"] == "none" and (len(table_id) > 64
                                      or await store.table(table_id) is None):
        raise ApiError("no such table", "table/not_found")
    return known


__all__ = ["MAX_RECORD_BYTES", "router"]
