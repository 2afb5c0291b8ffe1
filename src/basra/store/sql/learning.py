"""The :class:`~basra.store.ports.LearningStore` in SQL (issue 29): finished lessons, puzzle
ratings of players and of puzzles, and first tries.

A puzzle rates a player once: serving it rated keeps an open first try (the back end's "on
conflict do nothing": the first meeting stays); the try is settled by an update that only
takes an open one, in the same transaction as both new ratings, computed there from the
two rows read locked (``FOR UPDATE`` on PostgreSQL; SQLite has one writer): two tabs, or two
nodes, answering at once rate it once, and two puzzles settled at once by one player never
rate from the same old rating.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Row

from basra.ratings import START_DEVIATION, START_RATING, START_VOLATILITY, Rating, rate_game
from basra.store.base import (
    GlickoRow,
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRated,
    PuzzleRatingRow,
    aware,
)
from basra.store.schema import lesson_progress, puzzle_attempts, puzzle_players, puzzle_ratings
from basra.store.sql.engine import SqlPort
from basra.store.sql.rows import insert_new


def _glicko(row: Row[Any]) -> GlickoRow:
    return GlickoRow(float(row.rating), float(row.deviation), float(row.volatility))


RATED_MODES = ("rated", "daily")
"""How a puzzle is served when its first try is rated."""
_START = {"rating": START_RATING, "deviation": START_DEVIATION,
          "volatility": START_VOLATILITY}


def _met(connection: Connection, attempt: PuzzleAttemptRow) -> bool:
    """Keep a first meeting unless there was one: whether it is new."""
    return insert_new(connection, puzzle_attempts, player_id=attempt.player_id,
                      puzzle_id=attempt.puzzle_id, mode=attempt.mode,
                      served_at=aware(attempt.served_at, "served_at"), result=attempt.result,
                      finished_at=None if attempt.result is None
                      else aware(attempt.served_at, "finished_at"))


def _rating(row: Row[Any]) -> Rating:
    return Rating(float(row.rating), float(row.deviation), float(row.volatility))


def _row(rating: Rating) -> GlickoRow:
    return GlickoRow(rating.rating, rating.deviation, rating.volatility)


class SqlLearning(SqlPort):
    """Lessons and puzzles over the shared engine."""

    async def lessons_done(self, player_id: str) -> dict[str, datetime]:
        rows = await self.sql.rows(select(lesson_progress.c.lesson, lesson_progress.c.done_at)
                                   .where(lesson_progress.c.player_id == player_id))
        return {row.lesson: row.done_at for row in rows}

    async def finish_lesson(self, player_id: str, lesson: str, at: datetime) -> bool:
        def op(connection: Connection) -> bool:
            return insert_new(connection, lesson_progress, player_id=player_id, lesson=lesson,
                              done_at=aware(at, "done_at"))

        return await self.sql.batched(f"finish lesson {lesson}", op)

    async def puzzle_player(self, player_id: str) -> PuzzlePlayerRow | None:
        row = await self.sql.first(select(puzzle_players).where(
            puzzle_players.c.player_id == player_id))
        if row is None:
            return None
        return PuzzlePlayerRow(row.player_id, _glicko(row), row.played, row.solved,
                               row.best_streak)

    async def puzzle_rating(self, puzzle_id: str) -> PuzzleRatingRow | None:
        row = await self.sql.first(select(puzzle_ratings).where(
            puzzle_ratings.c.puzzle_id == puzzle_id))
        if row is None:
            return None
        return PuzzleRatingRow(row.puzzle_id, _glicko(row), row.played, row.solved)

    async def puzzle_ratings(self) -> list[PuzzleRatingRow]:
        rows = await self.sql.rows(select(puzzle_ratings))
        return [PuzzleRatingRow(row.puzzle_id, _glicko(row), row.played, row.solved)
                for row in rows]

    async def attempted_puzzles(self, player_id: str) -> set[str]:
        rows = await self.sql.rows(select(puzzle_attempts.c.puzzle_id).where(
            puzzle_attempts.c.player_id == player_id))
        return {row.puzzle_id for row in rows}

    async def open_puzzles(self, player_id: str) -> list[PuzzleAttemptRow]:
        rows = await self.sql.rows(
            select(puzzle_attempts).where(
                puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.result.is_(None),
                puzzle_attempts.c.mode.in_(RATED_MODES))
            .order_by(puzzle_attempts.c.served_at, puzzle_attempts.c.puzzle_id))
        return [PuzzleAttemptRow(row.player_id, row.puzzle_id, row.mode, row.served_at,
                                 row.result) for row in rows]

    async def serve_puzzle(self, attempt: PuzzleAttemptRow) -> PuzzleAttemptRow:
        def op(connection: Connection) -> PuzzleAttemptRow:
            if _met(connection, attempt):
                return attempt
            row = connection.execute(select(puzzle_attempts).where(
                puzzle_attempts.c.player_id == attempt.player_id,
                puzzle_attempts.c.puzzle_id == attempt.puzzle_id)).one()
            return PuzzleAttemptRow(row.player_id, row.puzzle_id, row.mode, row.served_at,
                                    row.result)

        return await self.sql.batched(f"serve puzzle {attempt.puzzle_id}", op)

    async def settle_puzzle(self, player_id: str, puzzle_id: str, solved: bool,
                            shipped: GlickoRow, at: datetime) -> PuzzleRated | None:
        result = "solved" if solved else "failed"

        def op(connection: Connection) -> PuzzleRated | None:
            open_try = (puzzle_attempts.c.player_id == player_id) & (
                puzzle_attempts.c.puzzle_id == puzzle_id)
            done = connection.execute(update(puzzle_attempts).where(
                open_try, puzzle_attempts.c.result.is_(None),
                puzzle_attempts.c.mode.in_(RATED_MODES)).values(
                    result=result, finished_at=aware(at, "at")))
            if not done.rowcount:
                # Met before (settled, or served in practice), or never: kept as practice.
                _met(connection, PuzzleAttemptRow(player_id, puzzle_id, "practice", at,
                                                  result))
                return None
            # Both rows made if missing, then read locked: their ratings as they are now.
            insert_new(connection, puzzle_players, player_id=player_id, **_START,
                       played=0, solved=0, best_streak=0, updated_at=aware(at, "at"))
            insert_new(connection, puzzle_ratings, puzzle_id=puzzle_id,
                       rating=shipped.rating, deviation=shipped.deviation,
                       volatility=shipped.volatility, played=0, solved=0)
            mine = connection.execute(select(puzzle_players).where(
                puzzle_players.c.player_id == player_id).with_for_update()).one()
            theirs = connection.execute(select(puzzle_ratings).where(
                puzzle_ratings.c.puzzle_id == puzzle_id).with_for_update()).one()
            before = _rating(mine) if mine.played else Rating()
            after, puzzle_after = rate_game(before, _rating(theirs), 1.0 if solved else 0.0)
            connection.execute(update(puzzle_players).where(
                puzzle_players.c.player_id == player_id).values(
                    rating=after.rating, deviation=after.deviation,
                    volatility=after.volatility, played=mine.played + 1,
                    solved=mine.solved + int(solved), updated_at=aware(at, "at")))
            connection.execute(update(puzzle_ratings).where(
                puzzle_ratings.c.puzzle_id == puzzle_id).values(
                    rating=puzzle_after.rating, deviation=puzzle_after.deviation,
                    volatility=puzzle_after.volatility, played=theirs.played + 1,
                    solved=theirs.solved + int(solved)))
            return PuzzleRated(_row(before), _row(after), _row(puzzle_after))

        return await self.sql.batched(f"settle puzzle {puzzle_id}", op)

    async def best_streak(self, player_id: str, streak: int, at: datetime) -> int:
        def op(connection: Connection) -> int:
            row = connection.execute(select(puzzle_players.c.best_streak).where(
                puzzle_players.c.player_id == player_id)).first()
            if row is None:
                connection.execute(puzzle_players.insert().values(
                    player_id=player_id, **_START, played=0, solved=0, best_streak=streak,
                    updated_at=aware(at, "at")))
                return streak
            best = int(row[0])
            if streak > best:
                connection.execute(update(puzzle_players).where(
                    puzzle_players.c.player_id == player_id).values(best_streak=streak))
                return streak
            return best

        return await self.sql.batched("best streak", op)
