"""A table's actor from seating to the end of its match, on the in-memory table store: the
owner waits, a bot seat is the owner's alone to fill, a player joins by invite, the match
starts once both have arrived and is played to its end; what was stored is what happened,
and a table rebuilt from its stored log is the table it was."""

from __future__ import annotations

import asyncio

import pytest

from basra.game.cards import NAMES, names_of
from basra.server.table.actor import Table
from basra.server.table.seats import SeatError
from basra.store.memory import MemoryTableStore
from server.table.actor_kit import (
    FAST,
    Client,
    fill_bot,
    in_play,
    join,
    over,
    started,
)


def test_a_match_from_seating_to_the_end() -> None:
    async def scenario() -> None:
        store = MemoryTableStore()
        table = await started(store, ["amira", None])
        amira = Client(table, "amira", plays=True, seed="match")
        watcher = Client(table, None)
        badr = Client(table, "badr", plays=True, seed="match")
        try:
            await amira.attach()
            waiting = await amira.until(lambda s: s["table"]["phase"] == "waiting")
            assert amira.of_type("welcome")[0]["seat"] == 0
            assert [p["kind"] for p in waiting["table"]["players"]] == ["human", "empty"]
            assert waiting["table"]["invite_code"] == "CODET1"

            # Only the table's creator may seat a bot; nobody joins a table that started.
            with pytest.raises(SeatError) as refused:
                await fill_bot(table, by="badr", seat=1)
            assert refused.value.code == "table/not_owner"
            store.add_player("badr", "Badr")
            assert await join(table, "badr") == 1
            assert await join(table, "badr") == 1  # the invite opened again: the same seat
            store.add_player("camil", "Camil")
            with pytest.raises(SeatError) as refused:
                await join(table, "camil")
            assert refused.value.code == "table/started"

            # The first round waits until every seated player has arrived.
            arriving = await amira.until(lambda s: s["table"]["phase"] == "arriving")
            assert arriving["table"]["status"] == "playing"
            row = await store.table("t1")
            assert row is not None and row.status == "playing"
            await badr.attach()
            await watcher.attach()
            await badr.until(in_play)
            final = await watcher.until(over, 240)
            await amira.until(over)
            await badr.until(over)
        finally:
            await table.stop()
            for client in (amira, badr, watcher):
                await client.close()

        # The stored log is the match as played: every play once, in order, the result.
        stored = await store.load("t1")
        assert stored is not None and stored.table.status == "finished"
        assert stored.table.result == table.flow.result == final["table"]["result"]
        assert [s.player_id for s in stored.seats] == ["amira", "badr"]
        record = table.export_record()
        played = [(p.seat, NAMES[p.card], names_of(p.take)) for r in record.rounds
                  for p in r.plays]
        assert [(p.seat, p.card, list(p.take)) for p in stored.plays] == played
        assert not any(p.by_bot for p in stored.plays)  # nobody's clock ran out
        assert len(stored.rounds) == len(record.rounds) == len(final["view"]["results"])
        # A spectator never holds a card; each client saw the versions only grow.
        assert all(m["view"]["hand"] == [] for m in watcher.of_type("state"))
        assert all(m["hand"] == [] for m in watcher.of_type("played"))
        for client in (amira, badr, watcher):
            versions = [m["version"] for m in client.messages if m["type"] in ("state",
                                                                            "played")]
            assert versions == sorted(versions)
            assert client.state["table"]["result"]["winner"] == table.driver.match.winner
        assert table.finished_at is not None

    asyncio.run(scenario())


def test_a_table_rebuilt_from_its_stored_log_is_the_table_it_was() -> None:
    async def scenario() -> None:
        store = MemoryTableStore()
        table = await started(store, ["amira", "badr"])
        clients = [Client(table, p, plays=True, seed="rebuilt") for p in ("amira", "badr")]
        for client in clients:  # both stop in the first round, whatever the machine's load
            client.stop_when = lambda s: len(s["view"]["plays"]) >= 9
        try:
            for client in clients:
                await client.attach()
            await clients[0].until(lambda s: len(s["view"]["plays"]) >= 9)
            for client in clients:
                client.plays = False
        finally:
            await table.stop()
            for client in clients:
                await client.close()
        before = {seat: table.state_for(seat).to_json() for seat in (0, 1, None)}

        log = await store.load("t1")
        assert log is not None
        rebuilt = Table.restore(log, store, FAST)
        assert rebuilt.version > table.version  # versions only grow, across restarts too
        for seat, was in before.items():
            now = rebuilt.state_for(seat).to_json()
            assert now["view"] == was["view"], seat
            assert now["table"]["fairness"] == was["table"]["fairness"], seat
            assert now["table"]["status"] == "playing"

        # It plays on, to the end.
        rebuilt.start()
        clients = [Client(rebuilt, p, plays=True, seed="rebuilt") for p in ("amira", "badr")]
        try:
            for client in clients:
                await client.attach()
            for client in clients:
                await client.until(over, 240)
        finally:
            await rebuilt.stop()
            for client in clients:
                await client.close()
        stored = await store.load("t1")
        assert stored is not None and stored.table.status == "finished"

    asyncio.run(scenario())

