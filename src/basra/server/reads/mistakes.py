"""A seat's costliest plays of an analysed match, as positions to solve again ("Learn from
your mistakes", ``GET /api/replays/ID/mistakes?seat=N``).

From the stored analysis (basra-analysis/1) the seat's plays that cost at least
:data:`LEAST_COST` points are taken, the costliest first (then in the match's order), at
most :data:`MOST`; each is rebuilt by replaying the record
(:func:`basra.match.analysis.positions`: the position as that seat faced it, its own view
only) into what the page shows: the hand, the floor, how many cards the seat had not seen,
the match's totals and the round, every legal play, the expert's play, the play made, its
cost and the analysis's words for it (``reason``, ``made_points``... when the analysis has
them; older analyses do not).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from basra.game.cards import NAMES, names_of
from basra.game.engine import Play
from basra.match.analysis import Position, positions
from basra.match.records import MatchRecord

FORMAT = "basra-mistakes/1"
MOST = 10
"""Positions given at most (the costliest)."""
LEAST_COST = 1.0
"""A play costing less than this many points is not a clear mistake."""
PASSED = ("reason", "made_take", "made_points", "best_points", "made_basra", "best_basra",
          "made_sweep", "best_sweep", "gave_basra", "best_gave_basra")
"""The analysis's words for a play, passed on as they are when it has them."""


def play_json(play: Play) -> dict[str, object]:
    """A play as the page takes it: its notation, its card and what it takes."""
    return {"play": str(play), "card": NAMES[play.card], "take": names_of(play.take)}


def _cost(play: Mapping[str, Any]) -> float:
    cost = play.get("cost")
    return float(cost) if isinstance(cost, int | float) else 0.0


def mistaken(analysis: Mapping[str, Any], seat: int) -> list[Mapping[str, Any]]:
    """The seat's analysed plays costing at least :data:`LEAST_COST`, the costliest first
    (equal costs in the match's order)."""
    plays = [p for p in analysis.get("plays") or () if isinstance(p, Mapping)
             and p.get("seat") == seat and _cost(p) >= LEAST_COST]
    return sorted(plays, key=lambda p: (-_cost(p), p.get("round", 0), p.get("number", 0)))


def position_json(position: Position, judged: Mapping[str, Any]) -> dict[str, Any] | None:
    """One position to solve (None when the analysis does not fit the record there)."""
    view = position.view
    try:
        best = Play.parse(str(judged["best"]))
    except (KeyError, ValueError):
        return None
    legal = list(view.legal)
    if best not in legal or position.made not in legal:
        return None
    out: dict[str, Any] = {
        "round": position.round, "number": position.number, "seat": position.seat,
        "side": position.side, "hand": [NAMES[c] for c in view.hand],
        "floor": [NAMES[c] for c in view.floor],
        "unseen": view.unseen().bit_count(), "stock": view.stock_count,
        "hand_counts": list(view.hand_counts), "pile_counts": list(view.pile_counts),
        "basra_points": list(view.basra_points), "totals": list(position.totals),
        "deal": view.deal_number, "legal": [play_json(p) for p in legal],
        "best": play_json(best), "made": play_json(position.made),
        "cost": round(_cost(judged), 3), "value": judged.get("value"),
        "best_value": judged.get("best_value"), "choices": len(legal),
    }
    for key in PASSED:
        if key in judged:
            out[key] = judged[key]
    return out


def mistakes(record: MatchRecord, analysis: Mapping[str, Any], seat: int,
             most: int = MOST) -> dict[str, Any]:
    """The seat's costliest plays of ``record`` (its analysis ``analysis``) as positions:
    basra-mistakes/1, ``mistakes`` counting every play of the seat that cost
    :data:`LEAST_COST` or more, ``positions`` the costliest :data:`MOST` of them."""
    chosen = mistaken(analysis, seat)
    wanted = {(p.get("round"), p.get("number")): p for p in chosen[:most]}
    found: dict[tuple[Any, Any], dict[str, Any]] = {}
    if wanted:
        for position in positions(record):
            key = (position.round, position.number)
            judged = wanted.get(key)
            if judged is None or position.seat != seat:
                continue
            made = position_json(position, judged)
            if made is not None:
                found[key] = made
            if len(found) == len(wanted):
                break
    return {"format": FORMAT, "variant": record.rules.name, "seats": len(record.players),
            "teams": record.teams, "players": list(record.players), "seat": seat,
            "iterations": analysis.get("iterations"), "mistakes": len(chosen),
            "positions": [found[key] for key in wanted if key in found]}


__all__ = ["FORMAT", "LEAST_COST", "MOST", "PASSED", "mistaken", "mistakes", "play_json"]
