"""A stolen token is not the account (issue 25): adding a passkey or a password, removing a
passkey, exporting and deleting need a proof of who holds the session (the password or one
of the account's own passkeys) from the last few minutes; a sign-in is one. An account
with nothing to prove with is not asked. Passkeys name the session and browser they were
added from, so that "sign out everywhere" can offer to remove the ones others added. On
both stores, against a real server, with the window shortened to one second."""

from __future__ import annotations

import asyncio

import httpx

from server.e2e.test_accounts import (
    PASSWORD,
    an_account,
    bearer,
    code_of,
    limits,
    prove_by_passkey,
    register,
    sign_in,
    signed_in,
)
from server.identity.test_accounts import SoftAuthenticator
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    serve,
)

WINDOW = 2.5
"""The proof's window in these tests (``fresh_proof_seconds``; 300 by default): long enough
for a sign-up and four guarded requests on a loaded machine (at 1 s the last two once
found the proof already old)."""


async def lapse() -> None:
    """Let the proof of the window age out."""
    await asyncio.sleep(WINDOW + 0.3)


async def prove(base: str, http: httpx.AsyncClient, who: Guest,
                password: str = PASSWORD) -> httpx.Response:
    """A proof with the password; ``who`` keeps the new token it answers with."""
    r = await http.post(f"{base}/api/sessions/current/proof", headers=who.headers,
                        json={"password": password})
    if r.status_code == 200:
        who.token = r.json()["token"]
    return r


async def guarded(base: str, http: httpx.AsyncClient, who: Guest,
                  username: str) -> dict[str, int]:
    """The status of each guarded request, made with ``who``'s token alone (deleting
    with the wrong confirmation, so that a success does not end the test's account)."""
    answers = {
        "passkey": await http.post(f"{base}/api/passkeys/options", headers=who.headers),
        "export": await http.get(f"{base}/api/account/export", headers=who.headers),
        "remove": await http.delete(f"{base}/api/passkeys/nosuchkey", headers=who.headers),
        "delete": await http.request("DELETE", f"{base}/api/account", headers=who.headers,
                                     json={"confirm": username + "x"}),
    }
    for answer in answers.values():
        if answer.status_code == 403:
            assert code_of(answer) == "auth/proof_needed"
            assert "\n" not in answer.json()["error"]["message"]
    return {what: answer.status_code for what, answer in answers.items()}


def test_a_token_alone_cannot_add_a_passkey_export_remove_or_delete(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")  # the password chosen: a proof
        assert (await guarded(base, http, amira, "amira")) == {
            "passkey": 200, "export": 200, "remove": 404, "delete": 422}
        await lapse()
        assert (await guarded(base, http, amira, "amira")) == {
            "passkey": 403, "export": 403, "remove": 403, "delete": 403}
        sessions = (await http.get(f"{base}/api/sessions", headers=amira.headers)).json()
        assert sessions["proved"] is False
        r = await prove(base, http, amira, "not her password")
        assert (r.status_code, code_of(r)) == (401, "auth/bad_credentials")
        assert (await guarded(base, http, amira, "amira"))["export"] == 403
        stolen = amira.token  # a copy of the token, as a thief would hold it
        r = await prove(base, http, amira)
        assert r.status_code == 200
        assert r.json() == {"proved": True, "seconds": WINDOW, "token": amira.token}
        assert amira.token != stolen
        # the owner's proof is not the thief's: the copy names nobody any more
        r = await http.get(f"{base}/api/me", headers=bearer(stolen))
        assert r.status_code == 401
        r = await http.post(f"{base}/api/passkeys/options", headers=bearer(stolen))
        assert (r.status_code, code_of(r)) == (401, "auth/required")
        assert (await http.get(f"{base}/api/sessions", headers=amira.headers)).json()[
            "proved"] is True
        assert (await guarded(base, http, amira, "amira")) == {
            "passkey": 200, "export": 200, "remove": 404, "delete": 422}
        await lapse()  # and a proof does not last
        assert (await guarded(base, http, amira, "amira"))["passkey"] == 403
        # deleting for real, once proved again
        assert (await prove(base, http, amira)).status_code == 200
        r = await http.request("DELETE", f"{base}/api/account", headers=amira.headers,
                               json={"confirm": "Amira"})
        assert r.json() == {"deleted": True}

    serve(backend, scenario, fresh_proof_seconds=WINDOW)


def test_a_sign_in_is_a_proof_and_a_guest_session_is_not(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        await an_account(base, http, "Amira")
        await lapse()
        token = await signed_in(base, http, "amira")
        elsewhere = Guest(base, "elsewhere", token)
        assert (await guarded(base, http, elsewhere, "amira"))["export"] == 200
        sessions = (await http.get(f"{base}/api/sessions", headers=bearer(token))).json()
        assert sessions["proved"] is True
        # a guest has nothing to prove with: its export is never held back
        guest = await new_guest(base, http, "Yusuf")
        await lapse()
        r = await http.get(f"{base}/api/account/export", headers=guest.headers)
        assert r.status_code == 200
        r = await prove(base, http, guest)
        assert (r.status_code, code_of(r)) == (403, "account/required")

    serve(backend, scenario, fresh_proof_seconds=WINDOW)


def test_with_no_password_a_passkey_proves(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira", password=None)
        await lapse()
        # nothing to prove with: the first passkey, an export, a password need no proof
        assert (await guarded(base, http, amira, "amira"))["export"] == 200
        key = SoftAuthenticator(base)
        assert (await register(base, http, amira, key)).status_code == 201
        r = await http.post(f"{base}/api/sessions/current/proof", headers=amira.headers,
                            json={"password": PASSWORD})
        assert (r.status_code, code_of(r)) == (401, "auth/bad_credentials")
        # now a passkey to prove with: asked for
        assert (await guarded(base, http, amira, "amira")) == {
            "passkey": 403, "export": 403, "remove": 403, "delete": 403}
        r = await http.put(f"{base}/api/account/password", headers=amira.headers,
                           json={"password": PASSWORD})
        assert (r.status_code, code_of(r)) == (403, "auth/proof_needed")
        # someone else's passkey does not prove Amira
        omar = await an_account(base, http, "Omar", password=None)
        his = SoftAuthenticator(base)
        assert (await register(base, http, omar, his)).status_code == 201
        r = await prove_by_passkey(base, http, amira, his)
        assert (r.status_code, code_of(r)) == (401, "passkey/unknown")
        # nor a challenge handed to Omar
        r = await http.post(f"{base}/api/sessions/current/proof/options",
                            headers=omar.headers)
        options = r.json()
        assert [c["id"] for c in options["options"]["allowCredentials"]] == [his.id]
        r = await http.post(f"{base}/api/sessions/current/proof", headers=amira.headers,
                            json={"challenge": options["challenge"],
                                  "credential": key.get(options["options"])})
        assert (r.status_code, code_of(r)) == (400, "passkey/expired")
        # her own passkey does
        r = await prove_by_passkey(base, http, amira, key)
        assert r.status_code == 200, r.text
        r = await http.put(f"{base}/api/account/password", headers=amira.headers,
                           json={"password": PASSWORD})
        assert r.json() == {"changed": True}
        assert (await guarded(base, http, amira, "amira"))["export"] == 200

    serve(backend, scenario, fresh_proof_seconds=WINDOW)


def test_wrong_proofs_count_as_failed_sign_ins(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        for _ in range(3):
            r = await prove(base, http, amira, "wrong password")
            assert code_of(r) == "auth/bad_credentials"
        r = await prove(base, http, amira)  # the right one is held back too
        assert (r.status_code, code_of(r)) == (429, "auth/too_many_attempts")
        # the session is held, not the account: guesses through a stolen token cannot
        # lock the owner out of signing in
        r = await sign_in(base, http, "amira", address="198.51.100.7")
        assert r.status_code == 201

    serve(backend, scenario, fresh_proof_seconds=WINDOW,
          limits=limits(sign_ins_per_account=3))


def test_passkeys_name_the_session_they_were_added_from(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        await an_account(base, http, "Amira")
        phone = Guest(base, "phone", await signed_in(base, http, "amira", agent="Phone browser"))
        laptop = Guest(base, "laptop",
                       await signed_in(base, http, "amira", agent="Laptop browser"))
        key = SoftAuthenticator(base)
        assert (await register(base, http, phone, key)).status_code == 201
        seen = {}
        for name, who in (("phone", phone), ("laptop", laptop)):
            listed = (await http.get(f"{base}/api/passkeys", headers=who.headers)).json()
            [seen[name]] = listed["passkeys"]
        assert seen["phone"]["added_here"] and not seen["laptop"]["added_here"]
        assert seen["phone"]["added_from"] == seen["laptop"]["added_from"] == "Phone browser"
        # the laptop removes it (its sign-in is its proof) and signs out everywhere
        r = await http.delete(f"{base}/api/passkeys/{key.id}", headers=laptop.headers)
        assert r.json() == {"removed": True}
        r = await http.delete(f"{base}/api/sessions", headers=laptop.headers)
        assert r.status_code == 200
        assert (await http.get(f"{base}/api/me", headers=phone.headers)).status_code == 401

    serve(backend, scenario, fresh_proof_seconds=WINDOW)



def test_a_strangers_failed_sign_ins_do_not_keep_the_owner_from_proving(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        for _ in range(4):  # someone who knows the public username guesses
            await sign_in(base, http, "amira", "a wrong guess!", address="203.0.113.9")
        r = await sign_in(base, http, "amira", "a wrong guess!", address="203.0.113.9")
        assert (r.status_code, code_of(r)) == (429, "auth/too_many_attempts")
        await lapse()
        assert (await prove(base, http, amira)).status_code == 200
        assert (await guarded(base, http, amira, "amira"))["export"] == 200

    serve(backend, scenario, fresh_proof_seconds=WINDOW,
          limits=limits(sign_ins_per_account=3))


def test_the_last_way_to_sign_in_is_never_removed(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira", password=None)
        first, second = SoftAuthenticator(base), SoftAuthenticator(base)
        assert (await register(base, http, amira, first)).status_code == 201
        assert (await prove_by_passkey(base, http, amira, first)).status_code == 200
        r = await http.delete(f"{base}/api/passkeys/{first.id}", headers=amira.headers)
        assert (r.status_code, code_of(r)) == (409, "passkey/last")
        assert (await register(base, http, amira, second)).status_code == 201
        r = await http.delete(f"{base}/api/passkeys/{first.id}", headers=amira.headers)
        assert r.json() == {"removed": True}
        r = await http.delete(f"{base}/api/passkeys/{second.id}", headers=amira.headers)
        assert (r.status_code, code_of(r)) == (409, "passkey/last")

    serve(backend, scenario, fresh_proof_seconds=30)


def test_a_passkey_is_added_only_while_the_proof_holds(backend: Backend) -> None:
    """The challenge is handed out to a proved session; finishing needs the proof to hold
    still (a challenge kept for later, or passed to an unproved session, is no use)."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await an_account(base, http, "Amira")
        key = SoftAuthenticator(base)
        r = await http.post(f"{base}/api/passkeys/options", headers=amira.headers)
        options = r.json()
        await lapse()
        r = await http.post(f"{base}/api/passkeys", headers=amira.headers, json={
            "challenge": options["challenge"], "credential": key.create(options["options"])})
        assert (r.status_code, code_of(r)) == (403, "auth/proof_needed")

    serve(backend, scenario, fresh_proof_seconds=WINDOW)
