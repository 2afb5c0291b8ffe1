"""Invite codes cannot be guessed at speed (issue 25, item 9): the invite page and joining
by code are limited per address; another address is not held up."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import httpx

from basra.server.config import Limits
from server_harness import database, new_guest, private_table, run, running_server


def test_invite_codes_tried_are_limited_per_address(tmp_path: Path) -> None:
    limits = replace(Limits.unlimited(), invites_per_minute=1.0, invite_burst=4)

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient() as http:
            amira = await new_guest(base, http, "Amira")
            omar = await new_guest(base, http, "Omar")
            _, code = await private_table(base, http, amira)
            page = await http.get(f"{base}/join/{code}")
            assert page.status_code == 200 and "Amira" in page.text
            for guess in ("AAAAAA", "AAAAAB"):
                assert (await http.get(f"{base}/join/{guess}")).status_code == 404
            r = await http.post(f"{base}/api/tables/join", headers=omar.headers,
                                json={"invite_code": "AAAAAC"})
            assert r.status_code == 404 and r.json()["error"]["code"] == "table/not_found"
            # The burst is spent: the right code too waits now, page and API alike.
            refused = await http.get(f"{base}/join/{code}")
            assert refused.status_code == 429 and "Too many invite codes" in refused.text
            r = await http.post(f"{base}/api/tables/join", headers=omar.headers,
                                json={"invite_code": code})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate/limited"
            assert int(r.headers["Retry-After"]) >= 1
        # Another address is not held up.
        async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(
                local_address="127.0.0.2")) as http2:
            page = await http2.get(f"{base}/join/{code}")
            assert page.status_code == 200

    with database("sqlite", tmp_path) as store, \
            running_server(store.settings(limits=limits)) as base:
        run(scenario(base))
