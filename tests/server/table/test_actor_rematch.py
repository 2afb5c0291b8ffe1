"""The end of a table, at its actor on the in-memory table store: a rematch is asked of the
lobby's hook once every player voted for it, and only for a finished match, by its
players, while the window is open; an evicted table tells every connection and closes it;
a table handed over to another node closes its connections for them to reconnect there."""

from __future__ import annotations

import asyncio

from basra.server.table.actor import MOVED_CODE, Table
from basra.server.table.commands import Handover
from basra.store.memory import MemoryTableStore
from server.table.actor_kit import Client, in_play, started


async def finished_by_resigning(table: Table, *clients: Client) -> None:
    """Every client attached, the first round in play, then the first client resigns."""
    for client in clients:
        await client.attach()
    await clients[0].until(in_play)
    await clients[0].send({"type": "resign"})
    for client in clients:
        await client.until(lambda s: s["table"]["status"] == "finished")


def test_a_rematch_is_asked_of_the_lobby_once_every_player_voted() -> None:
    async def scenario() -> None:
        asked: list[Table] = []

        async def rematch(old: Table) -> str | None:
            asked.append(old)
            return "t2"

        store = MemoryTableStore()
        table = await started(store, ["amira", "badr"], on_rematch=rematch)
        amira, badr, watcher = Client(table, "amira"), Client(table, "badr"), Client(table, None)
        try:
            await amira.attach()
            await badr.attach()
            await watcher.attach()
            await amira.until(in_play)
            early = await amira.answer_to({"type": "rematch"})
            assert [m.get("code") for m in early] == ["rematch/not_over"]

            await amira.send({"type": "resign"})
            done = await badr.until(lambda s: s["table"]["status"] == "finished")
            assert done["table"]["result"]["resigned"] == 0
            assert done["table"]["result"]["winner"] == 1
            spectator = await watcher.answer_to({"type": "rematch"})
            assert [m.get("code") for m in spectator] == ["rematch/not_seated"]

            # One vote: everyone sees it, and the lobby is not asked yet.
            await amira.send({"type": "rematch"})
            voted = await badr.until(lambda s: s["table"]["players"][0]["rematch"])
            assert voted["table"]["rematch_table"] is None and not asked
            assert await amira.answer_to({"type": "rematch"}) == []  # asked already

            # Every player voted: the lobby makes the rematch, once, and everyone is told.
            await badr.send({"type": "rematch"})
            for client in (amira, badr, watcher):
                state = await client.until(lambda s: s["table"]["rematch_table"] is not None)
                assert state["table"]["rematch_table"] == "t2"
            assert asked == [table]
            assert table.rematch_table == "t2"
        finally:
            await table.stop()
            for client in (amira, badr, watcher):
                await client.close()
        row = await store.table("t1")
        assert row is not None and row.status == "finished"
        assert row.result is not None and row.result["resigned"] == 0

    asyncio.run(scenario())


def test_no_rematch_once_its_window_has_closed() -> None:
    async def scenario() -> None:
        async def rematch(old: Table) -> str | None:
            raise AssertionError("the window has closed")

        table = await started(MemoryTableStore(), ["amira", "badr"], on_rematch=rematch)
        amira, badr = Client(table, "amira"), Client(table, "badr")
        try:
            await finished_by_resigning(table, amira, badr)
            table.on_rematch = None  # the lobby lets the table go
            closed = await amira.answer_to({"type": "rematch"})
            assert [m.get("code") for m in closed] == ["rematch/closed"]
        finally:
            await table.stop()
            await amira.close()
            await badr.close()

    asyncio.run(scenario())


def test_an_evicted_table_tells_every_connection_and_closes_it() -> None:
    async def scenario() -> None:
        table = await started(MemoryTableStore(), ["amira", "badr"])
        clients = [Client(table, "amira"), Client(table, "badr"), Client(table, None)]
        try:
            await finished_by_resigning(table, *clients)
            await table.evict()
            assert table.task is not None and table.task.done()
            for client in clients:
                while client.socket.closed_with is None:
                    await asyncio.sleep(0.01)
                last = client.messages[-1]
                assert (last["type"], last["reason"]) == ("closed", "finished")
                assert client.socket.closed_with == (1000, "table closed")
        finally:
            for client in clients:
                await client.close()

    asyncio.run(scenario())


def test_a_table_handed_over_closes_its_connections_for_them_to_reconnect() -> None:
    async def scenario() -> None:
        store = MemoryTableStore()
        table = await started(store, ["amira", "badr"])
        clients = [Client(table, "amira"), Client(table, "badr"), Client(table, None)]
        try:
            for client in clients:
                await client.attach()
            await clients[0].until(in_play)
            before = await store.load("t1")
            assert before is not None
            await table.stop(Handover())
            for client in clients:
                while client.socket.closed_with is None:
                    await asyncio.sleep(0.01)
                assert client.socket.closed_with[0] == MOVED_CODE
                assert not client.of_type("closed")  # nothing said: they reconnect
        finally:
            for client in clients:
                await client.close()
        stored = await store.load("t1")
        assert stored is not None and stored.table.status == "playing"  # nothing written
        assert stored.plays == before.plays

    asyncio.run(scenario())

