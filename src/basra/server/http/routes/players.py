"""Profiles and leaderboards: ``GET /api/players/{username}`` (an account's ratings with
their history, its record of wins and losses, basras and points per round, its recent
matches) and ``GET /api/leaderboard/{variant}`` (the best established ratings of a variant
among accounts that played rated lately). Both are public: no session needed.

The figures come from the stored results: ``rounds`` (rounds played), ``basras`` and
``points`` (per side, the points the side's rounds scored) are kept for matches finished
since issue 12; older matches count for games, wins, draws and losses only."""

from __future__ import annotations

import time
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request

from basra.errors import UnknownVariantError
from basra.game.rules import find_variant
from basra.server.fairplay.moderation import completion_json
from basra.server.http.deps import (
    MaybePlayer,
    SocialDep,
    StoreDep,
    get_guards,
    get_settings,
)
from basra.server.identity.accounts import rating_json
from basra.server.wire.errors import ApiError
from basra.store.base import HistoryRow, LeaderRow, RatingPoint, RatingRow

router = APIRouter()

MATCHES_COUNTED = 1000
"""How many of a player's latest matches the profile's figures are counted over."""
RECENT = 10
"""How many recent matches a profile lists."""
HISTORY_POINTS = 500
"""How many rated matches a profile's rating charts go back."""
LEADERS = 100
LEADER_DEVIATION = 75.0
"""A leaderboard lists ratings whose deviation is under this (established ones)..."""
LEADER_DAYS = 30
"""...of accounts with a rated game in this many days."""
KEPT = 2_000
"""Answers kept at most (the oldest go first)."""


class Answers:
    """Recent answers by key, each served again for ``fresh`` seconds (one per app: a
    popular profile costs its queries once in that long, not once a view)."""

    def __init__(self, fresh: float) -> None:
        self.fresh = fresh
        self.kept: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()

    def get(self, key: str) -> dict[str, Any] | None:
        found = self.kept.get(key)
        if found is None or time.monotonic() - found[0] > self.fresh:
            return None
        return found[1]

    def put(self, key: str, answer: dict[str, Any]) -> dict[str, Any]:
        self.kept[key] = (time.monotonic(), answer)
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return answer


def answers_of(request: Request) -> Answers:
    state = request.app.state
    if not hasattr(state, "answers"):
        state.answers = Answers(get_settings(request).views_fresh_seconds)
    found: Answers = state.answers
    return found


def side_of(row: HistoryRow) -> int:
    """The scoring side of the player's seat: the seat itself, or its team."""
    sides = 2 if row.teams else max(1, len(row.players))
    return row.seat % sides


def won(row: HistoryRow) -> bool | None:
    """True won, False lost, None a draw (no winner)."""
    return None if row.winner is None else row.winner == side_of(row)


def per_side(result: dict[str, Any], key: str, side: int) -> float | None:
    """A per-side figure of a stored result, if it holds one for ``side``."""
    values = result.get(key)
    if not isinstance(values, list) or side >= len(values):
        return None
    value = values[side]
    return float(value) if isinstance(value, int | float) else None


@dataclass
class Tally:
    """What a profile says of a player's matches."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rounds: int = 0
    """Rounds of the matches whose result says how many (the per-round figures' base)."""
    basras: float = 0
    points: float = 0

    @classmethod
    def of(cls, rows: Iterable[HistoryRow]) -> Tally:
        tally = cls()
        for row in rows:
            if not row.took_part:  # not theirs to count (a rematch never played, say)
                continue
            tally.games += 1
            outcome = won(row)
            if outcome is None:
                tally.draws += 1
            elif outcome:
                tally.wins += 1
            else:
                tally.losses += 1
            rounds = row.result.get("rounds")
            side = side_of(row)
            basras = per_side(row.result, "basras", side)
            points = per_side(row.result, "points", side)
            if isinstance(rounds, int) and rounds > 0 and basras is not None \
                    and points is not None:
                tally.rounds += rounds
                tally.basras += basras
                tally.points += points
        return tally

    def per_round(self, total: float) -> float | None:
        return round(total / self.rounds, 2) if self.rounds else None


def shown_change(after: float, change: float) -> int:
    """A rating change as the match end showed it: between the whole ratings shown."""
    return round(after) - round(after - change)


def rating_with_history(row: RatingRow, points: Sequence[RatingPoint]) -> dict[str, Any]:
    """A rating as ``/api/me`` shows it, with the rating after each rated match."""
    return {**rating_json(row), "history": [
        {"at": p.finished_at.isoformat(), "rating": round(p.rating),
         "change": shown_change(p.rating, p.change), "table": p.table_id}
        for p in points if p.variant == row.variant]}


def recent_json(row: HistoryRow, usernames: list[str | None],
                after: RatingPoint | None) -> dict[str, Any]:
    """A recent match; ``after``: the player's rating after it, if it was rated."""
    change: int | None = None
    if row.rated and after is not None:
        change = shown_change(after.rating, after.change)
    elif row.rated and row.change is not None:
        change = round(row.change)
    return {
        "table": row.table_id, "variant": row.variant, "players": list(row.players),
        "usernames": usernames, "seat": row.seat, "teams": row.teams,
        "winner": row.winner, "totals": list(row.totals),
        "finished_at": row.finished_at.isoformat(), "rated": row.rated,
        "change": change, "won": won(row) is True and row.took_part,
        "took_part": row.took_part,
        "record": f"/api/tables/{row.table_id}/record", "replay": f"/replay/{row.table_id}",
    }


@router.get("/api/players/{username}")
async def profile(username: str, request: Request, store: StoreDep, viewer: MaybePlayer,
                  social: SocialDep) -> dict[str, Any]:
    """An account's profile (a guest has none, nor a deleted account: 404); the same
    answer for ``views_fresh_seconds``, with what is between the viewer and the player
    (``social``: followers, and whether each follows the other) as it is now."""
    get_guards(request).views.check(request.scope)
    name = unicodedata.normalize("NFC", username).strip()
    key = "player:" + " ".join(name.split()).casefold()
    cached = answers_of(request).get(key)
    if cached is None:
        cached = answers_of(request).put(key, await profile_of(name, username, store))
    found = await store.account(name)
    between = await social.friends.relation(viewer, found.player.id) if found else {}
    return {**cached, "social": between}


async def profile_of(name: str, username: str, store: StoreDep) -> dict[str, Any]:
    found = await store.account(name)
    if found is None or found.player.username is None:
        raise ApiError(f"no player is called {username[:40]!r}", "player/not_found")
    player = found.player
    ratings = await store.ratings(player.id)
    points = await store.rating_history(player.id, limit=HISTORY_POINTS)
    rows = await store.history(player.id, limit=MATCHES_COUNTED)
    tally = Tally.of(rows)
    by_table = {p.table_id: p for p in points}
    recent = [recent_json(row, list(row.usernames), by_table.get(row.table_id))
              for row in rows[:RECENT]]
    return {
        "username": player.username, "nickname": player.nickname,
        "joined": player.created_at.isoformat(),
        "ratings": {row.variant: rating_with_history(row, points)
                    for row in sorted(ratings, key=lambda r: r.variant)},
        "games": tally.games, "wins": tally.wins, "draws": tally.draws,
        "losses": tally.losses, "rounds": tally.rounds,
        "basras_per_round": tally.per_round(tally.basras),
        "points_per_round": tally.per_round(tally.points),
        "recent": recent,
        "completion": completion_json(*await store.completion(player.id)),
        "trophies": [{"tournament": event.id, "name": event.name, "variant": event.variant,
                      "format": event.format, "place": place,
                      "finished_at": event.finished_at.isoformat()
                      if event.finished_at else None}
                     for event, place in await store.trophies(player.id)
                     if not event.private],
    }


@router.get("/api/leaderboard/{variant}")
async def leaderboard(variant: str, request: Request, store: StoreDep) -> dict[str, Any]:
    """The top accounts of a variant: deviation under 75, a rated game in 30 days (the
    same answer for ``views_fresh_seconds``)."""
    get_guards(request).views.check(request.scope)
    try:
        rules = find_variant(variant)
    except UnknownVariantError as err:
        raise ApiError(str(err), "variant/unknown") from None
    cached = answers_of(request).get("leaderboard:" + rules.name)
    if cached is not None:
        return cached
    return answers_of(request).put("leaderboard:" + rules.name,
                                   await leaders_of(rules.name, store))


async def leaders_of(variant: str, store: StoreDep) -> dict[str, Any]:
    since = datetime.now(UTC) - timedelta(days=LEADER_DAYS)
    rows = await store.leaderboard(variant, since, limit=LEADERS,
                                   max_deviation=LEADER_DEVIATION)
    # A young site has few settled ratings: the provisional players are shown beneath,
    # marked so, never ranked among the settled (issue 28).
    settled = {row.player_id for row in rows}
    unsure = [row for row in await store.leaderboard(variant, since, limit=LEADERS * 2,
                                                     max_deviation=10_000.0)
              if row.player_id not in settled][:LEADERS]

    def entry(row: LeaderRow, rank: int | None) -> dict[str, Any]:
        return {"rank": rank, "username": row.username, "nickname": row.nickname,
                "rating": round(row.rating), "deviation": round(row.deviation),
                "games": row.games, "rated_at": row.rated_at.isoformat(),
                "provisional": rank is None}

    return {"variant": variant, "since": since.isoformat(),
            "players": [entry(row, rank) for rank, row in enumerate(rows, 1)],
            "provisional": [entry(row, None) for row in unsure]}
