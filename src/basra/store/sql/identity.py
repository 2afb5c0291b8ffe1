"""The :class:`~basra.store.ports.IdentityStore` in SQL: players, accounts, sessions,
passkeys and WebAuthn challenges."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from basra.confusables import lookalike_key
from basra.store.base import (
    DELETED_NAME,
    GUEST_SESSION_IDLE,
    SESSION_IDLE,
    SESSION_MAX_AGE,
    AccountRow,
    AlreadyClaimed,
    ChallengeRow,
    PasskeyRow,
    PlayerRow,
    SessionRow,
    StoreError,
    UsernameLookalike,
    UsernameTaken,
    aware,
)
from basra.store.schema import (
    UtcDateTime,
    blocks,
    challenges,
    follows,
    game_challenges,
    notifications,
    passkeys,
    player_settings,
    players,
    push_subscriptions,
    ratings,
    sessions,
)
from basra.store.sql.engine import SqlPort, now
from basra.store.sql.rows import passkey_row, player_row, session_row, username_key

SESSIONS_KEPT = 50
"""The most sessions one player keeps (signed-in devices); a new one ends the oldest."""

_MOMENT = UtcDateTime()
"""One instance of the type for the statements below (each new one makes a class)."""


def _session_alive() -> ColumnElement[bool]:
    """Whether a session (joined with its player) has not expired: younger than
    :data:`SESSION_MAX_AGE` and used within :data:`SESSION_IDLE` (a guest's within
    :data:`GUEST_SESSION_IDLE`), at the moment :func:`alive_at` gives its parameters."""
    seen = func.coalesce(sessions.c.last_seen_at, sessions.c.created_at, type_=_MOMENT)
    idle = case((players.c.username.is_(None), bindparam("guest_seen_after", type_=_MOMENT)),
                else_=bindparam("seen_after", type_=_MOMENT))
    return and_(sessions.c.created_at > bindparam("made_after", type_=_MOMENT), seen > idle)


def alive_at(at: datetime) -> dict[str, datetime]:
    """The parameters of the session statements below: alive at ``at``."""
    return {"made_after": at - SESSION_MAX_AGE, "seen_after": at - SESSION_IDLE,
            "guest_seen_after": at - GUEST_SESSION_IDLE}


# Built once: the store asks them on every request, and building a statement makes
# objects in reference cycles (garbage the cycle collector must find).
PLAYER_BY_TOKEN = (select(players).join(sessions, sessions.c.player_id == players.c.id)
                   .where(sessions.c.token_hash == bindparam("token_hash"),
                          players.c.deleted_at.is_(None), _session_alive()).limit(1))
SESSION_BY_TOKEN = (select(sessions).join(players, sessions.c.player_id == players.c.id)
                    .where(sessions.c.token_hash == bindparam("token_hash"),
                           _session_alive()).limit(1))


INSERT_PLAYER = insert(players)
INSERT_SESSION = insert(sessions)
TOUCH_SESSION = (update(sessions).where(sessions.c.token_hash == bindparam("b_hash"))
                 .values(last_seen_at=bindparam("b_at")))


class SqlIdentity(SqlPort):
    """Who people are and how they sign in, on the shared engine."""

    # players

    async def create_player(self, player_id: str, nickname: str, token_hash: str) -> PlayerRow:
        """A new guest with its first session (whose token hashes to ``token_hash``)."""
        row = PlayerRow(player_id, nickname, now())

        player = {"id": row.id, "nickname": row.nickname, "token_hash": token_hash,
                  "created_at": row.created_at}
        session = {"id": f"first-{player_id}", "player_id": player_id,
                   "token_hash": token_hash, "kind": "guest", "created_at": row.created_at}

        def op(connection: Connection) -> None:
            connection.execute(INSERT_PLAYER, player)
            connection.execute(INSERT_SESSION, session)

        await self.sql.batched(f"create player {player_id}", op)
        return row

    async def rename_player(self, player_id: str, nickname: str) -> None:
        def op(connection: Connection) -> None:
            done = connection.execute(
                update(players).where(players.c.id == player_id).values(nickname=nickname))
            if done.rowcount == 0:
                raise StoreError(f"no player {player_id}")

        await self.sql.batched(f"rename player {player_id}", op)

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        rows = await self.sql.rows(PLAYER_BY_TOKEN, {"token_hash": token_hash,
                                                     **alive_at(now())},
                                    in_loop=True)
        return player_row(rows[0]) if rows else None

    async def touch_session(self, token_hash: str) -> None:
        values = {"b_hash": token_hash, "b_at": now()}
        await self.sql.batched("touch a session",
                               lambda connection: connection.execute(TOUCH_SESSION, values))

    async def player(self, player_id: str) -> PlayerRow | None:
        return await self.sql.find(players, players.c.id == player_id, player_row)

    # accounts

    async def claim_account(self, player_id: str, username: str,
                            password_hash: str | None) -> PlayerRow:
        key, look = username_key(username), lookalike_key(username)

        def op(connection: Connection) -> None:
            taken = (connection.execute(select(players.c.id).where(
                players.c.username_key == key, players.c.id != player_id))).first()
            if taken is not None:
                raise UsernameTaken(f"the username {username!r} is taken")
            like = (connection.execute(select(players.c.username).where(
                players.c.username_skeleton == look, players.c.id != player_id,
                players.c.deleted_at.is_(None)))).first()
            if like is not None:
                raise UsernameLookalike(
                    f"the username {username!r} looks like {like.username!r}")
            done = connection.execute(
                update(players).where(players.c.id == player_id,
                                      players.c.deleted_at.is_(None),
                                      players.c.username.is_(None))
                .values(username=username, username_key=key, username_skeleton=look,
                        password_hash=password_hash))
            if done.rowcount == 0:
                raise AlreadyClaimed(f"player {player_id} is not a guest that may be claimed")

        try:
            await self.sql.batched(f"claim account {player_id}", op)
        except (UsernameTaken, UsernameLookalike, AlreadyClaimed):
            raise
        except StoreError as error:
            if isinstance(error.__cause__, IntegrityError):  # claimed at the same moment:
                held = await self.player(player_id)          # by this player (a double tap)
                if held is not None and held.username is not None:  # or by another
                    raise AlreadyClaimed(f"player {player_id} is an account already") from error
                raise UsernameTaken(f"the username {username!r} is taken") from error
            raise
        found = await self.player(player_id)
        assert found is not None
        return found

    async def account(self, username: str) -> AccountRow | None:
        row = await self.sql.first(select(players).where(
            players.c.username_key == username_key(username), players.c.deleted_at.is_(None)))
        return None if row is None else AccountRow(player_row(row), row.password_hash)

    async def lookalike(self, username: str) -> str | None:
        row = await self.sql.first(select(players.c.username).where(
            players.c.username_skeleton == lookalike_key(username),
            players.c.deleted_at.is_(None)).order_by(players.c.created_at).limit(1))
        return None if row is None else str(row.username)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        await self.sql.update_existing(players, players.c.id == player_id,
                                       f"player {player_id}", password_hash=password_hash)

    async def delete_account(self, player_id: str) -> None:
        def op(connection: Connection) -> None:
            done = connection.execute(
                update(players).where(players.c.id == player_id).values(
                    nickname=DELETED_NAME, username=None, username_key=None,
                    username_skeleton=None,
                    password_hash=None, deleted_at=now()))
            if done.rowcount == 0:
                raise StoreError(f"no player {player_id}")
            for table in (sessions, passkeys, challenges, ratings, notifications,
                          push_subscriptions, player_settings):
                connection.execute(delete(table).where(table.c.player_id == player_id))
            connection.execute(delete(follows).where(or_(
                follows.c.follower_id == player_id, follows.c.followee_id == player_id)))
            connection.execute(delete(blocks).where(or_(
                blocks.c.blocker_id == player_id, blocks.c.blocked_id == player_id)))
            connection.execute(update(game_challenges).where(
                or_(game_challenges.c.challenger_id == player_id,
                    game_challenges.c.challenged_id == player_id),
                game_challenges.c.status == "open").values(status="cancelled"))

        await self.sql.batched(f"delete account {player_id}", op)

    # sessions

    async def add_session(self, session: SessionRow, token_hash: str) -> None:
        """A new session; past :data:`SESSIONS_KEPT` of the player's, the oldest end."""
        def op(connection: Connection) -> None:
            connection.execute(insert(sessions).values(
                id=session.id, player_id=session.player_id, token_hash=token_hash,
                kind=session.kind, created_at=aware(session.created_at, "created_at"),
                user_agent=session.user_agent, address=session.address,
                proved_at=aware(session.proved_at, "proved_at")))
            kept = (select(sessions.c.id).where(sessions.c.player_id == session.player_id)
                    .order_by(sessions.c.created_at.desc(), sessions.c.id.desc())
                    .limit(SESSIONS_KEPT))
            connection.execute(delete(sessions).where(
                sessions.c.player_id == session.player_id, sessions.c.id.not_in(kept)))

        await self.sql.batched(f"add session of player {session.player_id}", op)

    async def session_by_token(self, token_hash: str) -> SessionRow | None:
        rows = await self.sql.rows(SESSION_BY_TOKEN, {"token_hash": token_hash,
                                                      **alive_at(now())},
                                    in_loop=True)
        return session_row(rows[0]) if rows else None

    async def sessions(self, player_id: str) -> list[SessionRow]:
        query = (select(sessions).where(sessions.c.player_id == player_id)
                 .order_by(sessions.c.created_at.desc(), sessions.c.id))
        return [session_row(row) for row in await self.sql.rows(query)]

    async def prove_session(self, session_id: str, token_hash: str) -> bool:
        def op(connection: Connection) -> bool:
            done = connection.execute(update(sessions).where(
                sessions.c.id == session_id).values(proved_at=now(), token_hash=token_hash))
            return bool(done.rowcount)

        return await self.sql.batched(f"prove session {session_id}", op)

    async def revoke_sessions(self, player_id: str, session_id: str | None = None,
                              keep: str | None = None) -> int:
        where = sessions.c.player_id == player_id
        if session_id is not None:
            where = where & (sessions.c.id == session_id)
        if keep is not None:
            where = where & (sessions.c.id != keep)

        def op(connection: Connection) -> int:
            done = connection.execute(delete(sessions).where(where))
            return int(done.rowcount)

        return await self.sql.batched(f"revoke sessions of player {player_id}", op)

    # passkeys and challenges

    async def add_passkey(self, passkey: PasskeyRow) -> None:
        def op(connection: Connection) -> None:
            connection.execute(insert(passkeys).values(
                credential_id=passkey.credential_id, player_id=passkey.player_id,
                public_key=passkey.public_key, sign_count=passkey.sign_count,
                name=passkey.name, transports=" ".join(passkey.transports),
                created_at=aware(passkey.created_at, "created_at"),
                last_used_at=aware(passkey.last_used_at, "last_used_at"),
                added_by=passkey.added_by, added_from=passkey.added_from))

        await self.sql.batched(f"add passkey of player {passkey.player_id}", op)

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        return await self.sql.find(passkeys, passkeys.c.credential_id == credential_id,
                                   passkey_row)

    async def passkeys(self, player_id: str) -> list[PasskeyRow]:
        query = (select(passkeys).where(passkeys.c.player_id == player_id)
                 .order_by(passkeys.c.created_at, passkeys.c.credential_id))
        return [passkey_row(row) for row in await self.sql.rows(query)]

    async def passkey_used(self, credential_id: str, sign_count: int) -> None:
        await self.sql.update_existing(passkeys, passkeys.c.credential_id == credential_id,
                                       f"passkey {credential_id}", sign_count=sign_count,
                                       last_used_at=now())

    async def remove_passkey(self, player_id: str, credential_id: str) -> bool:
        def op(connection: Connection) -> bool:
            done = connection.execute(delete(passkeys).where(
                passkeys.c.player_id == player_id, passkeys.c.credential_id == credential_id))
            return bool(done.rowcount)

        return await self.sql.batched(f"remove passkey of player {player_id}", op)

    async def put_challenge(self, challenge: ChallengeRow) -> None:
        def op(connection: Connection) -> None:
            # the expired ones go as new ones come: the table stays small
            connection.execute(delete(challenges).where(challenges.c.expires_at < now()))
            connection.execute(insert(challenges).values(
                id=challenge.id, challenge=challenge.challenge, purpose=challenge.purpose,
                player_id=challenge.player_id,
                expires_at=aware(challenge.expires_at, "expires_at")))

        await self.sql.batched("put challenge", op)

    async def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        def op(connection: Connection) -> ChallengeRow | None:
            row = (connection.execute(  # taken and deleted in one statement: once
                delete(challenges).where(challenges.c.id == challenge_id)
                .returning(*challenges.c))).first()
            if row is None:
                return None
            return ChallengeRow(row.id, bytes(row.challenge), row.purpose, row.player_id,
                                row.expires_at)

        return await self.sql.batched("take challenge", op)
