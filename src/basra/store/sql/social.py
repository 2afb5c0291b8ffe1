"""The :class:`~basra.store.ports.SocialStore` in SQL (issue 28): follows, blocks, who may
challenge whom, challenges between players, the bell's notifications and Web Push
subscriptions.

A follow or a block made twice at once (two nodes, two tabs) is one row: they are inserted
with the back end's "on conflict do nothing", and the row's key says whether it was new. A
challenge is answered by an update that only takes an open, unexpired one: whoever answers
first settles it, on any node.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.sql import Select

from basra.store.base import (
    CHALLENGE_POLICIES,
    ChallengePolicy,
    GameChallengeRow,
    GameChallengeStatus,
    NotificationRow,
    PersonRow,
    PushRow,
    SeatRow,
    TableRow,
    aware,
)
from basra.store.schema import (
    blocks,
    follows,
    game_challenges,
    notifications,
    player_settings,
    players,
    push_subscriptions,
    table_seats,
    tables,
)
from basra.store.sql.engine import SqlPort, now
from basra.store.sql.rows import insert_new, seat_row, seats_query, table_row

NOTIFICATIONS_KEPT = 100
"""A player's newest notifications kept; older ones go."""

# What a signed-in page's socket reads as it opens (point reads on the primary key's and an
# index's first column, run in the loop like a session's: issue 28's churn of pages).
FOLLOWING_IDS = select(follows.c.followee_id).where(
    follows.c.follower_id == bindparam("player"))
UNREAD = select(func.count()).select_from(notifications).where(
    notifications.c.player_id == bindparam("player"), notifications.c.read_at.is_(None))


def _people(query: Select[Any]) -> Select[Any]:
    return query.where(players.c.deleted_at.is_(None), players.c.username.is_not(None))


def person(row: Row[Any], since: datetime) -> PersonRow:
    return PersonRow(row.id, row.username, row.nickname, since)


class SqlSocial(SqlPort):
    """Friends and challenges, on the shared engine."""

    # ------------------------------------------------------------------ follows

    async def follow(self, follower: str, followee: str) -> bool:
        def op(connection: Connection) -> bool:
            return insert_new(connection, follows, follower_id=follower, followee_id=followee,
                              created_at=now())

        return await self.sql.batched(f"follow player {followee}", op)

    async def unfollow(self, follower: str, followee: str) -> bool:
        def op(connection: Connection) -> bool:
            done = connection.execute(delete(follows).where(
                follows.c.follower_id == follower, follows.c.followee_id == followee))
            return bool(done.rowcount)

        return await self.sql.batched(f"unfollow player {followee}", op)

    async def _listed(self, mine: Any, theirs: Any, since: Any, player_id: str,
                      limit: int) -> list[PersonRow]:
        query = _people(select(players.c.id, players.c.username, players.c.nickname,
                               since.label("since"))
                        .join(players, players.c.id == theirs).where(mine == player_id)
                        .order_by(players.c.username_key).limit(limit))
        return [person(row, row.since) for row in await self.sql.rows(query)]

    async def following(self, player_id: str, limit: int = 500) -> list[PersonRow]:
        return await self._listed(follows.c.follower_id, follows.c.followee_id,
                                  follows.c.created_at, player_id, limit)

    async def followers(self, player_id: str, limit: int = 500) -> list[PersonRow]:
        return await self._listed(follows.c.followee_id, follows.c.follower_id,
                                  follows.c.created_at, player_id, limit)

    async def follower_ids(self, player_id: str) -> list[str]:
        rows = await self.sql.rows(select(follows.c.follower_id).where(
            follows.c.followee_id == player_id))
        return [row[0] for row in rows]

    async def following_ids(self, player_id: str) -> list[str]:
        rows = await self.sql.rows(FOLLOWING_IDS, {"player": player_id}, in_loop=True)
        return [row[0] for row in rows]

    async def follows(self, follower: str, followee: str) -> bool:
        return await self.sql.first(select(follows.c.follower_id).where(
            follows.c.follower_id == follower, follows.c.followee_id == followee)) is not None

    async def follow_counts(self, player_id: str) -> tuple[int, int]:
        following = await self.sql.first(select(func.count()).select_from(follows).where(
            follows.c.follower_id == player_id))
        followers = await self.sql.first(select(func.count()).select_from(follows).join(
            players, players.c.id == follows.c.follower_id).where(
            follows.c.followee_id == player_id, players.c.deleted_at.is_(None)))
        return (0 if following is None else int(following[0]),
                0 if followers is None else int(followers[0]))

    # ------------------------------------------------------------------ blocks

    async def block(self, blocker: str, blocked: str) -> bool:
        def op(connection: Connection) -> bool:
            connection.execute(delete(follows).where(or_(
                and_(follows.c.follower_id == blocker, follows.c.followee_id == blocked),
                and_(follows.c.follower_id == blocked, follows.c.followee_id == blocker))))
            return insert_new(connection, blocks, blocker_id=blocker, blocked_id=blocked,
                              created_at=now())

        return await self.sql.batched(f"block player {blocked}", op)

    async def unblock(self, blocker: str, blocked: str) -> bool:
        def op(connection: Connection) -> bool:
            done = connection.execute(delete(blocks).where(
                blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked))
            return bool(done.rowcount)

        return await self.sql.batched(f"unblock player {blocked}", op)

    async def blocked(self, player_id: str) -> list[PersonRow]:
        return await self._listed(blocks.c.blocker_id, blocks.c.blocked_id,
                                  blocks.c.created_at, player_id, 1000)

    async def blocked_ids(self, player_id: str) -> set[str]:
        rows = await self.sql.rows(select(blocks.c.blocker_id, blocks.c.blocked_id).where(
            or_(blocks.c.blocker_id == player_id, blocks.c.blocked_id == player_id)))
        return {row.blocked_id if row.blocker_id == player_id else row.blocker_id
                for row in rows}

    # ------------------------------------------------------------------ settings

    async def challenge_policy(self, player_id: str) -> ChallengePolicy:
        row = await self.sql.first(select(player_settings.c.challenges).where(
            player_settings.c.player_id == player_id))
        found = None if row is None else row[0]
        return next((p for p in CHALLENGE_POLICIES if p == found), "anyone")

    async def set_challenge_policy(self, player_id: str, policy: ChallengePolicy) -> None:
        def op(connection: Connection) -> None:
            done = connection.execute(update(player_settings).where(
                player_settings.c.player_id == player_id).values(challenges=policy))
            if not done.rowcount:
                insert_new(connection, player_settings, player_id=player_id,
                           challenges=policy)

        await self.sql.batched("set challenge policy", op)

    async def player_prefs(self, player_id: str) -> dict[str, Any] | None:
        row = await self.sql.first(select(player_settings.c.prefs).where(
            player_settings.c.player_id == player_id))
        found = None if row is None else row[0]
        return dict(found) if isinstance(found, dict) else None

    async def set_player_prefs(self, player_id: str, prefs: dict[str, Any]) -> None:
        kept = dict(prefs)

        def op(connection: Connection) -> None:
            done = connection.execute(update(player_settings).where(
                player_settings.c.player_id == player_id).values(prefs=kept))
            # No row yet: who may challenge them stays the default (anyone); a row made
            # meanwhile (another node) takes the update instead.
            if not done.rowcount and not insert_new(
                    connection, player_settings, player_id=player_id, challenges="anyone",
                    prefs=kept):
                connection.execute(update(player_settings).where(
                    player_settings.c.player_id == player_id).values(prefs=kept))

        await self.sql.batched("set player prefs", op)

    # ------------------------------------------------------------------ challenges

    async def add_game_challenge(self, challenge: GameChallengeRow) -> None:
        def op(connection: Connection) -> None:
            connection.execute(game_challenges.insert().values(
                id=challenge.id, challenger_id=challenge.challenger.player_id,
                challenged_id=challenge.challenged.player_id, variant=challenge.variant,
                players=challenge.players, teams=challenge.teams, rated=challenge.rated,
                length=challenge.length, status=challenge.status,
                created_at=aware(challenge.created_at, "created_at"),
                expires_at=aware(challenge.expires_at, "expires_at")))

        await self.sql.batched(f"add challenge {challenge.id}", op)

    def _challenges(self) -> Select[Any]:
        challenger, challenged = players.alias("challenger"), players.alias("challenged")
        return (select(game_challenges,
                       challenger.c.username.label("from_username"),
                       challenger.c.nickname.label("from_nickname"),
                       challenged.c.username.label("to_username"),
                       challenged.c.nickname.label("to_nickname"))
                .join(challenger, challenger.c.id == game_challenges.c.challenger_id)
                .join(challenged, challenged.c.id == game_challenges.c.challenged_id))

    @staticmethod
    def _challenge(row: Row[Any]) -> GameChallengeRow:
        return GameChallengeRow(
            row.id, PersonRow(row.challenger_id, row.from_username or "", row.from_nickname,
                              row.created_at),
            PersonRow(row.challenged_id, row.to_username or "", row.to_nickname,
                      row.created_at),
            row.variant, row.players, bool(row.teams), bool(row.rated), row.length,
            row.status, row.created_at, row.expires_at, row.table_id, row.answered_at)

    async def game_challenge(self, challenge_id: str) -> GameChallengeRow | None:
        row = await self.sql.first(self._challenges().where(
            game_challenges.c.id == challenge_id))
        return None if row is None else self._challenge(row)

    async def game_challenges(self, player_id: str, now: datetime) -> list[GameChallengeRow]:
        query = (self._challenges().where(
            or_(game_challenges.c.challenger_id == player_id,
                game_challenges.c.challenged_id == player_id),
            game_challenges.c.status == "open",
            game_challenges.c.expires_at > aware(now, "now"))
            .order_by(game_challenges.c.created_at.desc()).limit(100))
        return [self._challenge(row) for row in await self.sql.rows(query)]

    async def answer_game_challenge(self, challenge_id: str, status: GameChallengeStatus,
                                    now: datetime, table_id: str | None = None) -> bool:
        def op(connection: Connection) -> bool:
            done = connection.execute(update(game_challenges).where(
                game_challenges.c.id == challenge_id, game_challenges.c.status == "open",
                game_challenges.c.expires_at > aware(now, "now")).values(
                status=status, answered_at=now, table_id=table_id))
            return bool(done.rowcount)

        return await self.sql.batched(f"answer challenge {challenge_id}", op)

    async def challenges_sent(self, player_id: str, since: datetime) -> int:
        row = await self.sql.first(select(func.count()).select_from(game_challenges).where(
            game_challenges.c.challenger_id == player_id,
            game_challenges.c.created_at >= aware(since, "since")))
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------------ notifications

    async def add_notification(self, notification: NotificationRow) -> None:
        await self.add_notifications([notification])

    async def add_notifications(self, rows: Collection[NotificationRow]) -> None:
        """Keep ``rows``, each player's newest :data:`NOTIFICATIONS_KEPT` only, in one
        group commit write of two statements (the rows in one INSERT, the oldest of their
        players' counted and dropped in one DELETE), however many players they are for."""
        if not rows:
            return
        values = [{"id": n.id, "player_id": n.player_id, "kind": n.kind, "body": n.body,
                   "created_at": aware(n.created_at, "created_at")} for n in rows]
        players = sorted({n.player_id for n in rows})

        def op(connection: Connection) -> None:
            connection.execute(notifications.insert(), values)
            newest = (select(notifications.c.id, func.row_number().over(
                partition_by=notifications.c.player_id,
                order_by=(notifications.c.created_at.desc(), notifications.c.id.desc()),
            ).label("place")).where(notifications.c.player_id.in_(players)).subquery())
            connection.execute(delete(notifications).where(notifications.c.id.in_(
                select(newest.c.id).where(newest.c.place > NOTIFICATIONS_KEPT))))

        await self.sql.batched(f"notify players {len(players)}", op)

    async def notifications(self, player_id: str, limit: int = 50) -> list[NotificationRow]:
        query = (select(notifications).where(notifications.c.player_id == player_id)
                 .order_by(notifications.c.created_at.desc(), notifications.c.id.desc())
                 .limit(limit))
        return [NotificationRow(row.id, row.player_id, row.kind, row.body, row.created_at,
                                row.read_at) for row in await self.sql.rows(query)]

    async def unread_count(self, player_id: str) -> int:
        rows = await self.sql.rows(UNREAD, {"player": player_id}, in_loop=True)
        return int(rows[0][0]) if rows else 0

    async def read_notifications(self, player_id: str, now: datetime,
                                 ids: Collection[str] | None = None) -> int:
        def op(connection: Connection) -> int:
            where = [notifications.c.player_id == player_id, notifications.c.read_at.is_(None)]
            if ids is not None:
                where.append(notifications.c.id.in_(list(ids)))
            done = connection.execute(update(notifications).where(*where).values(read_at=now))
            return int(done.rowcount)

        return await self.sql.batched("read notifications", op)

    # ------------------------------------------------------------------ Web Push

    async def add_push(self, push: PushRow) -> None:
        def op(connection: Connection) -> None:
            connection.execute(delete(push_subscriptions).where(
                push_subscriptions.c.endpoint == push.endpoint))
            connection.execute(push_subscriptions.insert().values(
                endpoint=push.endpoint, player_id=push.player_id, p256dh=push.p256dh,
                auth=push.auth, created_at=aware(push.created_at, "created_at")))

        await self.sql.batched("add push subscription", op)

    async def remove_push(self, endpoint: str, player_id: str | None = None) -> bool:
        def op(connection: Connection) -> bool:
            where = [push_subscriptions.c.endpoint == endpoint]
            if player_id is not None:
                where.append(push_subscriptions.c.player_id == player_id)
            return bool(connection.execute(delete(push_subscriptions).where(*where)).rowcount)

        return await self.sql.batched("remove push subscription", op)

    async def pushes(self, player_id: str) -> list[PushRow]:
        query = select(push_subscriptions).where(push_subscriptions.c.player_id == player_id)
        return [PushRow(row.endpoint, row.player_id, row.p256dh, row.auth, row.created_at)
                for row in await self.sql.rows(query)]

    async def playing(self, player_ids: Collection[str]) -> dict[str, str]:
        ids = list(player_ids)
        if not ids:
            return {}
        query = (select(table_seats.c.player_id, tables.c.id)
                 .join(tables, tables.c.id == table_seats.c.table_id)
                 .where(table_seats.c.player_id.in_(ids), tables.c.status == "playing")
                 .order_by(tables.c.created_at))
        return {row.player_id: row.id for row in await self.sql.rows(query)}

    async def open_tables(self, limit: int = 50) -> list[tuple[TableRow, tuple[SeatRow, ...]]]:
        """The open tables waiting for players (listed in the lobby), newest first, with
        their seats."""
        query = (select(tables).where(tables.c.status == "waiting", tables.c.listed.is_(True))
                 .order_by(tables.c.created_at.desc(), tables.c.id).limit(limit))

        def read(connection: Connection) -> list[tuple[TableRow, tuple[SeatRow, ...]]]:
            rows = connection.execute(query).all()
            seats: dict[str, list[SeatRow]] = {}
            for seat in connection.execute(seats_query(row.id for row in rows)).all():
                seats.setdefault(seat.table_id, []).append(seat_row(seat))
            return [(table_row(row), tuple(seats.get(row.id, []))) for row in rows]

        return await self.sql.reading(read)

    # ------------------------------------------------------------------ finding people

    async def search_accounts(self, prefix: str, limit: int = 20) -> list[PersonRow]:
        key = prefix.casefold().replace("\\", "").replace("%", "").replace("_", "\\_")
        if not key:
            return []
        query = _people(select(players.c.id, players.c.username, players.c.nickname,
                               players.c.created_at)
                        .where(players.c.username_key.like(f"{key}%", escape="\\"))
                        .order_by(players.c.username_key).limit(limit))
        return [person(row, row.created_at) for row in await self.sql.rows(query)]
