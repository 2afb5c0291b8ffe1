"""Where a live table is found (``Lobby.live``) when its process died: adopted here, or
reached where another process adopted it first, never taken for ended."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from basra.server.config import Settings
from basra.server.lobby.placement import LocalPlacement, RemoteTable
from basra.server.lobby.tables import Lobby, TableOptions
from basra.store import Store, open_store
from server_harness import FAST


@dataclass(frozen=True)
class Elsewhere:
    """A table another process runs (nothing is asked of it here)."""

    table_id: str

    async def join(self, player: Any, seat: int | None = None) -> int:
        raise AssertionError("not asked")

    async def fill_bot(self, seat: int | None, level: str, player_id: str) -> int:
        raise AssertionError("not asked")

    def connect(self, outbox: Any, player_id: str | None, address: str,
                account: bool) -> Any:
        raise AssertionError("not asked")


@dataclass
class Raced(LocalPlacement):
    """Nobody holds the table when asked first; another process claims it before this one."""

    other: str | None = None
    asked: list[str] = field(default_factory=list)

    async def locate(self, table_id: str) -> RemoteTable | bool:
        self.asked.append("locate")
        if self.other is None:
            return True
        return Elsewhere(table_id)

    async def adopt(self, table_id: str) -> bool:
        self.asked.append("adopt")
        self.other = "node-b"  # it got there first
        return False


@dataclass
class Gone(LocalPlacement):
    """Nobody holds the table, and nobody ever will: it is not live."""

    asked: list[str] = field(default_factory=list)

    async def locate(self, table_id: str) -> RemoteTable | bool:
        self.asked.append("locate")
        return True

    async def adopt(self, table_id: str) -> bool:
        self.asked.append("adopt")
        return False


@dataclass
class Slow(LocalPlacement):
    """This process claims the table, slowly (a loaded Redis): from the claim on, the table
    is this process's, though not rebuilt yet."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)
    claimed: bool = False

    async def locate(self, table_id: str) -> RemoteTable | bool:
        return not self.claimed  # nobody's until claimed; then ours

    async def adopt(self, table_id: str) -> bool:
        self.claimed = True
        await self.gate.wait()
        return True


@contextlib.asynccontextmanager
async def opened(tmp_path: Path,
                 placement: LocalPlacement | None = None) -> AsyncIterator[tuple[Store, Lobby]]:
    """A store and a lobby of one process (no bot workers), closed at the end."""
    store: Store = open_store(None, tmp_path / "data")
    await store.open()
    settings = replace(Settings(data_dir=tmp_path / "data", **FAST), bot_workers=0)
    lobby = Lobby(store, settings, placement=placement)
    try:
        yield store, lobby
    finally:
        await lobby.close()
        await store.close()


async def dropped_table(store: Store, lobby: Lobby) -> str:
    """A private table made here, then dropped from memory as if its process had died: live
    in the store only."""
    await store.create_player("amira", "Amira", "hash")
    amira = await store.player("amira")
    assert amira is not None
    made = await lobby.create_private(amira, TableOptions())
    await lobby.drop(made.row.id)
    assert lobby.table(made.row.id) is None
    return made.row.id


def test_a_socket_that_arrives_while_its_table_is_being_adopted_here_gets_the_table(
        tmp_path: Path) -> None:
    async def main() -> None:
        placement = Slow()
        async with opened(tmp_path, placement) as (store, lobby):
            table_id = await dropped_table(store, lobby)
            adopting = asyncio.create_task(lobby.adopt(table_id))
            await asyncio.sleep(0.05)
            assert placement.claimed
            arriving = asyncio.create_task(lobby.live(table_id))  # ours, not rebuilt yet
            await asyncio.sleep(0.05)
            assert not arriving.done()  # it waits for the rebuild
            placement.gate.set()
            adopted, found = await adopting, await arriving
            assert adopted is not None and found is adopted
            assert found.status == "waiting"

    asyncio.run(main())


def with_placement(tmp_path: Path, placement: LocalPlacement) -> Any:
    async def main() -> Any:
        async with opened(tmp_path, placement) as (_, lobby):
            return await lobby.live("T1")

    return asyncio.run(main())


def test_a_table_another_process_adopted_first_is_reached_there(tmp_path: Path) -> None:
    placement = Raced()
    found = with_placement(tmp_path, placement)
    assert found == Elsewhere("T1")
    assert placement.asked == ["locate", "adopt", "locate"]


def test_a_table_nobody_runs_or_will_run_is_not_live(tmp_path: Path) -> None:
    placement = Gone()
    assert with_placement(tmp_path, placement) is None
    assert placement.asked == ["locate", "adopt", "locate"]


def test_a_live_table_read_from_the_store_never_outranks_the_live_one(tmp_path: Path) -> None:
    """Its state, shown once to a socket that found no live table here, carries version 0:
    a client that then reaches the live table takes every state of it."""
    async def main() -> None:
        async with opened(tmp_path) as (store, lobby):
            read = await lobby.any_table(await dropped_table(store, lobby))
            assert read.status == "waiting"
            assert read.flow.version == 0

    asyncio.run(main())


@dataclass
class Claims(LocalPlacement):
    """Claims succeed; releases are counted."""

    released: list[str] = field(default_factory=list)

    async def locate(self, table_id: str) -> RemoteTable | bool:
        return True

    async def adopt(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        self.released.append(table_id)


def test_an_adoption_that_fails_gives_its_claim_back(tmp_path: Path) -> None:
    """The store fails while the claimed table is rebuilt: the claim is given back (else the
    lease would be renewed for a table nobody runs), the error goes on, and the next try
    starts afresh."""
    async def broken(table_id: str) -> None:
        raise OSError("the store is away")

    async def main() -> None:
        placement = Claims()
        async with opened(tmp_path, placement) as (_, lobby):
            lobby._rebuild = broken  # type: ignore[method-assign]
            with pytest.raises(OSError):  # the store's error is not swallowed
                await lobby.adopt("T1")
            assert placement.released == ["T1"]
            assert lobby.adoptions == {}

    asyncio.run(main())
