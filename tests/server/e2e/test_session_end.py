"""What ending a session ends (issue 12, after review): the open sockets of a session
signed out, of every other session after a new password, of a deleted account; a deleted
player's match is not rated; and the claims a double tap, a generated name or a look-alike
username make."""

from __future__ import annotations

import asyncio
import dataclasses

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from basra.server.config import Limits
from server.e2e.test_accounts import PASSWORD, bearer, claim, code_of, signed_in
from server.e2e.test_rated_play import account, at_a_rated_quick_table, each_plays_once, me
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    play_out,
    serve,
)


async def closed_with(guest: Guest, timeout: float = 10) -> int:
    """Read the guest's socket until the server closes it: the close code."""
    assert guest.socket is not None
    try:
        async with asyncio.timeout(timeout):
            while True:
                await guest.socket.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else -1


def test_signing_out_closes_the_sessions_open_sockets(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        phone = Guest(base, "Amira", token=await signed_in(base, http, "Amira",
                                                             "Amira-secret-pass"))
        r = await http.post(f"{base}/api/tables/bot", headers=amira.headers, json={})
        table = r.json()["table"]["id"]
        await amira.connect(table)
        await phone.connect(table)
        try:
            await phone.until(lambda s: bool(s.get("table")))
            await amira.until(lambda s: bool(s.get("table")))
            # A new password on the first device ends the phone's session: its socket too.
            r = await http.put(f"{base}/api/account/password", headers=amira.headers,
                               json={"current": "Amira-secret-pass", "password": PASSWORD})
            assert r.status_code == 200, r.text
            assert await closed_with(phone) == 4401
            assert (await http.get(f"{base}/api/me", headers=phone.headers)).status_code == 401
            # the device that changed it plays on
            await amira.send({"type": "ping"})
            assert (await amira.ping_answer())[0] > 0
            # Signing out everywhere ends this one too.
            r = await http.delete(f"{base}/api/sessions", headers=amira.headers)
            assert r.status_code == 200
            assert await closed_with(amira) == 4401
        finally:
            await amira.close()
            await phone.close()

    serve(backend, scenario)


def test_a_deleted_account_leaves_its_table_and_is_not_rated(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, omar = await at_a_rated_quick_table(base, http)
        try:
            await each_plays_once(amira, omar)  # so the match would count
            r = await http.request("DELETE", f"{base}/api/account", headers=omar.headers,
                                   json={"confirm": "Omar"})
            assert r.status_code == 200, r.text
            assert await closed_with(omar) == 4401
            final = await play_out(amira)  # the bot plays Omar's seat to the end
        finally:
            await amira.close()
            await omar.close()
        assert "ratings" not in final["table"]["result"]
        assert (await me(base, http, amira))["ratings"] == {}

    serve(backend, scenario)


def test_claims_a_double_tap_a_generated_name_and_a_look_alike_make(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.post(f"{base}/api/guests", json={"language": "en"})
        token = r.json()["token"]
        generated = r.json()["player"]["nickname"]
        answers = await asyncio.gather(*(
            http.post(f"{base}/api/account", headers=bearer(token),
                      json={"username": "Layla", "password": PASSWORD}) for _ in range(4)))
        assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
        assert {code_of(a) for a in answers if a.status_code == 409} == {"account/already"}
        body = (await http.get(f"{base}/api/me", headers=bearer(token))).json()
        assert (body["username"], body["nickname"]) == ("Layla", "Layla")  # not generated
        assert generated != "Layla"
        chosen = await new_guest(base, http, "Amira B")
        kept = await claim(base, http, chosen, "amira_77")
        assert kept["nickname"] == "Amira B"  # a nickname the guest chose stays
        look_alike = await new_guest(base, http, "Other")
        r = await http.post(f"{base}/api/account", headers=look_alike.headers,
                            json={"username": "\u0410mira_77", "password": PASSWORD})
        assert r.status_code == 422 and code_of(r) == "account/bad_username"

    serve(backend, scenario)


@pytest.mark.parametrize("kept", [50])
def test_an_account_keeps_its_newest_sessions(backend: Backend, kept: int) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        tokens = [await signed_in(base, http, "Amira", "Amira-secret-pass")
                  for _ in range(kept + 2)]
        listed = (await http.get(f"{base}/api/sessions", headers=bearer(tokens[-1]))).json()
        assert len(listed["sessions"]) == kept
        for old in (amira.token, tokens[0], tokens[1]):  # the oldest ended
            assert (await http.get(f"{base}/api/me", headers=bearer(old))).status_code == 401
        assert (await http.get(f"{base}/api/me", headers=bearer(tokens[2]))).status_code == 200

    serve(backend, scenario)




def test_profiles_and_leaderboards_are_cached_and_limited(backend: Backend) -> None:
    """A public page's answer is served again as it is for a while, and one address may
    ask only so often."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        first = (await http.get(f"{base}/api/players/amira")).json()
        r = await http.patch(f"{base}/api/me", headers=amira.headers,
                             json={"nickname": "Amira B"})
        assert r.status_code == 200
        again = (await http.get(f"{base}/api/players/AMIRA")).json()
        assert again == first and again["nickname"] == "Amira"  # the same answer, cached
        board = await http.get(f"{base}/api/leaderboard/egyptian")
        assert board.status_code == 200
        refused = await http.get(f"{base}/api/leaderboard/serbian")
        assert refused.status_code == 429 and code_of(refused) == "rate/limited"
        assert int(refused.headers["Retry-After"]) >= 1

    limits = dataclasses.replace(Limits.unlimited(), views_per_minute=1.0, view_burst=3)
    serve(backend, scenario, views_fresh_seconds=30.0, limits=limits)
