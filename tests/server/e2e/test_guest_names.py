"""Guests' names, end to end: a guest made without a nickname gets a friendly generated one
(three words, in the language it asks for, English for one we do not have) and renames itself
over ``PATCH /api/me`` (a bot's name refused, no session no rename); a table it makes from
then on shows the new name."""

from __future__ import annotations

from pathlib import Path

import httpx

from basra.server.identity.guests import clean_nickname
from server_harness import serve


def test_a_guest_without_a_nickname_gets_a_friendly_one_and_can_rename(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        names = set()
        for body in ({}, {"nickname": None}):
            r = await http.post(f"{base}/api/guests", json=body)
            assert r.status_code == 201, r.text
            name = r.json()["player"]["nickname"]
            assert clean_nickname(name) == name and len(name.split()) == 3, name
            names.add(name)
        arabic = await http.post(f"{base}/api/guests", json={"language": "ar"})
        name = arabic.json()["player"]["nickname"]
        assert all("\u0600" <= ch <= "\u06ff" or ch.isdigit() or ch == " " for ch in name), name
        other = await http.post(f"{base}/api/guests", json={"language": "xx-YY"})
        assert other.json()["player"]["nickname"].isascii()  # not ours: English
        r = await http.post(f"{base}/api/guests")  # no body at all: the same
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        r = await http.patch(f"{base}/api/me", headers=headers, json={"nickname": "  Amira "})
        assert r.status_code == 200 and r.json()["nickname"] == "Amira", r.text
        assert (await http.get(f"{base}/api/me", headers=headers)).json()["nickname"] == "Amira"
        r = await http.patch(f"{base}/api/me", headers=headers, json={"nickname": "bot:hard"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "guest/bad_nickname"
        r = await http.patch(f"{base}/api/me", json={"nickname": "Omar"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "auth/required"
        # The new name is the one a table made from now on shows.
        r = await http.post(f"{base}/api/tables/bot", headers=headers, json={})
        assert r.json()["table"]["players"][0]["name"] == "Amira"

    serve(tmp_path, scenario)
