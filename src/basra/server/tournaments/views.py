"""What the API and the tournament socket say of an event, its entrants and its pairings
(docs/PROTOCOL.md, "Tournaments"): one shape each, whoever builds it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from basra.server.tournaments.arena import ArenaRow
from basra.server.tournaments.swiss import SwissRow
from basra.store.base import EntrantRow, PairingRow, TournamentRow

PAGE_ROWS = 20
"""Rows of the standings a page shows and hears of at once (``page`` 1 is the first
twenty): a watcher of a 2,000-entrant event hears of its page, not of the whole table."""
PLAYING_SHOWN = 10
"""The matches being played that an event's page lists (those of the best placed)."""

COMPLAINT_WINDOW = timedelta(minutes=10)
"""After an event ends, its results stay provisional this long (a complaint may still
change them)."""


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def event_json(row: TournamentRow, now: datetime | None = None) -> dict[str, Any]:
    """An event as listed and as its page heads it."""
    ends = (row.starts_at + timedelta(minutes=row.minutes)
            if row.format == "arena" and row.minutes is not None else None)
    out: dict[str, Any] = {
        "id": row.id, "name": row.name, "variant": row.variant, "format": row.format,
        "status": row.status, "starts_at": _when(row.starts_at), "ends_at": _when(ends),
        "minutes": row.minutes, "rounds": row.rounds, "round": row.round,
        "rated": row.rated, "length": row.length, "clock_seconds": row.clock_seconds,
        "min_rating": row.min_rating, "max_rating": row.max_rating,
        "private": row.private, "password": row.password_hash is not None,
        "scheduled": row.created_by is None,
        "started_at": _when(row.started_at), "finished_at": _when(row.finished_at),
    }
    if row.finished_at is not None:
        final_at = row.finished_at + COMPLAINT_WINDOW
        out["final_at"] = final_at.isoformat()
        out["provisional"] = now is None or now < final_at
    return out


def pairing_json(pairing: PairingRow, names: Mapping[str, str] | None = None
                 ) -> dict[str, Any]:
    """A pairing; with ``names`` (entrant -> name), its entrants' names too (a page does not
    hold every entrant's row)."""
    out: dict[str, Any] = {
        "id": pairing.id, "round": pairing.round, "entrants": list(pairing.entrants),
        "table": pairing.table_id, "created_at": _when(pairing.created_at),
        "points": list(pairing.points) if pairing.points is not None else None,
        "absent": list(pairing.absent)}
    if names is not None:
        out["names"] = [names.get(entrant, "") for entrant in pairing.entrants]
    return out


def _entrant(entrant: EntrantRow) -> dict[str, Any]:
    return {"entrant": entrant.id, "name": entrant.name,
            "usernames": list(entrant.usernames), "status": entrant.status,
            "rating": round(entrant.rating)}


def arena_row_json(row: ArenaRow, entrant: EntrantRow, table: str | None) -> dict[str, Any]:
    """An arena's row; ``table``: the one its entrant plays at now (None: not playing)."""
    return {**_entrant(entrant), "rank": row.rank, "score": row.score, "games": row.games,
            "wins": row.wins, "draws": row.draws, "losses": row.losses, "fire": row.fire,
            "performance": round(row.performance, 1), "sheet": list(row.sheet),
            "playing": table is not None, "table": table}


def swiss_row_json(row: SwissRow, entrant: EntrantRow, table: str | None,
                   names: Mapping[str, str]) -> dict[str, Any]:
    """A Swiss's row; its sheet names each round's opponent (``names``: entrant -> name)."""
    return {**_entrant(entrant), "rank": row.rank, "score": row.score,
            "buchholz": row.buchholz, "sonneborn_berger": row.sonneborn_berger,
            "games": row.games, "byes": row.byes,
            "sheet": [[opponent, points, names.get(opponent, "") if opponent else None]
                      for opponent, points in row.sheet],
            "playing": table is not None, "table": table}
