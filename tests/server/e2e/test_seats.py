"""Who holds a seat, end to end: the invite link goes only to the seated (never to a
stranger, a bad token or nobody), and a seat holds a few sockets (a player's tabs) at once,
a fifth replacing the oldest; an invite code that is not text is no code, never a
traceback."""

from __future__ import annotations

from pathlib import Path

import httpx

from server_harness import Guest, bot_table, new_guest, next_message, serve


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
