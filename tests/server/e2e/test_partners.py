"""Partners against a real ``basra serve`` (issue 28): a partner invite accepted by its
link puts both in the team pool as one side; two pairs meet; a pair meets two players who
came alone; the bot offer seats the pair with bots against them; declined, cancelled,
one's own and unknown invites are refused with their codes; a partner who stops waiting
takes the other out of the pool, and the other is told."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from server.e2e.test_quick_seatings import quick_table
from server.e2e.test_rated_play import account
from server.social_kit import Page
from server_harness import Guest, new_guest, serve


async def partners(base: str, http: httpx.AsyncClient, host: Guest, partner: Guest,
                   variant: str = "lebanese") -> tuple[str, str]:
    """``host`` invites, ``partner`` accepts by the code, the host's wait hands them their
    ticket: both tickets."""
    r = await http.post(f"{base}/api/partners", headers=host.headers,
                        json={"variant": variant, "players": 4, "teams": True})
    assert r.status_code == 201, r.text
    invite = r.json()
    assert invite["status"] == "waiting" and invite["link"] == f"/partner/{invite['invite']}"
    assert invite["yours"] is True and invite["host"]["name"] == host.nickname
    code = invite["invite"]
    waiting = asyncio.create_task(http.get(f"{base}/api/partners/{code}?wait=10",
                                           headers=host.headers))
    await asyncio.sleep(0.2)
    seen = (await http.get(f"{base}/api/partners/{code}", headers=partner.headers)).json()
    assert seen["yours"] is False and seen["ticket"] is None and seen["status"] == "waiting"
    r = await http.post(f"{base}/api/partners/{code}/accept", headers=partner.headers)
    assert r.status_code == 200, r.text
    mine = r.json()
    assert mine["status"] == "waiting" and mine["partner"] == code
    answered = (await waiting).json()
    assert answered["status"] == "accepted" and answered["ticket"]
    assert answered["partner"]["name"] == partner.nickname
    return answered["ticket"], mine["ticket"]


async def wait_all(base: str, http: httpx.AsyncClient,
                   waits: list[tuple[Guest, str]]) -> list[dict[str, Any]]:
    answers = await asyncio.gather(*(
        http.get(f"{base}/api/quick-match/{ticket}?wait=10", headers=guest.headers)
        for guest, ticket in waits))
    return [a.json() for a in answers]


async def seats_of(base: str, http: httpx.AsyncClient, table: str) -> list[str]:
    info = (await http.get(f"{base}/api/tables/{table}")).json()["table"]
    assert info["seats"] == 4 and info["teams"] is True
    return [p["name"] for p in info["players"]]


def test_two_pairs_of_partners_meet(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        a, b, c, d = [await new_guest(base, http, n) for n in ("Amira", "Badr", "Camil", "Dana")]
        first = await partners(base, http, a, b)
        second = await partners(base, http, c, d)
        got = await wait_all(base, http, [(a, first[0]), (b, first[1]), (c, second[0]),
                                          (d, second[1])])
        assert {g["status"] for g in got} == {"matched"} and len({g["table"] for g in got}) == 1
        names = await seats_of(base, http, got[0]["table"])
        sides = {frozenset((names[0], names[2])), frozenset((names[1], names[3]))}
        assert sides == {frozenset(("Amira", "Badr")), frozenset(("Camil", "Dana"))}

    serve(tmp_path, scenario)


def test_a_pair_meets_two_who_came_alone(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        a, b, c, d = [await new_guest(base, http, n) for n in ("Amira", "Badr", "Camil", "Dana")]
        pair = await partners(base, http, a, b, "serbian")
        solos = asyncio.create_task(quick_table(base, http, [c, d], variant="serbian",
                                                players=4, teams=True))
        got = await wait_all(base, http, [(a, pair[0]), (b, pair[1])])
        alone = await solos
        assert got[0]["table"] == got[1]["table"] == alone["table"]
        names = await seats_of(base, http, alone["table"])
        sides = {frozenset((names[0], names[2])), frozenset((names[1], names[3]))}
        assert sides == {frozenset(("Amira", "Badr")), frozenset(("Camil", "Dana"))}

    serve(tmp_path, scenario)


def test_the_bot_offer_seats_the_pair_against_bots(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        a, b = [await new_guest(base, http, n) for n in ("Amira", "Badr")]
        pair = await partners(base, http, a, b)
        got = await wait_all(base, http, [(a, pair[0]), (b, pair[1])])  # the offer comes
        assert all(g["status"] == "waiting" and g["bot_offer"] for g in got), got
        r = await http.post(f"{base}/api/quick-match/{pair[0]}/bot", headers=a.headers,
                            json={"level": "easy"})
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        theirs = (await http.get(f"{base}/api/quick-match/{pair[1]}",
                                 headers=b.headers)).json()
        assert theirs["status"] == "matched" and theirs["table"] == table
        info = (await http.get(f"{base}/api/tables/{table}")).json()["table"]
        names = [p["name"] for p in info["players"]]
        assert (names[0], names[2]) == ("Amira", "Badr")
        assert [p["kind"] for p in info["players"]] == ["human", "bot", "human", "bot"]

    serve(tmp_path, scenario)


def test_refusals_and_a_partner_who_leaves(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        a, b, c = [await new_guest(base, http, n) for n in ("Amira", "Badr", "Camil")]

        async def code(variant: str = "lebanese", **seating: Any) -> httpx.Response:
            return await http.post(f"{base}/api/partners", headers=a.headers,
                                   json={"variant": variant, **seating})

        r = await code("egyptian", players=2, teams=False)
        assert r.status_code == 400 and r.json()["error"]["code"] == "partner/not_teams"
        invite = (await code()).json()["invite"]
        r = await http.post(f"{base}/api/partners/{invite}/accept", headers=a.headers)
        assert r.status_code == 409 and r.json()["error"]["code"] == "partner/self"
        r = await http.post(f"{base}/api/partners/{invite}/decline", headers=b.headers)
        assert r.status_code == 200 and r.json()["status"] == "declined"
        r = await http.post(f"{base}/api/partners/{invite}/accept", headers=c.headers)
        assert r.status_code == 410 and r.json()["error"]["code"] == "partner/closed"
        told = (await http.get(f"{base}/api/partners/{invite}?wait=5",
                               headers=a.headers)).json()
        assert told["status"] == "declined" and told["partner"]["name"] == "Badr"
        cancelled = (await code()).json()["invite"]
        r = await http.delete(f"{base}/api/partners/{cancelled}", headers=a.headers)
        assert r.json()["status"] == "cancelled"
        r = await http.get(f"{base}/api/partners/NOSUCH", headers=b.headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "partner/not_found"
        # a host who stops waiting: the invite cannot be accepted any more
        stale = (await code()).json()["invite"]
        await asyncio.sleep(1.2)  # the test server's ticket lapse
        r = await http.post(f"{base}/api/partners/{stale}/accept", headers=b.headers)
        assert r.status_code == 410
        seen = (await http.get(f"{base}/api/partners/{stale}", headers=b.headers)).json()
        assert seen["status"] == "expired"
        # a partner who stops waiting: the other leaves the pool and is told
        pair = await partners(base, http, a, b)
        r = await http.delete(f"{base}/api/quick-match/{pair[1]}", headers=b.headers)
        assert r.status_code == 200
        left = (await http.get(f"{base}/api/quick-match/{pair[0]}?wait=5",
                               headers=a.headers)).json()
        assert left["status"] == "partner_left" and left["bot_offer"] is False

    serve(tmp_path, scenario, ticket_lapse_seconds=1.0)


def test_a_partner_invite_sent_to_a_friend_rings_their_bell(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        guest = await new_guest(base, http, "Gaston")
        r = await http.post(f"{base}/api/partners", headers=amira.headers,
                            json={"variant": "serbian", "players": 4, "teams": True})
        code = r.json()["invite"]
        his = await Page.open(badr)
        r = await http.post(f"{base}/api/partners/{code}/send", headers=amira.headers,
                            json={"to": "badr"})
        assert r.status_code == 200 and r.json()["sent"]["username"] == "Badr", r.text
        heard = await his.next("notification", notification__kind="partner")
        body = heard["notification"]["body"]
        assert body["invite"] == code and body["from"]["username"] == "Amira"
        r = await http.post(f"{base}/api/partners/{code}/send", headers=guest.headers,
                            json={"to": "Badr"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "partner/not_yours"
        await his.close()

    serve(tmp_path, scenario, presence_grace_seconds=0.2)
