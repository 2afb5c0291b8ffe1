"""Puzzles (issue 29; docs/PROTOCOL.md, section 1.8): the next rated puzzle, one by id, the
daily puzzle, the streak, a play judged, a hint, the solution, the player's puzzle rating.

A session is optional: without one a puzzle is served and judged but nothing is rated or
kept. Judging is a walk of the stored solution (:mod:`basra.server.learning.puzzles`);
every request is counted per address and, with a session, per player."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from basra.server.http.deps import MaybePlayer, Player, get_guards, services
from basra.server.learning.puzzles import Puzzles, puzzle_of
from basra.server.wire.server_messages import dumps
from basra.store.base import PlayerRow

router = APIRouter()

MOST_PLAYS = 24
"""The most plays one request may carry (a two-player last deal has eight)."""


async def _puzzles(request: Request) -> Puzzles:
    puzzles = services(request).puzzles
    assert puzzles is not None, "the puzzles open with the app's lifespan"
    await puzzles.ready()  # the shipped puzzles read once, off the event loop
    return puzzles


PuzzlesDep = Annotated[Puzzles, Depends(_puzzles)]


def _counted(request: Request, player: PlayerRow | None) -> None:
    get_guards(request).puzzles.check(request.scope, "puzzle requests",
                                      None if player is None else player.id)


class Plays(BaseModel):
    plays: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list,
                                                              max_length=MOST_PLAYS)


class Streak(BaseModel):
    seed: int = Field(ge=0, lt=1 << 30)
    lines: list[list[Annotated[str, Field(max_length=64)]]] = Field(max_length=200)


def answer(body: dict[str, Any]) -> Response:
    """JSON as orjson writes it (no walk of the answer by FastAPI's encoder)."""
    return Response(dumps(body), media_type="application/json")


@router.get("/api/puzzles/next")
async def next_puzzle(request: Request, player: MaybePlayer, puzzles: PuzzlesDep,
                      variant: Annotated[str, Query(max_length=40)] = "egyptian",
                      ) -> Response:
    _counted(request, player)
    return answer(await puzzles.next_for(player, variant))


@router.get("/api/puzzles/daily")
async def daily(request: Request, player: MaybePlayer, puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.daily(player, datetime.now(UTC).date()))


@router.get("/api/puzzles/streak/{index}")
async def streak_puzzle(request: Request, index: int, puzzles: PuzzlesDep,
                        seed: Annotated[int, Query(ge=0, lt=1 << 30)]) -> Response:
    _counted(request, None)
    return answer(await puzzles.streak_next(seed, index))


@router.post("/api/puzzles/streak")
async def streak_done(request: Request, body: Streak, player: Player,
                      puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.streak_done(player, body.seed, body.lines))


@router.get("/api/puzzles/me")
async def my_puzzles(request: Request, player: Player, puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.me(player))


@router.get("/api/puzzles/{puzzle_id}")
async def one_puzzle(request: Request, puzzle_id: str, player: MaybePlayer,
                     puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.by_link(puzzle_of(puzzle_id), player))


@router.post("/api/puzzles/{puzzle_id}/play")
async def play(request: Request, puzzle_id: str, body: Plays, player: MaybePlayer,
               puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.play(puzzle_of(puzzle_id), player, body.plays))


@router.post("/api/puzzles/{puzzle_id}/hint")
async def hint(request: Request, puzzle_id: str, body: Plays, player: MaybePlayer,
               puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.hint(puzzle_of(puzzle_id), player, body.plays))


@router.post("/api/puzzles/{puzzle_id}/solution")
async def solution(request: Request, puzzle_id: str, player: MaybePlayer,
                   puzzles: PuzzlesDep) -> Response:
    _counted(request, player)
    return answer(await puzzles.solution(puzzle_of(puzzle_id), player))
