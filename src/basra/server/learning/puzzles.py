"""Puzzles as a player meets them (issue 29): the next puzzle near their puzzle rating, the
daily puzzle, the streak, a hint, the solution, and a first try rated once.

The puzzles and their proved solutions ship with the package (:mod:`basra.puzzles`): serving
one and judging a play is a walk of the stored solution (:func:`basra.puzzles.check.check`),
never a search. What the store keeps is the ratings: each player's puzzle rating and each
puzzle's own (Glicko-2, as matches are rated, :func:`basra.ratings.rate_game`: a solved
puzzle is a win against it, a failed one a loss), and each player's first meeting with each
puzzle.

**What is rated is the server's to say.** A puzzle served by ``next`` or ``daily`` to a
player with a session is kept as served, its first try open; the try ends at its first
wrong play (a play sent after a wrong one included), a hint, or the solution asked for (a
loss), or when the line is solved (a win), and is rated then, once, in the store's
transaction (:meth:`~basra.store.ports.LearningStore.settle_puzzle`: both ratings as they
stand then). A puzzle opened by its link, or in a streak, or met before, is practice:
judged, never rated. The browser says nothing about modes.

A node keeps every puzzle's rating in memory to choose the next one (read from the store
once, moved as this node rates); each player's met puzzles are kept for the players seen
lately (bounded), so choosing reads the store once per player.

The streak (lichess's Puzzle Streak) is unrated: puzzles of rising shipped rating from a seed
the browser holds, the same on every node whatever the ratings do; one wrong play ends it.
Its length counts toward the player's best when the server re-walks every puzzle of it with
the plays sent. Since every solution ships with the package, that is a check of the plays,
not a proof that the player found them.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache, lru_cache

from basra.puzzles.check import Step, canonical, check, position_json
from basra.puzzles.model import Node, Puzzle, PuzzleError
from basra.puzzles.shipped import VARIANTS, all_puzzles, by_id, load
from basra.ratings import START_VOLATILITY, Rating
from basra.server.wire.errors import ApiError
from basra.store.base import GlickoRow, PlayerRow, PuzzleAttemptRow, PuzzlePlayerRow
from basra.store.ports import Store

PUZZLE_DEVIATION = 300.0
"""A puzzle's rating deviation before anyone has tried it."""
NEAR = 120.0
"""The next puzzle is chosen this close to the player's rating (a little random within,
so two players of one rating do not meet the same puzzles in the same order)."""
KEPT_PLAYERS = 5000
"""Players whose met puzzles a node keeps in memory (the least recently seen go)."""
STREAK_STEP = 25.0
"""A streak's n-th puzzle (from 0) is near the easiest puzzles' shipped rating (the 2nd
percentile of the variant's) + n * STREAK_STEP."""
STREAK_MOST = 200
"""The longest streak the server serves and checks (so one request stays small)."""
STARTS_KEPT = 2048
"""Puzzles whose first position a node keeps ready (the most served)."""
DAILY_VARIANT = "egyptian"
DAILY_BAND = (1300, 1900)
Order = list[tuple[float, str]]
"""A variant's puzzles by rating: (rating, id), sorted."""


def _glicko(rating: Rating) -> GlickoRow:
    return GlickoRow(rating.rating, rating.deviation, rating.volatility)


def _rating(glicko: GlickoRow) -> Rating:
    return Rating(glicko.rating, glicko.deviation, glicko.volatility)


def variant_of(name: str) -> str:
    """A variant with puzzles, or ``puzzle/unknown_variant``."""
    if name not in VARIANTS or not load(name):
        raise ApiError(f"no puzzles for variant {name[:40]!r} (there are: "
                       f"{', '.join(v for v in VARIANTS if load(v))})",
                       "puzzle/unknown_variant")
    return name


def puzzle_of(puzzle_id: str) -> Puzzle:
    """A shipped puzzle by id, or ``puzzle/not_found``."""
    puzzle = by_id(puzzle_id) if len(puzzle_id) <= 40 else None
    if puzzle is None:
        raise ApiError(f"no puzzle {puzzle_id[:40]!r}", "puzzle/not_found")
    return puzzle


@cache
def _daily_pool() -> tuple[Puzzle, ...]:
    return tuple(p for p in load(DAILY_VARIANT)
                 if DAILY_BAND[0] <= p.rating <= DAILY_BAND[1] and p.line_plays >= 2) \
        or load(DAILY_VARIANT)


@lru_cache(maxsize=8)
def daily_puzzle(day: date) -> Puzzle:
    """The day's puzzle: the same for everyone on a UTC day, picked from the egyptian
    puzzles of middling rating whose line asks for two plays or more."""
    pool = _daily_pool()
    digest = hashlib.sha256(f"basra-daily|{day.isoformat()}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def near(order: Order, target: float, skip: set[str], seed: int) -> Puzzle:
    """The puzzle of ``order`` nearest ``target`` (give or take :data:`NEAR`, by ``seed``)
    that is not in ``skip``; if every one is, the nearest."""
    aim = target + random.Random(seed).uniform(-NEAR, NEAR)
    start = bisect.bisect_left(order, (aim, ""))
    low, high = start - 1, start
    while low >= 0 or high < len(order):
        below = order[low] if low >= 0 else None
        above = order[high] if high < len(order) else None
        if above is not None and (below is None or above[0] - aim <= aim - below[0]):
            high += 1
            if above[1] not in skip:
                return puzzle_of(above[1])
        elif below is not None:
            low -= 1
            if below[1] not in skip:
                return puzzle_of(below[1])
    return puzzle_of(order[min(start, len(order) - 1)][1])


@cache
def shipped_order(variant: str) -> Order:
    """A variant's puzzles by their shipped rating: the streak's ladder, the same on every
    node whatever the live ratings do."""
    return sorted((float(p.rating), p.id) for p in load(variant))


def streak_start(variant: str = DAILY_VARIANT) -> float:
    """Where a streak starts: the easiest puzzles' shipped rating (the 2nd percentile)."""
    order = shipped_order(variant)
    return order[len(order) // 50][0]


def streak(seed: int, count: int, variant: str = DAILY_VARIANT) -> list[Puzzle]:
    """A streak's first ``count`` puzzles for ``seed``: rising in shipped rating, none met
    twice."""
    order = shipped_order(variant)
    start = streak_start(variant)
    seen: set[str] = set()
    out = []
    for i in range(count):
        puzzle = near(order, start + i * STREAK_STEP, seen, seed * 1009 + i)
        seen.add(puzzle.id)
        out.append(puzzle)
    return out


def streak_puzzle(seed: int, index: int, variant: str = DAILY_VARIANT) -> Puzzle:
    """The streak's ``index``-th puzzle (from 0) for ``seed``."""
    return streak(seed, index + 1, variant)[index]


@dataclass(frozen=True, slots=True)
class Rated:
    """What a finished first try did to the player's puzzle rating."""

    before: float
    after: float
    solved: bool

    def to_json(self) -> dict[str, object]:
        return {"before": round(self.before), "after": round(self.after),
                "change": round(self.after) - round(self.before), "solved": self.solved}


class Puzzles:
    """This node's puzzle service over the store's ratings."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ratings: dict[str, Rating] = {}
        self.order: dict[str, Order] = {}
        self.met: OrderedDict[str, set[str]] = OrderedDict()
        self.loaded = False
        self.loading = asyncio.Lock()

    async def ready(self) -> None:
        """The shipped puzzles (read from the package once, 0.6 s for all: in a thread,
        never in the event loop) and the ratings the store holds, on first use."""
        if self.loaded:
            return
        async with self.loading:
            if self.loaded:
                return
            await asyncio.to_thread(all_puzzles)
            stored = {row.puzzle_id: _rating(row.glicko)
                      for row in await self.store.puzzle_ratings()}
            for variant in VARIANTS:
                order = []
                for puzzle in load(variant):
                    rating = stored.get(puzzle.id) or self.shipped(puzzle)
                    self.ratings[puzzle.id] = rating
                    order.append((rating.rating, puzzle.id))
                order.sort()
                self.order[variant] = order
            self.loaded = True

    @staticmethod
    def shipped(puzzle: Puzzle) -> Rating:
        """A puzzle's rating before anyone tried it: the one it ships with."""
        return Rating(float(puzzle.rating), PUZZLE_DEVIATION, START_VOLATILITY)

    def _moved(self, puzzle: Puzzle, rating: Rating) -> None:
        old = self.ratings.get(puzzle.id)
        self.ratings[puzzle.id] = rating
        order = self.order.get(puzzle.variant)
        if order is None or old is None:
            return
        index = bisect.bisect_left(order, (old.rating, puzzle.id))
        if index < len(order) and order[index][1] == puzzle.id:
            del order[index]
        bisect.insort(order, (rating.rating, puzzle.id))

    async def met_by(self, player_id: str) -> set[str]:
        """The puzzles the player has met (served or tried), kept for the players seen
        lately."""
        met = self.met.get(player_id)
        if met is None:
            met = await self.store.attempted_puzzles(player_id)
            self.met[player_id] = met
            while len(self.met) > KEPT_PLAYERS:
                self.met.popitem(last=False)
        else:
            self.met.move_to_end(player_id)
        return met

    async def _open(self, player_id: str) -> set[str]:
        return {row.puzzle_id for row in await self.store.open_puzzles(player_id)}

    async def player_rating(self, player_id: str) -> tuple[Rating, PuzzlePlayerRow | None]:
        row = await self.store.puzzle_player(player_id)
        return (Rating() if row is None or row.played == 0 else _rating(row.glicko)), row

    async def rating_of(self, puzzle: Puzzle) -> Rating:
        """A puzzle's rating now (this node's)."""
        await self.ready()
        return self.ratings.get(puzzle.id) or self.shipped(puzzle)

    async def next_for(self, player: PlayerRow | None, variant: str) -> dict[str, object]:
        """The next rated puzzle for ``player`` (or, without a session, near 1500)."""
        await self.ready()
        variant = variant_of(variant)
        if player is None:
            rating, skip, seed = Rating(), set[str](), random.randrange(1 << 30)
        else:
            rating, _ = await self.player_rating(player.id)
            # A puzzle served rated and not tried yet comes back until it is: a hard one
            # cannot be skipped for an easier one by asking again.
            for open_try in await self.store.open_puzzles(player.id):
                puzzle = puzzle_of(open_try.puzzle_id)
                if open_try.mode == "rated" and puzzle.variant == variant:
                    return await self.shown(puzzle, player, "rated", rating, rated=True)
            skip = await self.met_by(player.id)
            seed = hash((player.id, len(skip)))
        puzzle = near(self.order[variant], rating.rating, skip, seed)
        # (without a session nobody has a puzzle rating to show: the puzzle is practice)
        return await self.served(puzzle, player, "rated", rating if player else None)

    async def daily(self, player: PlayerRow | None, day: date) -> dict[str, object]:
        """The day's puzzle, rated for a player meeting it first."""
        out = await self.served(daily_puzzle(day), player, "daily")
        out["day"] = day.isoformat()
        return out

    async def served(self, puzzle: Puzzle, player: PlayerRow | None, mode: str,
                     rating: Rating | None = None) -> dict[str, object]:
        """``puzzle`` served in ``mode`` (``rated``, ``daily``: its first try is rated; a
        puzzle met before is practice, unless its rated try is still open)."""
        if player is not None:
            met = await self.met_by(player.id)
            if puzzle.id not in met:
                met.add(puzzle.id)
                stands = await self.store.serve_puzzle(PuzzleAttemptRow(
                    player.id, puzzle.id, mode, datetime.now(UTC)))
                if stands.result is None and stands.mode != "practice":
                    return await self.shown(puzzle, player, stands.mode, rating, rated=True)
            elif puzzle.id in await self._open(player.id):
                return await self.shown(puzzle, player, mode, rating, rated=True)
        return await self.shown(puzzle, player, "practice", rating)

    async def by_link(self, puzzle: Puzzle, player: PlayerRow | None) -> dict[str, object]:
        """A puzzle opened by its link: practice, unless it was served to the player rated
        and its try is still open (a page reloaded)."""
        if player is not None and puzzle.id in await self._open(player.id):
            return await self.shown(puzzle, player, "rated", rated=True)
        return await self.shown(puzzle, player, "practice")

    async def shown(self, puzzle: Puzzle, player: PlayerRow | None, mode: str,
                    rating: Rating | None = None, *, rated: bool = False
                    ) -> dict[str, object]:
        """A puzzle as the browser gets it: no solution; its rating now; the player's puzzle
        rating and whether its first try is rated."""
        await self.ready()
        if rating is None and player is not None:
            rating, _ = await self.player_rating(player.id)
        out = dict(_start(puzzle.id))
        out["rating"] = round((await self.rating_of(puzzle)).rating)
        out["mode"] = mode
        out["rated"] = rated
        out["you_rating"] = None if rating is None else rating.label
        return out

    async def _checked(self, puzzle: Puzzle, player: PlayerRow | None,
                       plays: Sequence[str]) -> Step:
        """:func:`check`, its errors the API's (their codes kept); a play sent after a wrong
        one loses the first try before it is refused."""
        try:
            return check(puzzle, plays)
        except PuzzleError as exc:
            if exc.code == "puzzle/after_wrong":
                await self.finish(puzzle, player, solved=False)
            raise ApiError(str(exc), exc.code) from None

    async def play(self, puzzle: Puzzle, player: PlayerRow | None,
                   plays: Sequence[str]) -> dict[str, object]:
        """Judge the last of ``plays``; the first try ends (and is rated, if it was served
        rated) at its first wrong play, a play sent after one included, or when solved."""
        step = await self._checked(puzzle, player, plays)
        out = step.to_json()
        out["rated"] = None
        if step.verdict in ("wrong", "solved"):
            rated = await self.finish(puzzle, player, solved=step.verdict == "solved")
            out["rated"] = None if rated is None else rated.to_json()
        return out

    async def hint(self, puzzle: Puzzle, player: PlayerRow | None,
                   plays: Sequence[str]) -> dict[str, object]:
        """The card to play next (not the take): a first try with a hint is not solved."""
        node = puzzle.tree
        if plays:
            step = await self._checked(puzzle, player, plays)
            if step.verdict != "right":
                if step.verdict == "wrong":
                    await self.finish(puzzle, player, solved=False)
                raise ApiError("no hint: the line is solved or the last play was wrong",
                               "puzzle/no_hint")
            node = _node_after(puzzle, plays)
        rated = await self.finish(puzzle, player, solved=False)
        card = node.accepted[0].partition(":")[0]
        return {"card": card, "rated": None if rated is None else rated.to_json()}

    async def solution(self, puzzle: Puzzle, player: PlayerRow | None) -> dict[str, object]:
        """The full solution; asked for before solving, the first try is lost."""
        rated = await self.finish(puzzle, player, solved=False)
        out = puzzle.solution_json()
        out["rated"] = None if rated is None else rated.to_json()
        out["end"] = position_json(puzzle, [play for _, play, _ in puzzle.main_line()])
        return out

    async def finish(self, puzzle: Puzzle, player: PlayerRow | None, *,
                     solved: bool) -> Rated | None:
        """End the player's first try at ``puzzle``: rated (both ways) when it was served
        to them rated and is still open, whoever ends it first on any node; else kept as
        practice. None when nothing was rated."""
        if player is None:
            return None
        (await self.met_by(player.id)).add(puzzle.id)
        settled = await self.store.settle_puzzle(player.id, puzzle.id, solved,
                                                 _glicko(self.shipped(puzzle)),
                                                 datetime.now(UTC))
        if settled is None:
            return None
        await self.ready()
        self._moved(puzzle, _rating(settled.puzzle))
        return Rated(settled.before.rating, settled.after.rating, solved)

    # ------------------------------------------------------------------ the streak

    async def streak_next(self, seed: int, index: int) -> dict[str, object]:
        """A streak's ``index``-th puzzle: practice, never rated."""
        await self.ready()
        if not 0 <= index < STREAK_MOST:
            raise ApiError(f"a streak has at most {STREAK_MOST} puzzles", "puzzle/streak_over")
        out = await self.shown(streak_puzzle(seed, index), None, "practice")
        out["index"] = index
        return out

    async def streak_done(self, player: PlayerRow, seed: int,
                          lines: Sequence[Sequence[str]]) -> dict[str, object]:
        """A streak's end: every puzzle of it re-walked with the plays sent; the length
        solved from the start counts toward the player's best."""
        if len(lines) > STREAK_MOST:
            raise ApiError(f"a streak has at most {STREAK_MOST} puzzles", "puzzle/streak_over")
        solved = 0
        for puzzle, plays in zip(streak(seed, len(lines)), lines, strict=True):
            try:
                if not plays or check(puzzle, plays).verdict != "solved":
                    break
            except PuzzleError:
                break
            solved += 1
        best = await self.store.best_streak(player.id, solved, datetime.now(UTC))
        return {"streak": solved, "best": best}

    async def me(self, player: PlayerRow) -> dict[str, object]:
        """The player's puzzle rating and counts."""
        rating, row = await self.player_rating(player.id)
        return {"rating": rating.label, "played": row.played if row else 0,
                "solved": row.solved if row else 0,
                "best_streak": row.best_streak if row else 0}


@lru_cache(maxsize=STARTS_KEPT)
def _start(puzzle_id: str) -> dict[str, object]:
    """A puzzle as the browser first gets it (the same for everyone), kept for the puzzles
    served lately. Never changed: callers copy it before adding to it."""
    puzzle = by_id(puzzle_id)
    assert puzzle is not None
    return puzzle.to_json()


def _node_after(puzzle: Puzzle, plays: Sequence[str]) -> Node:
    """The decision point after ``plays`` (each already judged right)."""
    node = puzzle.tree
    for text in plays:
        branch = node.branch_of(canonical(text))
        assert branch is not None and branch.after is not None
        node = branch.after
    return node
