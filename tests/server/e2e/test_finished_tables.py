"""Finished tables leave memory (issue 8), end to end on both stores: once the rematch window
is over, a finished table's sockets are closed (``finished``) and the table is evicted; its
info, record and history are then answered from the store, and a socket opened to it later
gets its last state, then is closed."""

from __future__ import annotations

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from basra.match.records import parse_record
from basra.match.replay import verify
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401  (the backend fixture)
    bot_table,
    new_guest,
    next_message,
    over,
    play_out,
    rematch,
    serve,
)


def test_finished_tables_leave_memory_and_are_served_from_the_store(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        watcher = Guest(base, "Watcher")
        await watcher.connect(table_id)
        try:
            await play_out(amira)
            rematch_id = await rematch(amira)
            closed = await next_message(amira, "closed", timeout=10)
            assert closed["reason"] == "finished"
            await next_message(watcher, "closed", timeout=10)
            with pytest.raises(ConnectionClosed):
                await amira.receive(5)
        finally:
            await amira.close()
            await watcher.close()
        health = (await http.get(f"{base}/health")).json()["memory"]
        assert health["evicted"] >= 1
        assert health["tables"] <= 1  # at most the rematch
        info = (await http.get(f"{base}/api/tables/{table_id}",
                               headers=amira.headers)).json()
        assert info["table"]["status"] == "finished"
        assert info["table"]["rematch_table"] == rematch_id
        assert info["seat"] == 0
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert verify(parse_record(record)).ok
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        assert history["matches"][0]["table"] == table_id
        # a socket to the evicted table: its last state, then closed
        late = Guest(base, "Late")
        await late.connect(table_id)
        final = await late.until(over)
        assert final["view"]["winner"] is not None
        assert (await next_message(late, "closed"))["reason"] == "finished"
        with pytest.raises(ConnectionClosed):
            await late.receive(5)
        await late.close()

    serve(backend, scenario, rematch_window_seconds=0.5, sweep_seconds=0.1)
