"""Sessions expire (issue 25, item 3): an account's session unused for 30 days, a guest's
unused for 180, and any session a year old names nobody; a session is marked used at most
once an hour, in the background. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from basra.server.http.deps import SessionTouches
from basra.store import Store
from basra.store.base import GUEST_SESSION_IDLE, SESSION_IDLE, SESSION_MAX_AGE
from basra.store.schema import sessions
from store.test_store import run, sql_store


async def age(store: Store, token_hash: str, *, created: timedelta,
              seen: timedelta | None = None) -> None:
    """Make a session look ``created`` old, last used ``seen`` ago (None: never since)."""
    now = datetime.now(UTC)
    async with sql_store(store).engine.begin() as connection:
        await connection.execute(update(sessions).where(
            sessions.c.token_hash == token_hash).values(
            created_at=now - created, last_seen_at=None if seen is None else now - seen))


def test_sessions_expire_when_idle_or_old(url: str) -> None:
    async def scenario(store: Store) -> None:
        await store.create_player("g1", "Guest", "hash-g1")
        await store.create_player("a1", "Amira", "hash-a1")
        await store.claim_account("a1", "Amira", "argon-a1")
        day = timedelta(days=1)
        # An account idle just under 30 days: still signed in; just over: expired.
        await age(store, "hash-a1", created=SESSION_IDLE - day)
        assert await store.player_by_token("hash-a1") is not None
        assert await store.session_by_token("hash-a1") is not None
        await age(store, "hash-a1", created=SESSION_IDLE + day)
        assert await store.player_by_token("hash-a1") is None
        assert await store.session_by_token("hash-a1") is None
        # ...unless it was used lately.
        await age(store, "hash-a1", created=SESSION_IDLE + day, seen=day)
        assert await store.player_by_token("hash-a1") is not None
        # A guest's session keeps 180 idle days (the guest has no other way in).
        await age(store, "hash-g1", created=SESSION_IDLE + day)
        assert await store.player_by_token("hash-g1") is not None
        await age(store, "hash-g1", created=GUEST_SESSION_IDLE + day)
        assert await store.player_by_token("hash-g1") is None
        # A year old: expired however often used.
        await age(store, "hash-a1", created=SESSION_MAX_AGE + day, seen=timedelta(0))
        assert await store.player_by_token("hash-a1") is None
        # Touched: used now, so alive again (as long as it is not a year old).
        await age(store, "hash-g1", created=GUEST_SESSION_IDLE + day)
        await store.touch_session("hash-g1")
        assert await store.player_by_token("hash-g1") is not None
        listed = await store.sessions("g1")
        assert listed[0].last_seen_at is not None

    run(url, scenario)


def test_a_session_is_marked_used_at_most_once_an_hour() -> None:
    touched: list[str] = []

    class Store:
        async def touch_session(self, hashed: str) -> None:
            touched.append(hashed)

    async def main() -> None:
        touches = SessionTouches(most=2)
        store: object = Store()
        for at in (0.0, 10.0, 3599.0):
            touches.used(store, "h1", now=at)  # type: ignore[arg-type]
        touches.used(store, "h2", now=5.0)  # type: ignore[arg-type]
        touches.used(store, "h1", now=3601.0)  # type: ignore[arg-type]
        touches.used(store, "h3", now=3602.0)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert touched == ["h1", "h2", "h1", "h3"]
        assert len(touches.last) == 2  # bounded: the oldest forgotten
        assert not touches.pending
        # only the sessions touched within the hour are remembered
        touches = SessionTouches(most=100)
        for i in range(50):
            touches.used(store, f"old{i}", now=float(i))  # type: ignore[arg-type]
        touches.used(store, "new", now=3700.0)  # type: ignore[arg-type]
        assert list(touches.last) == ["new"]
        await asyncio.sleep(0)

    asyncio.run(main())


def test_a_proved_session_goes_on_with_a_new_token(url: str) -> None:
    async def scenario(store: Store) -> None:
        await store.create_player("a1", "Amira", "hash-old")
        session = await store.session_by_token("hash-old")
        assert session is not None and session.proved_at is None
        assert await store.prove_session(session.id, "hash-new")
        assert await store.session_by_token("hash-old") is None  # the copy names nobody
        renewed = await store.session_by_token("hash-new")
        assert renewed is not None and renewed.id == session.id
        assert renewed.proved_at is not None
        await store.revoke_sessions("a1")
        assert not await store.prove_session(session.id, "hash-newer")  # gone: said so

    run(url, scenario)
