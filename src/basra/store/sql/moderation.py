"""The :class:`~basra.store.ports.ModerationStore` in SQL (issue 31): reports, the
moderators' append-only log, players' standing, the matches they left, the expert's
summaries of their rated matches, refunds, and the words moderators added to the names'
list.

The log is only ever inserted into: nothing here updates or deletes a row of ``mod_log``.
The report queue is read newest first through the ``(status, created_at)`` index, so it
answers as fast with a hundred thousand reports stored as with ten.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from basra.confusables import lookalike_key
from basra.game.seating import Seating
from basra.store.base import (
    AssistGameRow,
    ModLogRow,
    PlayerRow,
    RefundRow,
    ReportRow,
    ReportStatus,
    Resolution,
    StandingChange,
    StandingRow,
    StoreError,
    UsernameLookalike,
    UsernameTaken,
)
from basra.store.schema import (
    assist_games,
    leaves,
    mod_log,
    name_words,
    players,
    ratings,
    refunds,
    reports,
    sanctions,
    table_seats,
    tables,
)
from basra.store.sql.engine import SqlPort, now
from basra.store.sql.rows import insert_new, player_row, username_key


def report_row(row: Row[Any]) -> ReportRow:
    return ReportRow(row.id, row.reporter_id, row.player_id, row.reason, row.note, row.status,
                     row.created_at, row.table_id, row.resolved_at, row.resolved_by,
                     row.outcome, row.detail)


def log_row(row: Row[Any]) -> ModLogRow:
    return ModLogRow(row.at, row.moderator_id, row.moderator_name, row.player_id,
                     row.player_name, row.action, row.reason, row.report_id, row.detail,
                     row.id)


class SqlModeration(SqlPort):
    """Fair play's rows on the shared engine."""

    # ------------------------------------------------------------------ reports

    async def add_report(self, report: ReportRow) -> None:
        values = {name: getattr(report, name) for name in ReportRow.__slots__}

        def op(connection: Connection) -> None:
            connection.execute(insert(reports).values(**values))

        await self.sql.batched(f"file report {report.id}", op)

    async def report(self, report_id: str) -> ReportRow | None:
        return await self.sql.find(reports, reports.c.id == report_id, report_row)

    async def reports(self, status: ReportStatus | None = "open", limit: int = 50,
                      player_id: str | None = None,
                      reporter_id: str | None = None) -> list[ReportRow]:
        query = select(reports)
        if status is not None:
            query = query.where(reports.c.status == status)
        if player_id is not None:
            query = query.where(reports.c.player_id == player_id)
        if reporter_id is not None:
            query = query.where(reports.c.reporter_id == reporter_id)
        query = query.order_by(reports.c.created_at.desc(), reports.c.id).limit(limit)
        return [report_row(row) for row in await self.sql.rows(query)]

    async def open_report_count(self, most: int) -> int:
        waiting = select(reports.c.id).where(reports.c.status == "open").limit(most).subquery()
        row = await self.sql.first(select(func.count()).select_from(waiting))
        return 0 if row is None else int(row[0])

    async def resolve_reports(self, player_id: str, resolution: Resolution,
                              report_id: str | None = None) -> int:
        where = [reports.c.player_id == player_id, reports.c.status == "open"]
        if report_id is not None:
            where.append(reports.c.id == report_id)

        def op(connection: Connection) -> int:
            done = connection.execute(update(reports).where(*where).values(
                status=resolution.status, resolved_by=resolution.by,
                resolved_at=resolution.at, outcome=resolution.outcome))
            return int(done.rowcount)

        return await self.sql.batched(f"resolve reports of {player_id}", op)

    # ------------------------------------------------------------------ the log

    async def append_mod_log(self, entry: ModLogRow) -> int:
        values = {name: getattr(entry, name) for name in ModLogRow.__slots__ if name != "id"}

        def op(connection: Connection) -> int:
            done = connection.execute(insert(mod_log).values(**values))
            key = done.inserted_primary_key
            return int(key[0]) if key else 0

        return await self.sql.batched("mod log", op)

    async def mod_log(self, player_id: str | None = None, limit: int = 100,
                      before: int | None = None) -> list[ModLogRow]:
        query = select(mod_log)
        if player_id is not None:
            query = query.where(mod_log.c.player_id == player_id)
        if before is not None:
            query = query.where(mod_log.c.id < before)
        query = query.order_by(mod_log.c.id.desc()).limit(limit)
        return [log_row(row) for row in await self.sql.rows(query)]

    # ------------------------------------------------------------------ standing

    async def standing(self, player_id: str) -> StandingRow:
        row = await self.sql.first(select(sanctions).where(sanctions.c.player_id == player_id))
        if row is None:
            return StandingRow(player_id)
        return StandingRow(player_id, row.role, row.muted, row.rated_ban, row.rename,
                           row.warnings)

    async def change_standing(self, player_id: str, change: StandingChange) -> StandingRow:
        values: dict[str, Any] = {"updated_at": now()}
        if change.role is not None or change.clear_role:
            values["role"] = change.role
        for name in ("muted", "rated_ban", "rename"):
            if getattr(change, name) is not None:
                values[name] = getattr(change, name)
        if change.warn:
            values["warnings"] = sanctions.c.warnings + 1

        def op(connection: Connection) -> StandingRow:
            insert_new(connection, sanctions, player_id=player_id,
                       updated_at=values["updated_at"])
            connection.execute(update(sanctions).where(
                sanctions.c.player_id == player_id).values(**values))
            row = connection.execute(select(sanctions).where(
                sanctions.c.player_id == player_id)).one()
            return StandingRow(player_id, row.role, row.muted, row.rated_ban, row.rename,
                               row.warnings)

        return await self.sql.batched(f"standing of {player_id}", op)

    async def moderators(self) -> list[str]:
        rows = await self.sql.rows(select(sanctions.c.player_id).where(
            sanctions.c.role == "moderator"))
        return [row[0] for row in rows]

    async def players_by_id(self, player_ids: Collection[str]) -> dict[str, PlayerRow]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        rows = await self.sql.rows(select(players).where(players.c.id.in_(ids)))
        return {row.id: player_row(row) for row in rows}

    # ------------------------------------------------------------------ leaves

    async def leaves(self, player_id: str, since: datetime) -> list[datetime]:
        rows = await self.sql.rows(select(leaves.c.at).where(
            leaves.c.player_id == player_id, leaves.c.at >= since).order_by(leaves.c.at))
        return [row.at for row in rows]

    async def completion(self, player_id: str) -> tuple[int, int]:
        finished = select(func.count()).select_from(table_seats.join(
            tables, tables.c.id == table_seats.c.table_id)).where(
            table_seats.c.player_id == player_id, tables.c.status == "finished")
        left = select(func.count()).select_from(leaves).where(leaves.c.player_id == player_id)

        def read(connection: Connection) -> tuple[int, int]:
            return (int(connection.execute(finished).scalar_one()),
                    int(connection.execute(left).scalar_one()))

        return await self.sql.reading(read)

    # ------------------------------------------------------------------ assistance

    async def add_assist_game(self, game: AssistGameRow) -> None:
        def op(connection: Connection) -> None:
            connection.execute(delete(assist_games).where(
                assist_games.c.player_id == game.player_id,
                assist_games.c.table_id == game.table_id))
            connection.execute(insert(assist_games).values(
                {name: getattr(game, name) for name in AssistGameRow.__slots__}))

        await self.sql.batched(f"assist summary of {game.table_id}", op)

    async def assist_games(self, player_id: str, limit: int
                           ) -> list[tuple[float, dict[str, Any]]]:
        rows = await self.sql.rows(
            select(assist_games.c.rating, assist_games.c.summary)
            .where(assist_games.c.player_id == player_id)
            .order_by(assist_games.c.at.desc()).limit(limit))
        return [(float(row.rating), dict(row.summary)) for row in rows]

    # ------------------------------------------------------------------ refunds

    async def refund_losses(self, player_id: str, since: datetime, at: datetime
                            ) -> list[RefundRow]:
        mine = (select(table_seats.c.table_id, table_seats.c.seat)
                .join(tables, tables.c.id == table_seats.c.table_id)
                .where(table_seats.c.player_id == player_id, tables.c.rated.is_(True),
                       tables.c.status == "finished", tables.c.finished_at >= since))

        def op(connection: Connection) -> list[RefundRow]:
            seats_of = {row.table_id: row.seat for row in connection.execute(mine).all()}
            if not seats_of:
                return []
            done = {(row.table_id, row.victim_id) for row in connection.execute(
                select(refunds.c.table_id, refunds.c.victim_id).where(
                    refunds.c.player_id == player_id,
                    refunds.c.table_id.in_(list(seats_of)))).all()}
            rows = connection.execute(
                select(table_seats.c.table_id, table_seats.c.seat, table_seats.c.player_id,
                       table_seats.c.rating_before, table_seats.c.rating_after,
                       tables.c.variant, tables.c.seats, tables.c.teams)
                .join(tables, tables.c.id == table_seats.c.table_id)
                .where(table_seats.c.table_id.in_(list(seats_of)))
                .order_by(tables.c.finished_at, table_seats.c.seat)).all()
            owed: dict[tuple[str, str], list[float]] = {}
            for row in rows:
                if (row.player_id in (None, player_id) or row.rating_before is None
                        or row.rating_after is None
                        or (row.table_id, row.player_id) in done):
                    continue
                seating = Seating(row.seats, row.teams)
                if seating.side_of(row.seat) == seating.side_of(seats_of[row.table_id]):
                    continue  # a partner lost with them: no refund
                lost = row.rating_before - row.rating_after
                if lost <= 0:
                    continue
                connection.execute(insert(refunds).values(
                    player_id=player_id, table_id=row.table_id, victim_id=row.player_id,
                    variant=row.variant, points=lost, at=at))
                owed.setdefault((row.player_id, row.variant), []).append(lost)
            out: list[RefundRow] = []
            for (victim, variant), losses in sorted(owed.items()):
                rating = connection.execute(select(ratings.c.rating).where(
                    ratings.c.player_id == victim, ratings.c.variant == variant)
                    .with_for_update()).scalar_one_or_none()
                if rating is None:  # the account is gone: nothing to give back
                    continue
                new = float(rating) + sum(losses)
                connection.execute(update(ratings).where(
                    ratings.c.player_id == victim, ratings.c.variant == variant).values(
                    rating=new))
                out.append(RefundRow(victim, variant, sum(losses), len(losses), new))
            return out

        return await self.sql.batched(f"refunds for {player_id}", op)

    # ------------------------------------------------------------------ names

    async def set_names(self, player_id: str, username: str | None, nickname: str) -> None:
        values: dict[str, Any] = {"nickname": nickname}
        if username is not None:
            key, look = username_key(username), lookalike_key(username)
            values.update(username=username, username_key=key, username_skeleton=look)

        def op(connection: Connection) -> None:
            if username is not None:
                taken = connection.execute(select(players.c.id).where(
                    players.c.username_key == values["username_key"],
                    players.c.id != player_id)).first()
                if taken is not None:
                    raise UsernameTaken(f"the username {username!r} is taken")
                like = connection.execute(select(players.c.username).where(
                    players.c.username_skeleton == values["username_skeleton"],
                    players.c.id != player_id, players.c.deleted_at.is_(None))).first()
                if like is not None:
                    raise UsernameLookalike(
                        f"the username {username!r} looks like {like.username!r}")
            done = connection.execute(update(players).where(
                players.c.id == player_id, players.c.deleted_at.is_(None)).values(**values))
            if done.rowcount == 0:
                raise StoreError(f"no player {player_id}")

        await self.sql.batched(f"force rename {player_id}", op)

    async def name_words(self) -> list[str]:
        rows = await self.sql.rows(select(name_words.c.word).order_by(name_words.c.word))
        return [row[0] for row in rows]

    async def add_name_word(self, word: str, by: str, at: datetime) -> bool:
        def op(connection: Connection) -> bool:
            return insert_new(connection, name_words, word=word, added_by=by, added_at=at)

        return await self.sql.batched("add a name word", op)

    async def remove_name_word(self, word: str) -> bool:
        def op(connection: Connection) -> bool:
            return bool(connection.execute(delete(name_words).where(
                name_words.c.word == word)).rowcount)

        return await self.sql.batched("remove a name word", op)


__all__ = ["SqlModeration"]
