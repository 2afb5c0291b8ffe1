"""Where a live table is found (``Lobby.live``) when its process died: adopted here, or
reached where another process adopted it first, never taken for ended."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from basra.server.config import Settings
from basra.server.lobby.placement import LocalPlacement, RemoteTable
from basra.server.lobby.tables import Lobby
from basra.store import open_store
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


def with_placement(tmp_path: Path, placement: LocalPlacement) -> Any:
    async def main() -> Any:
        store = open_store(None, tmp_path / "data")
        await store.open()
        settings = replace(Settings(data_dir=tmp_path / "data", **FAST), bot_workers=0)
        lobby = Lobby(store, settings, placement=placement)
        try:
            return await lobby.live("T1")
        finally:
            await lobby.close()
            await store.close()

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
