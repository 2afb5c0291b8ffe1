"""The store's accounts, sessions, passkeys and ratings (issue 12), on SQLite and on
PostgreSQL (which must be reachable: these tests fail, never skip, without it), and the
migration that carries a database of revision 0002 forward without losing a match."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import text

from basra.ratings import Rating, idle, rate_game
from basra.store import Store, StoreError
from basra.store.base import (
    DELETED_NAME,
    ChallengeRow,
    PasskeyRow,
    RatedGame,
    SessionRow,
    UsernameTaken,
)
from basra.store.sql import alembic_config, create_engine
from basra.store.urls import database
from store.test_store import run, scalars, seat, sql_store, table

NOW = datetime.now(UTC)


async def two_accounts(store: Store, table_id: str = "t1") -> None:
    """Accounts Amal (p1) and Badr (p2) and a two-player table of theirs."""
    for pid, name in (("p1", "Amal"), ("p2", "Badr")):
        if await store.player(pid) is None:
            await store.create_player(pid, name, f"hash-{pid}")
            await store.claim_account(pid, name, f"argon-{pid}")
    await store.create_table(table(table_id, status="playing", rated=True),
                             [seat(0, player="p1"), seat(1, player="p2")])


def test_a_guest_claims_an_account_and_keeps_its_sessions(url: str) -> None:
    async def scenario(store: Store) -> None:
        await store.create_player("p1", "Amira", "hash-p1")
        guest = await store.player_by_token("hash-p1")
        assert guest is not None and not guest.account and not guest.has_password
        claimed = await store.claim_account("p1", "Amira", "argon-hash")
        assert claimed.username == "Amira" and claimed.account and claimed.has_password
        assert (await store.player_by_token("hash-p1")) == claimed  # still signed in
        found = await store.account("aMIRA")  # any case
        assert found is not None and found.player.id == "p1"
        assert found.password_hash == "argon-hash"
        await store.create_player("p2", "Other", "hash-p2")
        with pytest.raises(UsernameTaken):
            await store.claim_account("p2", "AMIRA", None)
        with pytest.raises(StoreError):  # an account is claimed once
            await store.claim_account("p1", "Amira2", None)
        passwordless = await store.claim_account("p2", "Other", None)
        assert passwordless.account and not passwordless.has_password
        await store.set_password("p2", "argon-2")
        again = await store.account("other")
        assert again is not None and again.password_hash == "argon-2"

    run(url, scenario)


def test_two_claims_of_one_name_at_once_give_it_to_one(url: str) -> None:
    async def scenario(store: Store) -> None:
        for n in range(6):
            await store.create_player(f"p{n}", f"P{n}", f"hash-{n}")
        outcomes = await asyncio.gather(
            *(store.claim_account(f"p{n}", "Samir" if n % 2 else "samir", None)
              for n in range(6)), return_exceptions=True)
        assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
        assert all(isinstance(o, UsernameTaken) for o in outcomes
                   if isinstance(o, BaseException))

    run(url, scenario)


def test_sessions_are_listed_and_revoked(url: str) -> None:
    async def scenario(store: Store) -> None:
        await store.create_player("p1", "Amira", "hash-first")
        await store.claim_account("p1", "Amira", "argon")
        for n in range(3):
            await store.add_session(SessionRow(f"s{n}", "p1", "password",
                                               NOW + timedelta(hours=n + 1), "Firefox",
                                               "10.0.0.1"), f"hash-{n}")
        listed = await store.sessions("p1")
        assert [s.id for s in listed] == ["s2", "s1", "s0", "first-p1"]
        assert listed[0].user_agent == "Firefox" and listed[-1].kind == "guest"
        found = await store.session_by_token("hash-1")
        assert found is not None and found.id == "s1"
        assert await store.revoke_sessions("p1", "s1") == 1
        assert await store.player_by_token("hash-1") is None
        assert await store.revoke_sessions("p2-nobody", "s0") == 0  # not theirs
        assert await store.revoke_sessions("p1", keep="s2") == 2  # s0 and the first
        assert [s.id for s in await store.sessions("p1")] == ["s2"]
        assert await store.player_by_token("hash-first") is None
        assert await store.player_by_token("hash-2") is not None

    run(url, scenario)


def test_passkeys_and_challenges(url: str) -> None:
    async def scenario(store: Store) -> None:
        await store.create_player("p1", "Amira", "hash-p1")
        await store.claim_account("p1", "Amira", None)
        key = PasskeyRow("cred-1", "p1", b"\x01\x02cose", 0, "Phone", NOW,
                         ("internal", "hybrid"))
        await store.add_passkey(key)
        assert await store.passkey("cred-1") == key
        await store.passkey_used("cred-1", 7)
        used = await store.passkey("cred-1")
        assert used is not None and used.sign_count == 7 and used.last_used_at is not None
        assert [k.credential_id for k in await store.passkeys("p1")] == ["cred-1"]
        assert not await store.remove_passkey("p2", "cred-1")  # not theirs
        assert await store.remove_passkey("p1", "cred-1")
        assert await store.passkey("cred-1") is None
        challenge = ChallengeRow("c1", b"\x00random", "sign-in", None,
                                 NOW + timedelta(minutes=5))
        await store.put_challenge(challenge)
        assert await store.take_challenge("c1") == challenge
        assert await store.take_challenge("c1") is None  # answered once
        old = ChallengeRow("c2", b"old", "register", "p1", NOW - timedelta(minutes=1))
        await store.put_challenge(old)
        await store.put_challenge(ChallengeRow("c3", b"new", "register", "p1",
                                               NOW + timedelta(minutes=5)))
        assert await store.take_challenge("c2") is None  # expired ones are swept

    run(url, scenario)


def test_a_rated_match_moves_both_ratings_as_glicko_2_says(url: str) -> None:
    async def scenario(store: Store) -> None:
        await two_accounts(store)
        result = await store.finish_table("t1", {"winner": 0, "totals": [121, 80]},
                                          RatedGame.two("egyptian", ("p1", "p2"), 1.0))
        first, second = rate_game(Rating(), Rating(), 1.0)
        assert result["winner"] == 0
        assert result["ratings"] == [
            {"seat": 0, "before": 1500, "after": round(first.rating),
             "change": round(first.rating) - 1500, "deviation": round(first.deviation),
             "label": first.label},
            {"seat": 1, "before": 1500, "after": round(second.rating),
             "change": round(second.rating) - 1500, "deviation": round(second.deviation),
             "label": second.label}]
        stored = await store.table("t1")
        assert stored is not None and stored.rated and stored.result == result
        (amal,) = await store.ratings("p1")
        assert amal.rating == pytest.approx(first.rating)
        assert amal.deviation == pytest.approx(first.deviation)
        assert amal.volatility == pytest.approx(first.volatility) and amal.games == 1
        # finishing it again (a retry) rates nothing twice and answers the stored result
        again = await store.finish_table("t1", {"winner": 1, "totals": [0, 121]},
                                         RatedGame.two("egyptian", ("p1", "p2"), 0.0))
        assert again == result
        (amal,) = await store.ratings("p1")
        assert amal.games == 1 and amal.rating == pytest.approx(first.rating)
        # a second match: the stored ratings are the start, each side's own
        await two_accounts(store, "t2")
        await store.finish_table("t2", {"winner": None, "totals": [121, 121]},
                                 RatedGame.two("egyptian", ("p1", "p2"), 0.5))
        a2, b2 = rate_game(first, second, 0.5)
        (amal,) = await store.ratings("p1")
        (badr,) = await store.ratings("p2")
        assert amal.rating == pytest.approx(a2.rating, abs=1e-6)
        assert badr.rating == pytest.approx(b2.rating, abs=1e-6) and badr.games == 2
        history = await store.rating_history("p1")
        assert [(h.table_id, round(h.rating, 6)) for h in history] == [
            ("t1", round(first.rating, 6)), ("t2", round(a2.rating, 6))]
        assert history[0].change == pytest.approx(first.rating - 1500)
        rows = await store.history("p2")
        assert [(r.table_id, r.rated) for r in rows] == [("t2", True), ("t1", True)]
        assert rows[1].change == round(second.rating) - 1500  # as the match end shows it

    run(url, scenario)


def test_idle_days_widen_the_deviation_before_a_game(url: str) -> None:
    async def scenario(store: Store) -> None:
        await two_accounts(store)
        await store.finish_table("t1", {"winner": 0}, RatedGame.two("egyptian", ("p1", "p2"), 1))
        (amal,) = await store.ratings("p1")
        (badr,) = await store.ratings("p2")
        month_ago = datetime.now(UTC) - timedelta(days=30)
        await sql_exec(store, "UPDATE ratings SET rated_at = :t WHERE player_id = 'p1'",
                       t=month_ago)
        await two_accounts(store, "t2")
        await store.finish_table("t2", {"winner": 1}, RatedGame.two("egyptian", ("p1", "p2"), 0))
        a = Rating(amal.rating, amal.deviation, amal.volatility)
        b = Rating(badr.rating, badr.deviation, badr.volatility)
        grown = idle(a, 30)
        assert grown.deviation > a.deviation
        expected_a, _ = rate_game(a, b, 0.0, first_idle_days=30)
        (after,) = await store.ratings("p1")
        assert after.rating == pytest.approx(expected_a.rating, abs=0.05)
        assert after.deviation == pytest.approx(expected_a.deviation, abs=0.05)

    run(url, scenario)


async def sql_exec(store: Store, statement: str, **values: Any) -> None:
    async with sql_store(store).engine.begin() as connection:
        if values.get("t") is not None and connection.dialect.name == "sqlite":
            values["t"] = values["t"].astimezone(UTC).replace(tzinfo=None)
        await connection.execute(text(statement), values)


def test_the_leaderboard_keeps_the_settled_and_recent(url: str) -> None:
    async def scenario(store: Store) -> None:
        for pid, name in (("p1", "Amal"), ("p2", "Badr"), ("p3", "Camil"), ("p4", "Dina")):
            await store.create_player(pid, name, f"hash-{pid}")
            await store.claim_account(pid, name, None)
        await two_accounts(store)
        await store.finish_table("t1", {"winner": 0}, RatedGame.two("egyptian", ("p1", "p2"), 1))
        since = datetime.now(UTC) - timedelta(days=30)
        assert await store.leaderboard("egyptian", since) == []  # deviations still wide
        await sql_exec(store, "INSERT INTO ratings (player_id, variant, rating, deviation, "
                       "volatility, games, rated_at) VALUES ('p3', 'egyptian', 1800, 60, "
                       "0.06, 40, :t)", t=datetime.now(UTC))
        await sql_exec(store, "INSERT INTO ratings (player_id, variant, rating, deviation, "
                       "volatility, games, rated_at) VALUES ('p4', 'egyptian', 1900, 50, "
                       "0.06, 50, :t)", t=datetime.now(UTC) - timedelta(days=45))
        await sql_exec(store, "UPDATE ratings SET deviation = 70 WHERE player_id = 'p1'")
        board = await store.leaderboard("egyptian", since)
        assert (board[0].username, round(board[0].rating)) == ("Camil", 1800)
        assert [r.username for r in board] == ["Camil", "Amal"]  # Dina: idle; Badr: wide
        assert await store.leaderboard("serbian", since) == []
        await store.delete_account("p3")
        assert [r.username for r in await store.leaderboard("egyptian", since)] == ["Amal"]

    run(url, scenario)


def test_a_deleted_account_leaves_its_matches_under_deleted_player(url: str) -> None:
    async def scenario(store: Store) -> None:
        await two_accounts(store)
        await store.add_passkey(PasskeyRow("cred", "p1", b"k", 0, "Phone", NOW))
        await store.finish_table("t1", {"winner": 0}, RatedGame.two("egyptian", ("p1", "p2"), 1))
        await store.delete_account("p1")
        assert await store.player_by_token("hash-p1") is None
        assert await store.account("Amal") is None
        assert await store.passkey("cred") is None
        assert await store.ratings("p1") == [] and await store.sessions("p1") == []
        (match,) = await store.history("p2")
        assert match.players == (DELETED_NAME, "Badr")
        log_ = await store.load("t1")
        assert log_ is not None and log_.seats[0].player_id == "p1"  # the seat stays
        gone = await store.player("p1")
        assert gone is not None and gone.nickname == DELETED_NAME and not gone.account
        # the name is free again
        await store.create_player("p9", "New", "hash-p9")
        assert (await store.claim_account("p9", "amal", None)).username == "amal"

    run(url, scenario)


def old_database(tmp_path: Path, revision: str) -> Path:
    """A new SQLite database migrated up to ``revision`` only: its file."""
    path = tmp_path / "old" / "basra.sqlite3"
    path.parent.mkdir()
    old_url = f"sqlite+aiosqlite:///{path}"

    async def make_old() -> None:
        engine = create_engine(database(old_url, None))
        async with engine.begin() as connection:
            await connection.run_sync(
                lambda sync: command.upgrade(alembic_config(sync), revision))
        await engine.dispose()

    asyncio.run(make_old())
    return path


def test_migrating_a_0002_database_keeps_every_match_and_session(tmp_path: Path) -> None:
    """A database made by revision 0002 (guests, a finished match with rounds and plays)
    is carried to head: every guest is still signed in with their old token (but one whose
    session is a year old: sessions expire), the match loads as it was, and history shows
    it."""
    path = old_database(tmp_path, "0002")
    old_url = f"sqlite+aiosqlite:///{path}"
    old = sqlite3.connect(path)
    # Amal's guest began 200 days ago (idle longer than a guest may be, but the upgrade
    # counts as a use: still signed in); Badr's 400 days ago (a year old: expired).
    amal = (datetime.now(UTC) - timedelta(days=200)).strftime("%Y-%m-%d %H:%M:%S")
    badr = (datetime.now(UTC) - timedelta(days=400)).strftime("%Y-%m-%d %H:%M:%S")
    old.execute("INSERT INTO players VALUES ('p1', 'Amal', 'token-hash-1', ?)", (amal,))
    old.execute("INSERT INTO players VALUES ('p2', 'Badr', 'token-hash-2', ?)", (badr,))
    old.executescript("""
        INSERT INTO tables (id, kind, variant, seats, teams, clock_seconds, bot_level, status,
            created_at, finished_at, result) VALUES ('t1', 'private', 'egyptian', 2, 0, 30,
            'medium', 'finished', '2025-01-01 11:00:00', '2025-01-01 11:30:00',
            '{"winner": 1, "totals": [80, 121], "sets": []}');
        INSERT INTO table_seats VALUES ('t1', 0, 'p1', NULL, 'seed-a');
        INSERT INTO table_seats VALUES ('t1', 1, 'p2', NULL, 'seed-b');
        INSERT INTO rounds VALUES ('t1', 1, 'server-1', 'commit-1', 'client-1',
            '2025-01-01 11:00:05');
        INSERT INTO plays VALUES ('t1', 1, 1, 0, '5H', '', 0, '2025-01-01 11:00:06');
        INSERT INTO plays VALUES ('t1', 1, 2, 1, '5S', '5H', 0, '2025-01-01 11:00:07');
    """)
    old.commit()
    old.close()

    async def scenario(store: Store) -> None:
        assert await scalars(store, "SELECT version_num FROM alembic_version") == ["0012"]
        player = await store.player_by_token("token-hash-1")
        assert player is not None and player.id == "p1" and not player.account
        assert await store.player_by_token("token-hash-2") is None  # a year old: expired
        assert await store.player("p2") is not None  # the guest itself is kept
        log_ = await store.load("t1")
        assert log_ is not None and not log_.table.rated
        assert [(p.seat, p.card, p.take) for p in log_.plays] == [(0, "5H", ()),
                                                                  (1, "5S", ("5H",))]
        assert log_.table.result == {"winner": 1, "totals": [80, 121], "sets": []}
        (match,) = await store.history("p1")
        assert match.players == ("Amal", "Badr") and match.winner == 1
        assert not match.rated and match.change is None
        # and the old guest can claim an account now
        claimed = await store.claim_account("p1", "Amal", None)
        assert claimed.account

    run(old_url, scenario)
