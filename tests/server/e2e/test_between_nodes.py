"""A socket for a live table that no process here runs at that moment (in a cluster: its
node died or let it go, and the next has not rebuilt it yet) is closed with 1012 and no
``closed`` message, as when a table moves: the client reconnects and finds it, instead of
taking a match in play for ended."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from basra.server.app import create_app
from basra.server.http.deps import Services
from server_harness import database, new_guest, run, running_server


def test_a_live_table_not_run_here_sends_the_client_back_to_find_it(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as backend:
        app = create_app(backend.settings())
        with running_server(backend.settings(), app) as base:
            services: Services = app.state.services
            lobby = services.lobby
            assert lobby is not None

            async def scenario() -> None:
                async with httpx.AsyncClient() as http:
                    amira = await new_guest(base, http, "Amira")
                    made = (await http.post(f"{base}/api/tables/private",
                                            headers=amira.headers, json={})).json()
                table_id = made["table"]["id"]
                await amira.connect(table_id)
                await amira.until(lambda s: s["table"]["status"] == "waiting")
                await amira.close()
                # Not run here for the moment (its actor goes on: the test's own stand-in
                # for a table between two nodes).
                table = lobby.tables.pop(table_id)
                try:
                    before = len(amira.log)
                    await amira.connect(table_id)
                    with pytest.raises(ConnectionClosed) as closed:
                        while True:
                            await amira.receive(10)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
                    assert amira.log[before:] == []  # no state, no `closed`: nothing to end
                    await amira.close()
                finally:
                    lobby.tables[table_id] = table
                # Run here again: the same client is seated as before.
                await amira.connect(table_id)
                state = await amira.until(lambda s: s["table"]["status"] == "waiting")
                assert state["table"]["id"] == table_id
                await amira.close()

            run(scenario())
