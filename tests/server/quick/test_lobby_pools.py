"""The lobby's pools, paired by hand (no pairing task running): who meets whom, the rated
flag, no rematch in a row while others wait, guests apart from settled accounts."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert

from basra.server.config import Settings
from basra.server.lobby.tables import Lobby, LobbyError
from basra.server.quick.memory import MemoryPools
from basra.server.quick.pools import Pool
from basra.store import SqlStore, Store, StoreError, open_store
from basra.store.base import PlayerRow
from basra.store.schema import ratings
from server_harness import FAST


async def players(store: Store, *names: str, accounts: bool = False) -> list[PlayerRow]:
    out = []
    for name in names:
        await store.create_player(name.lower(), name, f"hash-{name}")
        row = (await store.claim_account(name.lower(), name, None) if accounts
               else await store.player(name.lower()))
        assert row is not None
        out.append(row)
    return out


def with_lobby(tmp_path: Path, scenario: object) -> None:
    async def main() -> None:
        store = open_store(None, tmp_path / "data")
        await store.open()
        settings = replace(Settings(data_dir=tmp_path / "data", **FAST), bot_workers=0)
        lobby = Lobby(store, settings)
        try:
            await scenario(store, lobby)  # type: ignore[operator]
        finally:
            await lobby.close()
            await store.close()

    asyncio.run(main())


def seated(lobby: Lobby, table_id: str) -> list[str]:
    table = lobby.tables[table_id]
    return [s.player_id or "" for s in table.seats]


def test_no_rematch_in_a_row_while_someone_else_waits(tmp_path: Path) -> None:
    async def scenario(store: Store, lobby: Lobby) -> None:
        amira, badr, camil = await players(store, "Amira", "Badr", "Camil")
        first = [await lobby.quick_match(p, "egyptian") for p in (amira, badr)]
        assert await lobby.pair_pools() == 1
        assert first[0].table_id == first[1].table_id is not None
        assert first[0].rated is False  # guests
        again = [await lobby.quick_match(p, "egyptian") for p in (amira, badr, camil)]
        assert await lobby.pair_pools() == 1
        table = next(t.table_id for t in again if t.table_id)
        assert table is not None
        assert sorted(seated(lobby, table)) != ["amira", "badr"]
        # with nobody else left, the one who waits meets whoever comes next
        waiting = next(t for t in again if t.table_id is None)
        dina = (await players(store, "Dina"))[0]
        late = await lobby.quick_match(dina, "egyptian")
        assert await lobby.pair_pools() == 1
        assert waiting.table_id == late.table_id is not None

    with_lobby(tmp_path, scenario)


def test_two_accounts_meet_rated_and_a_guest_waits_for_its_own(tmp_path: Path) -> None:
    async def scenario(store: Store, lobby: Lobby) -> None:
        amira, badr, camil = await players(store, "Amira", "Badr", "Camil", accounts=True)
        tickets = [await lobby.quick_match(p, "egyptian") for p in (amira, badr)]
        assert await lobby.pair_pools() == 1
        assert tickets[0].rated and tickets[1].rated
        assert tickets[0].table_id is not None
        row = await store.table(tickets[0].table_id)
        assert row is not None and row.rated and row.kind == "quick"
        # Camil's rating is settled: a guest does not meet him, however long they wait
        assert isinstance(store, SqlStore)
        async with store.engine.begin() as connection:
            await connection.execute(insert(ratings).values(
                player_id="camil", variant="egyptian", rating=1500.0, deviation=60.0,
                volatility=0.06, games=40, rated_at=datetime.now(UTC)))
        guest = (await players(store, "Gaston"))[0]
        waits = [await lobby.quick_match(p, "egyptian") for p in (camil, guest)]
        assert waits[0].rating.deviation == 60.0 and not waits[0].rating.provisional
        for ticket in waits:
            ticket.since -= 120  # a long wait: the widest window
        assert await lobby.pair_pools() == 0
        # a second guest is the first one's match
        other = (await players(store, "Gina"))[0]
        third = await lobby.quick_match(other, "egyptian")
        assert await lobby.pair_pools() == 1
        assert waits[1].table_id == third.table_id is not None and not third.rated
        assert waits[0].table_id is None

    with_lobby(tmp_path, scenario)


def test_a_table_that_cannot_be_made_leaves_both_waiting(tmp_path: Path) -> None:
    """The store refuses the new table once: both tickets stay in the pool and are paired
    at the next pass."""
    async def scenario(store: Store, lobby: Lobby) -> None:
        amira, badr = await players(store, "Amira", "Badr")
        tickets = [await lobby.quick_match(p, "egyptian") for p in (amira, badr)]
        create = lobby._create
        failures = [1]

        async def failing(*args: object, **kwargs: object) -> object:
            if failures:
                failures.pop()
                raise StoreError("cannot create table: the database is down")
            return await create(*args, **kwargs)  # type: ignore[arg-type]

        lobby._create = failing  # type: ignore[method-assign]
        assert await lobby.pair_pools() == 0
        assert all(t.table_id is None for t in tickets)
        assert isinstance(lobby.pools, MemoryPools)
        assert [t.id for t in lobby.pools.pools["egyptian"]] == [t.id for t in tickets]
        assert await lobby.pair_pools() == 1
        assert tickets[0].table_id == tickets[1].table_id is not None

    with_lobby(tmp_path, scenario)


def test_the_chosen_seating_is_the_table_quick_match_makes(tmp_path: Path) -> None:
    """Four who chose "four players, two teams" get a table of four in teams, three who
    chose three alone a table of three; a seating the variant does not play is refused,
    and four alone in a variant played by four only in teams is a team pool."""
    async def scenario(store: Store, lobby: Lobby) -> None:
        four = await players(store, "Amira", "Badr", "Camil", "Dana")
        tickets = [await lobby.quick_match(p, "serbian", 4, True) for p in four]
        three = await players(store, "Eli", "Fadi", "Ghada")
        solos = [await lobby.quick_match(p, "lebanese", 3) for p in three]
        assert await lobby.pair_pools() == 2
        table = lobby.tables[tickets[0].table_id or ""]
        assert (table.row.seats, table.row.teams, table.row.kind) == (4, True, "quick")
        assert sorted(seated(lobby, table.row.id)) == ["amira", "badr", "camil", "dana"]
        assert all(t.table_id == table.row.id for t in tickets)
        small = lobby.tables[solos[0].table_id or ""]
        assert (small.row.seats, small.row.teams) == (3, False)
        with pytest.raises(LobbyError) as refused:
            await lobby.quick_match(four[0], "arabic101", 4, True)
        assert refused.value.code == "table/bad_options"
        assert lobby.quick_pool("egyptian", 4) == Pool("egyptian", 4, True)

    with_lobby(tmp_path, scenario)
