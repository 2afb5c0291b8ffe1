"""``GET /api/history``: the signed-in guest's finished matches, newest first."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from basra.server.http.deps import Player, StoreDep

router = APIRouter()


@router.get("/api/history")
async def history(player: Player, store: StoreDep) -> dict[str, Any]:
    rows = await store.history(player.id)
    return {"matches": [{
        "table": r.table_id, "variant": r.variant, "seat": r.seat,
        "players": list(r.players), "teams": r.teams, "winner": r.winner,
        "totals": list(r.totals), "finished_at": r.finished_at.isoformat(),
        "record": f"/api/tables/{r.table_id}/record", "replay": f"/replay/{r.table_id}",
        "rated": r.rated, "took_part": r.took_part,
        "change": None if r.change is None else round(r.change),
    } for r in rows]}
