"""The matches being played now, for ``GET /api/live`` (the live list and TV): each live
table's public summary, ordered newest first or best-rated first.

A summary holds only what every spectator sees anyway (names, ratings shown at the table,
the match's totals and sets, the round, how many watch), never a card. Private tables are
not listed (their players asked for a table by invitation; they can still be watched by
address). In cluster mode each node publishes its own tables' summaries to Redis every
second (:meth:`basra.server.cluster.node.Cluster`), and the list is the union of the nodes'.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from basra.server.table.snapshot import seat_kind

if TYPE_CHECKING:
    from basra.server.table.actor import Table

ORDERS = ("newest", "rating")
MOST = 100
"""Matches a list gives at most."""


def listed(table: Table) -> bool:
    """Whether a table is a live match for the list: being played, not private, and with
    a person at it (a match whose every human left, the bot playing their seats, is not
    live: issue 28, else one player would be seen in two live matches)."""
    return (table.status == "playing" and table.row.kind != "private"
            and any(seat.human and seat.connected and not seat.takeover
                    for seat in table.seats))


def summary(table: Table) -> dict[str, Any]:
    """A live table as the list shows it."""
    match = table.driver.match
    players = []
    ratings = []
    for seat in table.seats:
        players.append({"seat": seat.number, "name": seat.name, "kind": seat_kind(seat),
                        "rating": seat.rating, "account": seat.account,
                        "username": seat.username})
        if seat.rating is not None:
            ratings.append(seat.rating["rating"])
    return {"table": table.row.id, "variant": table.row.variant, "seats": table.row.seats,
            "teams": table.row.teams, "kind": table.row.kind, "rated": table.row.rated,
            "players": players, "totals": list(match.totals), "sets": list(match.sets),
            "round": match.rounds_started, "target": match.target,
            "spectators": len(table.audience.spectators),
            "started_at": table.row.created_at.isoformat().replace("+00:00", "Z"),
            "rating": round(sum(ratings) / len(ratings)) if ratings else None}


def ordered(matches: Iterable[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    """``newest`` first, or the best ``rating`` first (unrated last; then the most watched,
    then the newest); at most :data:`MOST`."""
    newest = sorted(matches, key=lambda m: (m["started_at"], m["table"]), reverse=True)
    if order == "rating":
        newest.sort(key=lambda m: (m["rating"] is None, -(m["rating"] or 0),
                                   -m["spectators"]))
    return newest[:MOST]


def live_summaries(tables: Iterable[Table]) -> list[dict[str, Any]]:
    return [summary(t) for t in tables if listed(t)]


__all__ = ["MOST", "ORDERS", "listed", "live_summaries", "ordered", "summary"]
