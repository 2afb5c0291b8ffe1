"""The :class:`~basra.store.ports.RatingStore` in SQL, and the rating of a finished match
(:func:`rate`), which the table port runs inside the match's finishing transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from basra.ratings import Rating, rate_sides
from basra.store.base import LeaderRow, RatedGame, RatingPoint, RatingRow, aware
from basra.store.schema import players, ratings, table_seats, tables
from basra.store.sql.engine import SqlPort
from basra.store.sql.rows import rating_row


class SqlRatings(SqlPort):
    """Ratings, their history and the leaderboard, read on the shared engine."""

    async def ratings(self, player_id: str) -> list[RatingRow]:
        query = (select(ratings).where(ratings.c.player_id == player_id)
                 .order_by(ratings.c.variant))
        return [rating_row(row) for row in await self.sql.rows(query)]

    async def rating_history(self, player_id: str, limit: int = 500) -> list[RatingPoint]:
        query = (select(tables.c.id, tables.c.variant, tables.c.finished_at,
                        table_seats.c.rating_before, table_seats.c.rating_after,
                        table_seats.c.deviation_after)
                 .join(table_seats, table_seats.c.table_id == tables.c.id)
                 .where(table_seats.c.player_id == player_id, tables.c.rated.is_(True),
                        tables.c.status == "finished", table_seats.c.rating_after.is_not(None))
                 .order_by(tables.c.finished_at.desc(), tables.c.id).limit(limit))
        rows = await self.sql.rows(query)
        return [RatingPoint(row.id, row.variant, row.finished_at, row.rating_after,
                            row.deviation_after, row.rating_after - row.rating_before)
                for row in reversed(rows)]

    async def leaderboard(self, variant: str, since: datetime, limit: int = 100,
                          max_deviation: float = 75.0) -> list[LeaderRow]:
        query = (select(ratings, players.c.username, players.c.nickname)
                 .join(players, players.c.id == ratings.c.player_id)
                 .where(ratings.c.variant == variant, ratings.c.deviation < max_deviation,
                        ratings.c.rated_at >= aware(since, "since"),
                        players.c.deleted_at.is_(None), players.c.username.is_not(None))
                 .order_by(ratings.c.rating.desc(), ratings.c.games.desc(),
                           players.c.username_key)
                 .limit(limit))
        return [LeaderRow(row.player_id, row.username, row.nickname, row.rating, row.deviation,
                          row.games, row.rated_at) for row in await self.sql.rows(query)]


def rate(connection: Connection, table_id: str, game: RatedGame,
         finished: datetime) -> list[dict[str, Any]] | None:
    """Rate a finished match inside its finishing transaction
    (:func:`basra.ratings.rate_sides`: each player against each other side's mean): the
    players' ratings as stored now (locked, in player order, so that two nodes finishing
    matches of one player at once rate them one after the other; their deviations grown
    with the days since each last played), the new ones stored, and each seat's before and
    after kept with the match. Returns the result's ``ratings``: per seat, the ratings
    shown (whole points); None, rating nothing, if a player's account was deleted
    meanwhile."""
    deleted = (connection.execute(select(players.c.id).where(
        players.c.id.in_(list(game.players)), players.c.deleted_at.is_not(None)))).first()
    if deleted is not None:
        return None
    found = {row.player_id: row for row in (connection.execute(
        select(ratings).where(ratings.c.variant == game.variant,
                              ratings.c.player_id.in_(list(game.players)))
        .order_by(ratings.c.player_id).with_for_update())).all()}
    before: list[Rating] = []
    idle_days: list[float] = []
    for player in game.players:
        row = found.get(player)
        before.append(Rating() if row is None else
                      Rating(row.rating, row.deviation, row.volatility))
        idle_days.append(0.0 if row is None else
                         max(0.0, (finished - row.rated_at).total_seconds() / 86400))
    sides = game.sides
    new_sides = rate_sides([[before[seat] for seat in side] for side in sides], game.places,
                       [[idle_days[seat] for seat in side] for side in sides])
    after = [Rating()] * len(game.players)
    for side, news in zip(sides, new_sides, strict=True):
        for seat, rating in zip(side, news, strict=True):
            after[seat] = rating
    out: list[dict[str, Any]] = []
    for seat, (player, old, new) in enumerate(zip(game.players, before, after, strict=True)):
        games = 1 + (found[player].games if player in found else 0)
        values = {"rating": new.rating, "deviation": new.deviation,
                  "volatility": new.volatility, "games": games, "rated_at": finished}
        if player in found:
            connection.execute(update(ratings).where(
                ratings.c.player_id == player, ratings.c.variant == game.variant)
                .values(**values))
        else:
            connection.execute(insert(ratings).values(
                player_id=player, variant=game.variant, **values))
        connection.execute(update(table_seats).where(
            table_seats.c.table_id == table_id, table_seats.c.seat == seat).values(
            rating_before=old.rating, rating_after=new.rating,
            deviation_after=new.deviation))
        out.append({"seat": seat, "before": round(old.rating), "after": round(new.rating),
                    "change": round(new.rating) - round(old.rating),
                    "deviation": round(new.deviation), "label": new.label})
    return out
