"""Who holds a seat, end to end: the invite link goes only to the seated (never to a
stranger, a bad token or nobody), and a seat holds a few sockets (a player's tabs) at once,
a fifth replacing the oldest; an invite code that is not text is no code, never a
traceback."""

from __future__ import annotations

from pathlib import Path

import httpx

from server.e2e.test_watching import refusal
from server_harness import (
    Guest,
    bot_table,
    join,
    new_guest,
    next_message,
    private_table,
    serve,
)


def test_the_invite_link_goes_only_to_the_seated(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        stranger = await new_guest(base, http, "Stranger")
        created = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={})).json()
        table_id = created["table"]["id"]
        assert created["invite_link"].startswith("/join/")
        for headers in ({}, stranger.headers, {"Authorization": "Bearer nonsense"}):
            public = (await http.get(f"{base}/api/tables/{table_id}",
                                     headers=headers)).json()
            assert "invite_link" not in public and "invite_code" not in public["table"]
            assert public["seat"] is None
        mine = (await http.get(f"{base}/api/tables/{table_id}",
                               headers=amira.headers)).json()
        assert mine["invite_link"] == created["invite_link"] and mine["seat"] == 0

    serve(tmp_path, scenario)


def test_a_seat_holds_a_few_sockets_and_repeats_change_nothing(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        tabs = [Guest(base, "Amira", token=amira.token) for _ in range(5)]
        for tab in tabs[:4]:
            await tab.connect(table_id)
            await tab.until(lambda s: True)
        await tabs[4].connect(table_id)
        await tabs[4].until(lambda s: True)
        closed = await next_message(tabs[0], "closed")  # the oldest tab gave way
        assert closed["reason"] == "replaced"
        for tab in tabs:
            await tab.close()
        # an invite code that is not text is no code, never a traceback
        r = await http.post(f"{base}/api/tables/join", headers=amira.headers,
                            content='{"invite_code": "\\ud800"}')
        assert r.status_code in (404, 422), r.text
        assert r.json()["error"]["code"] in ("table/not_found", "request/invalid")

    serve(tmp_path, scenario)


def test_the_waiting_room_move_to_a_free_seat_and_the_creator_cancels(tmp_path: Path) -> None:
    """Issue 28's newcomer: a player picks a free seat in the waiting room (beside the
    partner they want), and the creator may give the table up; everyone is told."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        host = await new_guest(base, http, "Host")
        guest = await new_guest(base, http, "Badr")
        table, code = await private_table(base, http, host, variant="serbian", players=4,
                                          teams=True)
        assert await join(base, http, guest, code) == 1
        for g in (host, guest):
            await g.connect(table)
        try:
            await guest.until(lambda s: s["table"]["players"][1]["name"] == "Badr")
            await guest.send({"type": "move", "seat": 2})  # the host's partner
            state = await host.until(lambda s: s["table"]["players"][2]["name"] == "Badr")
            assert state["table"]["players"][1]["kind"] == "empty"
            mine = await guest.until(lambda s: s["you"] == 2)
            assert mine["table"]["players"][2]["name"] == "Badr"
            await guest.send({"type": "move", "seat": 0})  # the host's
            assert await refusal(guest) == "table/seat_taken"
            await guest.send({"type": "cancel"})  # not the creator
            assert await refusal(guest) == "table/not_owner"
            info = (await http.get(f"{base}/api/tables/{table}")).json()["table"]
            assert [p["name"] for p in info["players"]][:3] == ["Host", "", "Badr"]
            await host.send({"type": "cancel"})
            gone = await guest.until(lambda s: s["table"]["status"] == "abandoned")
            assert gone["table"]["status"] == "abandoned"
        finally:
            for g in (host, guest):
                await g.close()

    serve(tmp_path, scenario)
