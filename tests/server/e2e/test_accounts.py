"""Accounts end to end against a real server (docs/PROTOCOL.md, "Accounts"): a guest claims
an account and keeps its history, signs in elsewhere with its password or a passkey, lists
and ends sessions, changes its password, downloads its data and deletes itself. Every
scenario runs on both stores (the ``backend`` fixture: SQLite and PostgreSQL, which fails,
never skips, when it is down).

The passkey ceremonies use :class:`test_accounts.SoftAuthenticator`, an authenticator in
software; the browser tests run them again with Chromium's virtual authenticator."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from basra.match.records import parse_record
from basra.match.replay import verify
from basra.server.config import Limits
from server.identity.test_accounts import SoftAuthenticator
from server_harness import (
    Backend,
    Guest,
    at_a_bot_table,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    play_out,
    serve,
    two_at_a_private_table,
)

PASSWORD = "correct horse battery"


def limits(**changes: Any) -> Limits:
    """No per-address limits but the sign-in ones given; the client's address is taken
    from ``X-Forwarded-For`` (loopback is a trusted proxy), so a test can sign in from
    several addresses."""
    return dataclasses.replace(Limits.unlimited(), trusted_proxies=("127.0.0.1",), **changes)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


async def claim(base: str, http: httpx.AsyncClient, guest: Guest, username: str,
                password: str | None = PASSWORD) -> dict[str, Any]:
    body: dict[str, Any] = {"username": username}
    if password is not None:
        body["password"] = password
    r = await http.post(f"{base}/api/account", headers=guest.headers, json=body)
    assert r.status_code == 201, r.text
    me: dict[str, Any] = r.json()
    if password is not None:  # as the browser does: a proof with the password just chosen
        await prove_by_password(base, http, guest, password)
    return me


async def prove_by_password(base: str, http: httpx.AsyncClient, guest: Guest,
                            password: str = PASSWORD) -> None:
    """``POST /api/sessions/current/proof`` with the password: the guest keeps the new
    token it answers with (the old one names nobody any more)."""
    r = await http.post(f"{base}/api/sessions/current/proof", headers=guest.headers,
                        json={"password": password})
    assert r.status_code == 200, r.text
    old, guest.token = guest.token, r.json()["token"]
    assert guest.token != old


async def sign_in(base: str, http: httpx.AsyncClient, username: str,
                  password: str = PASSWORD, address: str | None = None,
                  agent: str = "pytest") -> httpx.Response:
    headers = {"User-Agent": agent}
    if address is not None:
        headers["X-Forwarded-For"] = address
    return await http.post(f"{base}/api/sessions", headers=headers,
                           json={"username": username, "password": password})


async def signed_in(base: str, http: httpx.AsyncClient, username: str,
                    password: str = PASSWORD, **kw: Any) -> str:
    r = await sign_in(base, http, username, password, **kw)
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


async def me(base: str, http: httpx.AsyncClient, token: str) -> httpx.Response:
    return await http.get(f"{base}/api/me", headers=bearer(token))


async def an_account(base: str, http: httpx.AsyncClient, name: str = "Amira",
                     password: str | None = PASSWORD) -> Guest:
    guest = await new_guest(base, http, name)
    await claim(base, http, guest, name.lower(), password)
    return guest


# ---------------------------------------------------------------------------------------
# claiming and signing in


def test_a_guest_claims_an_account_and_signs_in_elsewhere(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http, "Amira")
        await play_out(amira)
        await amira.close()
        before = (await me(base, http, amira.token)).json()
        assert before == {"id": amira.player_id, "nickname": "Amira", "username": None,
                          "account": False, "has_password": False, "passkeys": 0,
                          "ratings": {},
                          "standing": {"role": None, "muted": False, "rated_ban": False,
                                       "rename": False, "warnings": 0},
                          "leaver": {"left": 0, "wait_until": None, "message": None}}
        claimed = await claim(base, http, amira, "Amira_77")
        assert claimed == {**before, "username": "Amira_77", "account": True,
                           "has_password": True}
        assert (await me(base, http, amira.token)).json() == claimed  # the guest's token
        async with httpx.AsyncClient() as elsewhere:  # another device: no token, no cookie
            r = await sign_in(base, elsewhere, "aMIRA_77", agent="Firefox on a phone")
            assert r.status_code == 201, r.text
            token = r.json()["token"]
            assert token != amira.token
            assert r.json()["player"] == claimed
            assert (await me(base, elsewhere, token)).json()["id"] == amira.player_id
            mine = (await elsewhere.get(f"{base}/api/history", headers=bearer(token))).json()
            theirs = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
            assert len(mine["matches"]) == 1 and mine == theirs
            assert mine["matches"][0]["players"] == ["Amira", "bot:random"]
            listed = (await elsewhere.get(f"{base}/api/sessions",
                                          headers=bearer(token))).json()["sessions"]
        assert [(s["kind"], s["current"]) for s in listed] == [
            ("password", True), ("guest", False)]
        assert listed[0]["user_agent"] == "Firefox on a phone"
        assert listed[0]["address"] == "127.0.0.1"
        assert set(listed[0]) == {"id", "kind", "created_at", "user_agent", "address",
                                  "current"}
        renamed = await http.patch(f"{base}/api/me", headers=amira.headers,
                                   json={"nickname": "Amira K"})
        assert renamed.json() == {**claimed, "nickname": "Amira K"}

    serve(backend, scenario)


def test_claims_that_are_refused(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        omar = await new_guest(base, http, "Omar")
        url = f"{base}/api/account"
        for body, code in (
                ({"username": "x", "password": PASSWORD}, "account/bad_username"),
                ({"username": "bot:hard", "password": PASSWORD}, "account/bad_username"),
                ({"username": "omar", "password": "short"}, "account/weak_password"),
                ({"username": "omar", "password": "zzzzzzzzzz"}, "account/weak_password"),
                ({"username": "omar", "password": "x" * 129}, "account/weak_password"),
                ({"password": PASSWORD}, "request/invalid")):
            r = await http.post(url, headers=omar.headers, json=body)
            assert (r.status_code, code_of(r)) == (422, code), (body, r.text)
            assert "\n" not in r.json()["error"]["message"]
        r = await http.post(url, json={"username": "omar", "password": PASSWORD})
        assert (r.status_code, code_of(r)) == (401, "auth/required")
        await claim(base, http, omar, "Omar")
        r = await http.post(url, headers=omar.headers, json={"username": "omar2"})
        assert (r.status_code, code_of(r)) == (409, "account/already")
        layla = await new_guest(base, http, "Layla")
        r = await http.post(url, headers=layla.headers,
                            json={"username": " OMAR ", "password": PASSWORD})
        assert (r.status_code, code_of(r)) == (409, "account/username_taken")
        assert r.json()["error"]["message"] == "that username is taken"
        # without a password (a passkey comes next): an account that cannot sign in by one
        claimed = await claim(base, http, layla, "layla", None)
        assert claimed["account"] is True and claimed["has_password"] is False
        r = await sign_in(base, http, "layla", "")
        assert (r.status_code, code_of(r)) == (401, "auth/bad_credentials")

    serve(backend, scenario)


def test_a_wrong_password_answers_like_an_unknown_user(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        await an_account(base, http, "Amira")
        answers = []
        for username, password in (("amira", "wrong password"), ("nobody", PASSWORD),
                                   ("x", PASSWORD), ("amira", "é" * 200),
                                   ("Amira", PASSWORD[:-1])):
            r = await sign_in(base, http, username, password)
            answers.append((r.status_code, r.json(), r.headers.get("retry-after")))
        assert answers == [(401, {"error": {"code": "auth/bad_credentials",
                                            "message": "wrong username or password"}},
                            None)] * len(answers)

        async def timed(username: str, password: str) -> float:
            start = time.perf_counter()
            r = await sign_in(base, http, username, password)
            assert r.status_code == 401
            return time.perf_counter() - start

        wrong = min([await timed("amira", "wrong password") for _ in range(3)])
        unknown = min([await timed("nobody", "wrong password") for _ in range(3)])
        assert 0.4 < unknown / wrong < 2.5, (wrong, unknown)  # both check a real hash
        # a real argon2 check (19 MiB, two passes) takes 20 ms or more on these machines,
        # a dictionary lookup microseconds: a tenth of that tells them apart on any of them
        assert unknown > 0.005

    serve(backend, scenario)


def test_sign_ins_are_limited_per_address(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        await an_account(base, http, "Amira")
        for name in ("amira", "nobody", "someone"):
            r = await sign_in(base, http, name, "wrong password", address="192.0.2.1")
            assert r.status_code == 401
        r = await sign_in(base, http, "amira", address="192.0.2.1")  # even the right one
        assert (r.status_code, code_of(r)) == (429, "auth/too_many_attempts")
        wait = int(r.headers["retry-after"])
        assert 590 < wait <= 600
        assert f"try again in {wait} s" in r.json()["error"]["message"]
        r = await sign_in(base, http, "amira", address="198.51.100.9")  # another address
        assert r.status_code == 201, r.text
        r = await sign_in(base, http, "amira", address="192.0.2.1")
        assert r.status_code == 429
        # a good sign-in does not count: this address may still fail three times
        for expected in (201, 201, 201, 401, 401, 401, 429):
            password = PASSWORD if expected == 201 else "wrong password"
            r = await sign_in(base, http, "amira", password, address="203.0.113.5")
            assert r.status_code == expected, r.text

    serve(backend, scenario, limits=limits(sign_ins_per_address=3, sign_in_window_seconds=600))


def test_sign_ins_are_limited_per_account(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        await an_account(base, http, "Amira")
        await an_account(base, http, "Omar")
        for n in range(2):
            r = await sign_in(base, http, "amira", "wrong password", address=f"192.0.2.{n}")
            assert r.status_code == 401
        r = await sign_in(base, http, "AMIRA", address="192.0.2.99")  # any case, anywhere
        assert (r.status_code, code_of(r)) == (429, "auth/too_many_attempts")
        assert 1 <= int(r.headers["retry-after"]) <= 60
        r = await sign_in(base, http, "omar", address="192.0.2.1")  # others are not held
        assert r.status_code == 201
        r = await sign_in(base, http, "nobody", "wrong password", address="192.0.2.7")
        r = await sign_in(base, http, "nobody", "wrong password", address="192.0.2.8")
        r = await sign_in(base, http, "nobody", "wrong password", address="192.0.2.9")
        assert r.status_code == 429  # an unknown name is held alike: nothing to tell
        # a success clears the account's count
        r = await sign_in(base, http, "omar", "wrong password", address="192.0.2.1")
        r = await sign_in(base, http, "omar", address="192.0.2.1")
        assert r.status_code == 201
        for expected in (401, 401, 429):  # guesses from elsewhere lock the account...
            r = await sign_in(base, http, "omar", "wrong password", address="192.0.2.50")
            assert r.status_code == expected
        r = await sign_in(base, http, "omar", address="192.0.2.51")
        assert r.status_code == 429  # a right password too, from a new place
        # ...but not for its owner where they signed in before (which clears it)
        r = await sign_in(base, http, "omar", address="192.0.2.1")
        assert r.status_code == 201

    serve(backend, scenario, limits=limits(sign_ins_per_account=2, sign_in_window_seconds=60))


# ---------------------------------------------------------------------------------------
# sessions and passwords


def test_sessions_are_listed_and_ended(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        phone = await signed_in(base, http, "amira", agent="Phone")
        laptop = await signed_in(base, http, "amira", agent="Laptop")
        listed = (await http.get(f"{base}/api/sessions",
                                 headers=bearer(phone))).json()["sessions"]
        assert [s["user_agent"] for s in listed] == ["Laptop", "Phone", None]
        assert [s["current"] for s in listed] == [False, True, False]
        laptop_id = listed[0]["id"]
        r = await http.delete(f"{base}/api/sessions/{laptop_id}", headers=bearer(phone))
        assert r.json() == {"revoked": 1}
        assert (await me(base, http, laptop)).status_code == 401
        r = await http.delete(f"{base}/api/sessions/{laptop_id}", headers=bearer(phone))
        assert (r.status_code, code_of(r)) == (404, "session/not_found")
        other = await an_account(base, http, "Omar")
        theirs = (await http.get(f"{base}/api/sessions", headers=other.headers)).json()
        r = await http.delete(f"{base}/api/sessions/{theirs['sessions'][0]['id']}",
                              headers=bearer(phone))  # not one of hers
        assert (r.status_code, code_of(r)) == (404, "session/not_found")
        assert (await me(base, http, other.token)).status_code == 200
        r = await http.delete(f"{base}/api/sessions/current", headers=bearer(phone))
        assert r.json() == {"revoked": 1}
        assert (await me(base, http, phone)).status_code == 401
        assert (await me(base, http, amira.token)).status_code == 200
        tablet = await signed_in(base, http, "amira", agent="Tablet")
        r = await http.delete(f"{base}/api/sessions", headers=bearer(tablet))
        assert r.json() == {"revoked": 2}  # the guest's first session and this one
        for token in (amira.token, tablet, phone, laptop):
            r = await me(base, http, token)
            assert (r.status_code, code_of(r)) == (401, "auth/required")
        assert (await sign_in(base, http, "amira")).status_code == 201

    serve(backend, scenario)


def test_a_guest_may_not_sign_out(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Yusuf")
        session_id = (await http.get(f"{base}/api/sessions", headers=guest.headers)).json()[
            "sessions"][0]["id"]
        for path in ("/api/sessions", "/api/sessions/current", f"/api/sessions/{session_id}"):
            r = await http.delete(f"{base}{path}", headers=guest.headers)
            assert (r.status_code, code_of(r)) == (409, "auth/guest_sign_out"), path
        assert (await me(base, http, guest.token)).status_code == 200
        r = await http.get(f"{base}/api/sessions")
        assert (r.status_code, code_of(r)) == (401, "auth/required")

    serve(backend, scenario)


def test_changing_the_password(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        phone = await signed_in(base, http, "amira")
        url = f"{base}/api/account/password"
        new = "a brand new secret"
        for body, status, code in (
                ({"password": new}, 401, "auth/bad_credentials"),
                ({"current": "not it at all", "password": new}, 401, "auth/bad_credentials"),
                ({"current": PASSWORD, "password": "short"}, 422, "account/weak_password")):
            r = await http.put(url, headers=amira.headers, json=body)
            assert (r.status_code, code_of(r)) == (status, code), r.text
        r = await http.put(url, headers=amira.headers, json={"current": PASSWORD,
                                                             "password": new})
        assert r.json() == {"changed": True}
        assert (await me(base, http, amira.token)).status_code == 200  # this one stays
        assert (await me(base, http, phone)).status_code == 401  # every other ends
        assert (await sign_in(base, http, "amira")).status_code == 401
        assert (await sign_in(base, http, "amira", new)).status_code == 201
        guest = await new_guest(base, http, "Yusuf")
        r = await http.put(url, headers=guest.headers, json={"password": new})
        assert (r.status_code, code_of(r)) == (403, "account/required")
        # an account without a password sets one without a current one
        layla = await an_account(base, http, "Layla", password=None)
        r = await http.put(url, headers=layla.headers, json={"password": new})
        assert r.json() == {"changed": True}
        assert (await me(base, http, layla.token)).json()["has_password"] is True
        assert (await sign_in(base, http, "layla", new)).status_code == 201

    serve(backend, scenario)


def test_wrong_current_passwords_are_limited(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        url = f"{base}/api/account/password"
        for expected in (401, 401, 429):
            r = await http.put(url, headers=amira.headers,
                               json={"current": "guessing", "password": "a new secret"})
            assert r.status_code == expected
        assert code_of(r) == "auth/too_many_attempts" and "retry-after" in r.headers
        # the session is held, not the account (a stranger's guesses must never keep its
        # owner out): a sign-in elsewhere goes on
        r = await sign_in(base, http, "amira", address="198.51.100.1")
        assert r.status_code == 201

    serve(backend, scenario, limits=limits(sign_ins_per_account=2))


# ---------------------------------------------------------------------------------------
# deleting and exporting


def test_deleting_an_account_keeps_the_rivals_match(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        table_id, amira, omar = await two_at_a_private_table(base, http)
        await play_out(amira, omar)
        await amira.close()
        await omar.close()
        await claim(base, http, amira, "amira")
        phone = await signed_in(base, http, "amira")
        url = f"{base}/api/account"
        r = await http.request("DELETE", url, headers=amira.headers, json={"confirm": "omar"})
        assert (r.status_code, code_of(r)) == (422, "account/confirm")
        r = await http.request("DELETE", url, headers=omar.headers, json={"confirm": "omar"})
        assert (r.status_code, code_of(r)) == (403, "account/required")
        r = await http.request("DELETE", url, headers=amira.headers, json={"confirm": "AMIRA"})
        assert r.json() == {"deleted": True}
        for token in (amira.token, phone):
            assert (await me(base, http, token)).status_code == 401
        r = await sign_in(base, http, "amira")
        assert (r.status_code, code_of(r)) == (401, "auth/bad_credentials")
        history = (await http.get(f"{base}/api/history", headers=omar.headers)).json()
        [match] = history["matches"]
        assert match["table"] == table_id
        assert match["players"] == ["deleted player", "Omar"]
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert verify(parse_record(record)).ok  # the match itself stays whole
        layla = await new_guest(base, http, "Layla")  # the username is free again
        assert (await claim(base, http, layla, "Amira"))["username"] == "Amira"

    serve(backend, scenario)


def test_the_export_holds_everything_and_no_hash(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http, "أميرة")
        await play_out(amira)
        await amira.close()
        await claim(base, http, amira, "أميرة_7")
        phone = await signed_in(base, http, "أميرة_7", agent="Phone")
        r = await http.get(f"{base}/api/account/export", headers=bearer(phone))
        assert r.status_code == 200, r.text
        disposition = r.headers["content-disposition"]
        assert disposition.startswith('attachment; filename="basra-')
        assert unquote(disposition.split("filename*=UTF-8''")[1]) == "basra-أميرة_7.json"
        assert disposition.isascii()
        data = r.json()
        assert data["player"]["id"] == amira.player_id
        assert data["player"]["username"] == "أميرة_7"
        assert {s["kind"] for s in data["sessions"]} == {"guest", "password"}
        assert [s["current"] for s in data["sessions"]] == [True, False]
        assert data["passkeys"] == [] and data["ratings"] == []
        assert data["rating_history"] == []
        [match] = data["matches"]
        assert match["players"] == ["أميرة", "bot:random"]
        assert verify(parse_record(match["record"])).ok
        text = r.text
        assert "$argon2" not in text and "argon2" not in text
        for token in (amira.token, phone):
            assert token not in text
            assert hashlib.sha256(token.encode()).hexdigest() not in text
        assert PASSWORD not in text
        guest = await new_guest(base, http, "Yusuf")
        r = await http.get(f"{base}/api/account/export", headers=guest.headers)
        assert r.status_code == 200  # a guest may download its own too
        assert f"basra-guest-{guest.player_id}.json" in unquote(
            r.headers["content-disposition"])
        r = await http.get(f"{base}/api/account/export")
        assert r.status_code == 401

    serve(backend, scenario)


# ---------------------------------------------------------------------------------------
# passkeys


async def register(base: str, http: httpx.AsyncClient, guest: Guest,
                   key: SoftAuthenticator, name: str | None = "Phone") -> httpx.Response:
    r = await http.post(f"{base}/api/passkeys/options", headers=guest.headers)
    assert r.status_code == 200, r.text
    options = r.json()
    body: dict[str, Any] = {"challenge": options["challenge"],
                            "credential": key.create(options["options"])}
    if name is not None:
        body["name"] = name
    return await http.post(f"{base}/api/passkeys", headers=guest.headers, json=body)


async def passkey_sign_in(base: str, http: httpx.AsyncClient, key: SoftAuthenticator,
                          **changes: Any) -> httpx.Response:
    r = await http.post(f"{base}/api/passkeys/sign-in/options")
    assert r.status_code == 200, r.text
    options = r.json()
    return await http.post(f"{base}/api/passkeys/sign-in", json={
        "challenge": options["challenge"], "credential": key.get(options["options"]),
        **changes})


async def prove_by_passkey(base: str, http: httpx.AsyncClient, guest: Guest,
                           key: SoftAuthenticator, **changes: Any) -> httpx.Response:
    """``POST /api/sessions/current/proof`` with ``key``'s answer to a ``prove``
    challenge."""
    r = await http.post(f"{base}/api/sessions/current/proof/options", headers=guest.headers)
    assert r.status_code == 200, r.text
    options = r.json()
    r = await http.post(f"{base}/api/sessions/current/proof", headers=guest.headers,
                        json={"challenge": options["challenge"],
                              "credential": key.get(options["options"]), **changes})
    if r.status_code == 200:  # the session goes on with a new token
        guest.token = r.json()["token"]
    return r


def test_a_passkey_is_registered_and_signs_in(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira", password=None)
        key = SoftAuthenticator(base)
        r = await register(base, http, amira, key, name="  Pixel 8  ")
        assert r.status_code == 201, r.text
        added = r.json()
        assert added["id"] == key.id and added["name"] == "Pixel 8"
        assert {"id", "name", "created_at"} <= set(added)
        listed = (await http.get(f"{base}/api/passkeys", headers=amira.headers)).json()
        assert listed == {"passkeys": [{**added, "last_used_at": None}]}
        assert (await me(base, http, amira.token)).json()["passkeys"] == 1
        # with a passkey to prove with, adding another needs a fresh proof
        r = await http.post(f"{base}/api/passkeys/options", headers=amira.headers)
        assert (r.status_code, code_of(r)) == (403, "auth/proof_needed")
        assert (await prove_by_passkey(base, http, amira, key)).status_code == 200
        r = await http.post(f"{base}/api/passkeys/options", headers=amira.headers)
        options = r.json()["options"]
        assert [c["id"] for c in options["excludeCredentials"]] == [key.id]
        assert options["rp"] == {"name": "Basra", "id": "127.0.0.1"}
        assert options["user"]["name"] == "amira"
        assert options["user"]["displayName"] == "Amira"
        async with httpx.AsyncClient() as elsewhere:
            r = await passkey_sign_in(base, elsewhere, key)
            assert r.status_code == 201, r.text
            token = r.json()["token"]
            assert r.json()["player"]["id"] == amira.player_id
            assert r.json()["player"]["passkeys"] == 1
            sessions = (await elsewhere.get(f"{base}/api/sessions",
                                            headers=bearer(token))).json()["sessions"]
            assert sessions[0]["kind"] == "passkey" and sessions[0]["current"]
        listed = (await http.get(f"{base}/api/passkeys", headers=amira.headers)).json()
        assert listed["passkeys"][0]["last_used_at"] is not None
        r = await passkey_sign_in(base, http, key)  # the count goes on: 2
        assert r.status_code == 201
        # a default name, a second passkey
        second = SoftAuthenticator(base)
        r = await register(base, http, amira, second, name=None)
        assert (r.status_code, r.json()["name"]) == (201, "Passkey")
        r = await http.delete(f"{base}/api/passkeys/{key.id}", headers=amira.headers)
        assert r.json() == {"removed": True}
        r = await http.delete(f"{base}/api/passkeys/{key.id}", headers=amira.headers)
        assert (r.status_code, code_of(r)) == (404, "passkey/not_found")
        r = await passkey_sign_in(base, http, key)
        assert (r.status_code, code_of(r)) == (401, "passkey/unknown")
        assert (await passkey_sign_in(base, http, second)).status_code == 201

    serve(backend, scenario)


def test_passkey_refusals(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Yusuf")
        r = await http.post(f"{base}/api/passkeys/options", headers=guest.headers)
        assert (r.status_code, code_of(r)) == (403, "account/required")
        r = await http.post(f"{base}/api/passkeys/options")
        assert (r.status_code, code_of(r)) == (401, "auth/required")
        assert (await http.get(f"{base}/api/passkeys", headers=guest.headers)).status_code \
            == 403
        amira = await an_account(base, http, "Amira")
        omar = await an_account(base, http, "Omar")
        key = SoftAuthenticator(base)
        # registering: a wrong origin, an unknown challenge, someone else's challenge
        r = await http.post(f"{base}/api/passkeys/options", headers=amira.headers)
        options = r.json()
        r = await http.post(f"{base}/api/passkeys", headers=amira.headers, json={
            "challenge": options["challenge"],
            "credential": key.create(options["options"], origin="https://evil.example")})
        assert (r.status_code, code_of(r)) == (400, "passkey/failed")
        assert "\n" not in r.json()["error"]["message"]
        r = await http.post(f"{base}/api/passkeys", headers=amira.headers, json={
            "challenge": options["challenge"], "credential": key.create(options["options"])})
        assert (r.status_code, code_of(r)) == (400, "passkey/expired")  # used up above
        r = await http.post(f"{base}/api/passkeys/options", headers=amira.headers)
        options = r.json()
        r = await http.post(f"{base}/api/passkeys", headers=omar.headers, json={
            "challenge": options["challenge"], "credential": key.create(options["options"])})
        assert (r.status_code, code_of(r)) == (400, "passkey/expired")  # not his
        r = await http.post(f"{base}/api/passkeys", headers=amira.headers, json={
            "challenge": "nope", "credential": {}})
        assert (r.status_code, code_of(r)) == (400, "passkey/expired")
        r = await http.post(f"{base}/api/passkeys", headers=amira.headers, json={
            "challenge": "nope"})
        assert (r.status_code, code_of(r)) == (422, "request/invalid")
        assert (await register(base, http, amira, key)).status_code == 201
        handle = key.user_handle
        r = await register(base, http, omar, key)  # the same credential again
        assert (r.status_code, code_of(r)) == (400, "passkey/failed")
        key.user_handle = handle  # the credential still holds Amira's user handle
        # signing in: a replayed answer, an unknown credential, a stale challenge
        r = await http.post(f"{base}/api/passkeys/sign-in/options")
        options = r.json()
        answer = key.get(options["options"])
        body = {"challenge": options["challenge"], "credential": answer}
        assert (await http.post(f"{base}/api/passkeys/sign-in", json=body)).status_code == 201
        r = await http.post(f"{base}/api/passkeys/sign-in", json=body)
        assert (r.status_code, code_of(r)) == (400, "passkey/expired")
        r = await http.post(f"{base}/api/passkeys/sign-in/options")
        replay = {"challenge": r.json()["challenge"], "credential": answer}
        r = await http.post(f"{base}/api/passkeys/sign-in", json=replay)
        assert (r.status_code, code_of(r)) == (400, "passkey/failed")
        stranger = SoftAuthenticator(base)
        r = await passkey_sign_in(base, http, stranger)
        assert (r.status_code, code_of(r)) == (401, "passkey/unknown")
        r = await passkey_sign_in(base, http, key, credential={"id": 5})
        assert (r.status_code, code_of(r)) == (400, "passkey/failed")
        # a deleted account's passkey signs nobody in
        r = await http.request("DELETE", f"{base}/api/account", headers=amira.headers,
                               json={"confirm": "amira"})
        assert r.status_code == 200
        r = await passkey_sign_in(base, http, key)
        assert (r.status_code, code_of(r)) == (401, "passkey/unknown")

    serve(backend, scenario)


def test_passkey_origins_and_rp_id_from_the_settings(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        key = SoftAuthenticator("https://play.example.org")
        r = await register(base, http, amira, key)
        assert r.status_code == 201, r.text
        r = await http.post(f"{base}/api/passkeys/sign-in/options")
        assert r.json()["options"]["rpId"] == "play.example.org"
        assert (await passkey_sign_in(base, http, key)).status_code == 201
        key.origin = base  # the server's own origin is not one of those named
        r = await passkey_sign_in(base, http, key)
        assert (r.status_code, code_of(r)) == (400, "passkey/failed")

    serve(backend, scenario, passkey_rp_id="play.example.org",
          passkey_origins=("https://play.example.org",))


def test_failed_passkey_sign_ins_are_limited_per_address(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        stranger = SoftAuthenticator(base)
        for _ in range(2):
            r = await passkey_sign_in(base, http, stranger)
            assert r.status_code == 401
        r = await passkey_sign_in(base, http, stranger)
        assert (r.status_code, code_of(r)) == (429, "auth/too_many_attempts")
        assert int(r.headers["retry-after"]) >= 1
        # Passkey failures and password failures are counted apart: guesses of one kind
        # from a shared address never hold the other.
        r = await sign_in(base, http, "anyone", "wrong password")
        assert (r.status_code, code_of(r)) == (401, "auth/bad_credentials")
        r = await sign_in(base, http, "anyone", "wrong password")
        assert r.status_code == 401
        r = await sign_in(base, http, "anyone", "wrong password")
        assert (r.status_code, code_of(r)) == (429, "auth/too_many_attempts")
        r = await passkey_sign_in(base, http, stranger)
        assert r.status_code == 429  # still waiting out its own failures

    serve(backend, scenario, limits=limits(sign_ins_per_address=2))


@pytest.mark.parametrize("path", ["/api/passkeys/sign-in/options", "/api/passkeys/options"])
def test_passkey_challenges_are_limited_per_address(backend: Backend, path: str) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        answers = [(await http.post(f"{base}{path}", headers=amira.headers)).status_code
                   for _ in range(4)]
        assert answers == [200, 200, 200, 429]

    serve(backend, scenario, limits=limits(tables_per_minute=1, table_burst=3))


def test_me_answers_json_only_to_its_own(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.get(f"{base}/api/me", headers=bearer("not-a-token"))
        assert (r.status_code, code_of(r)) == (401, "auth/required")
        r = await http.post(f"{base}/api/sessions", json={"username": "amira"})
        assert (r.status_code, code_of(r)) == (422, "request/invalid")
        r = await http.post(f"{base}/api/sessions", content=json.dumps([1, 2]),
                            headers={"Content-Type": "application/json"})
        assert (r.status_code, code_of(r)) == (422, "request/invalid")

    serve(backend, scenario)
