"""Friends, presence, blocks, challenges and notifications against a real ``basra serve``
(issue 28): follow and presence told to a follower's open page; a block (no follow, no
challenge, the follow gone); a challenge accepted (a table of the two), declined, expired,
refused by the "friends only" setting and by the limit of one open challenge; the bell;
a closed page's player pushed through a local Web Push endpoint, decrypted."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from server.e2e.test_rated_play import account
from server.e2e.test_watching import said
from server.e2e.tournament_kit import an_event
from server.social_kit import Page, push_endpoint
from server_harness import join, new_guest, private_table, serve

QUICK = {"presence_grace_seconds": 0.2}


async def code_of(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


def test_follow_presence_and_block(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        guest = await new_guest(base, http, "Gaston")
        r = await http.post(f"{base}/api/follows/Badr", headers=guest.headers)
        assert r.status_code == 403 and await code_of(r) == "social/account_needed"
        r = await http.post(f"{base}/api/follows/Amira", headers=amira.headers)
        assert r.status_code == 409 and await code_of(r) == "social/self"
        r = await http.post(f"{base}/api/follows/nobody_here", headers=amira.headers)
        assert r.status_code == 404 and await code_of(r) == "social/not_found"
        r = await http.post(f"{base}/api/follows/badr", headers=amira.headers)  # any case
        assert r.status_code == 200 and r.json()["following"]["username"] == "Badr"
        page = (await http.get(f"{base}/api/friends", headers=amira.headers)).json()
        assert [(f["username"], f["status"]) for f in page["friends"]] == [("Badr", "offline")]
        mine = await Page.open(amira)
        theirs = await Page.open(badr)
        told = await mine.next("presence", player__username="Badr")
        assert told["online"] is True
        page = (await http.get(f"{base}/api/friends", headers=amira.headers)).json()
        assert page["friends"][0]["status"] == "online"
        profile = (await http.get(f"{base}/api/players/Badr", headers=amira.headers)).json()
        assert profile["social"]["followers"] == 1 and profile["social"]["you_follow"] is True
        await theirs.close()
        told = await mine.next("presence", player__username="Badr")
        assert told["online"] is False
        # Badr blocks Amira: her follow is gone, and she can neither follow nor challenge
        r = await http.post(f"{base}/api/blocks/Amira", headers=badr.headers)
        assert r.status_code == 200
        page = (await http.get(f"{base}/api/friends", headers=amira.headers)).json()
        assert page["friends"] == []
        r = await http.post(f"{base}/api/follows/Badr", headers=amira.headers)
        assert r.status_code == 403 and await code_of(r) == "social/blocked"
        r = await http.post(f"{base}/api/challenges", headers=amira.headers, json={"to": "Badr"})
        assert r.status_code == 403 and await code_of(r) == "social/blocked"
        blocked = (await http.get(f"{base}/api/friends", headers=badr.headers)).json()
        assert [p["username"] for p in blocked["blocked"]] == ["Amira"]
        assert (await http.delete(f"{base}/api/blocks/Amira", headers=badr.headers)
                ).status_code == 200
        assert (await http.post(f"{base}/api/follows/Badr", headers=amira.headers)
                ).status_code == 200
        found = (await http.get(f"{base}/api/players?search=am")).json()["players"]
        assert [p["username"] for p in found] == ["Amira"]
        await mine.close()

    serve(tmp_path, scenario, **QUICK)


def test_challenges_accepted_declined_and_refused(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr, camil = [await account(base, http, n) for n in ("Amira", "Badr", "Camil")]
        hers, his = await Page.open(amira), await Page.open(badr)
        r = await http.post(f"{base}/api/challenges", headers=amira.headers,
                            json={"to": "Badr", "variant": "lebanese", "players": 4,
                                  "teams": True, "rated": False})
        assert r.status_code == 201, r.text
        made = r.json()["challenge"]
        assert made["from"]["username"] == "Amira" and made["status"] == "open"
        heard = await his.next("notification", notification__kind="challenge")
        assert heard["notification"]["body"]["challenge"]["id"] == made["id"]
        r = await http.post(f"{base}/api/challenges", headers=amira.headers, json={"to": "Badr"})
        assert r.status_code == 409 and await code_of(r) == "challenge/already"
        listed = (await http.get(f"{base}/api/challenges", headers=badr.headers)).json()
        assert [c["id"] for c in listed["received"]] == [made["id"]]
        r = await http.post(f"{base}/api/challenges/{made['id']}/accept", headers=amira.headers)
        assert r.status_code == 403 and await code_of(r) == "challenge/not_yours"
        r = await http.post(f"{base}/api/challenges/{made['id']}/accept", headers=badr.headers)
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        answered = await hers.next("notification", notification__kind="challenge_answered")
        assert answered["notification"]["body"]["challenge"]["table"] == table
        info = (await http.get(f"{base}/api/tables/{table}")).json()["table"]
        assert (info["seats"], info["teams"], info["kind"]) == (4, True, "private")
        assert [p["name"] for p in info["players"][:2]] == ["Amira", "Badr"]
        r = await http.post(f"{base}/api/challenges/{made['id']}/accept", headers=badr.headers)
        assert r.status_code == 410 and await code_of(r) == "challenge/closed"
        # declined: the challenger hears it
        r = await http.post(f"{base}/api/challenges", headers=camil.headers, json={"to": "Badr"})
        second = r.json()["challenge"]["id"]
        r = await http.post(f"{base}/api/challenges/{second}/decline", headers=badr.headers)
        assert r.json()["challenge"]["status"] == "declined"
        # friends only: Camil, whom Badr does not follow, is refused; once followed, taken
        r = await http.put(f"{base}/api/me/social", headers=badr.headers,
                           json={"challenges": "friends"})
        assert r.json()["challenges"] == "friends"
        r = await http.post(f"{base}/api/challenges", headers=camil.headers, json={"to": "Badr"})
        assert r.status_code == 403 and await code_of(r) == "social/not_taken"
        await http.post(f"{base}/api/follows/Camil", headers=badr.headers)
        r = await http.post(f"{base}/api/challenges", headers=camil.headers, json={"to": "Badr"})
        assert r.status_code == 201
        third = r.json()["challenge"]["id"]
        r = await http.delete(f"{base}/api/challenges/{third}", headers=camil.headers)
        assert r.json()["challenge"]["status"] == "cancelled"
        dropped = await his.next("challenge", challenge__id=third)
        assert dropped["challenge"]["status"] == "cancelled"
        r = await http.post(f"{base}/api/challenges", headers=camil.headers,
                            json={"to": "Badr", "variant": "arabic101", "players": 4})
        assert r.status_code == 400 and await code_of(r) == "table/bad_options"
        bell = (await http.get(f"{base}/api/notifications", headers=badr.headers)).json()
        assert bell["unread"] >= 2
        assert {n["kind"] for n in bell["notifications"]} >= {"challenge"}
        r = await http.post(f"{base}/api/notifications/read", headers=badr.headers, json={})
        assert r.json()["read"] == bell["unread"]
        for page in (hers, his):
            await page.close()

    serve(tmp_path, scenario, **QUICK)


def test_a_challenge_expires(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        r = await http.post(f"{base}/api/challenges", headers=amira.headers, json={"to": "Badr"})
        made = r.json()["challenge"]["id"]
        await asyncio.sleep(1.2)
        listed = (await http.get(f"{base}/api/challenges", headers=badr.headers)).json()
        assert listed["received"] == []
        r = await http.post(f"{base}/api/challenges/{made}/accept", headers=badr.headers)
        assert r.status_code == 410 and await code_of(r) == "challenge/closed"

    serve(tmp_path, scenario, challenge_seconds=1.0, **QUICK)


def test_a_closed_page_is_pushed_to(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        key = (await http.get(f"{base}/api/push/key")).json()["key"]
        assert isinstance(key, str) and len(key) > 60
        with push_endpoint() as endpoint:
            r = await http.post(f"{base}/api/push", headers=badr.headers,
                                json=endpoint.subscription())
            assert r.status_code == 201
            page = await Page.open(badr)  # open: told on the page, not pushed
            r = await http.post(f"{base}/api/challenges", headers=amira.headers,
                                json={"to": "Badr"})
            await page.next("notification")
            await asyncio.sleep(0.3)
            assert endpoint.received == []
            await http.post(f"{base}/api/challenges/{r.json()['challenge']['id']}/decline",
                            headers=badr.headers)
            await page.close()
            await asyncio.sleep(0.5)  # past the grace: offline
            r = await http.post(f"{base}/api/challenges", headers=amira.headers,
                                json={"to": "Badr", "variant": "serbian"})
            assert r.status_code == 201, r.text
            for _ in range(50):
                if endpoint.received:
                    break
                await asyncio.sleep(0.1)
            assert endpoint.received, "no push came"
            pushed = endpoint.received[0]
            assert pushed["title"] == "Amira challenges you" and pushed["url"] == "/friends"
            assert endpoint.headers[0].get("authorization", "").startswith("vapid t=")
            # a subscription the push service says is gone is forgotten
            endpoint.status = 410
            await http.delete(f"{base}/api/challenges/{r.json()['challenge']['id']}",
                              headers=amira.headers)
            r = await http.post(f"{base}/api/challenges", headers=amira.headers,
                                json={"to": "Badr", "variant": "lebanese"})
            assert r.status_code == 201, r.text
            await asyncio.sleep(1.0)
            r = await http.post(f"{base}/api/push/remove", headers=badr.headers,
                                json={"endpoint": endpoint.subscription()["endpoint"]})
            assert r.json()["removed"] is False

    serve(tmp_path, scenario, **QUICK)


def test_a_blocked_players_phrases_never_reach_the_blocker(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        watcher = await new_guest(base, http, "Watcher")
        table, code = await private_table(base, http, amira)
        await join(base, http, badr, code)
        assert (await http.post(f"{base}/api/blocks/Amira", headers=badr.headers)
                ).status_code == 200
        for guest in (amira, badr, watcher):
            await guest.connect(table)
        try:
            for guest in (amira, badr):
                await guest.until(lambda s: s["table"]["status"] == "playing")
            await asyncio.sleep(0.3)  # the table has read Badr's blocks
            await amira.send({"type": "say", "phrase": "good_luck"})
            assert (await said(watcher))["phrase"] == "good_luck"
            assert (await said(amira))["seat"] == 0
            await badr.send({"type": "say", "phrase": "hello"})
            # the next phrase Badr hears is his own: Amira's never came
            assert (await said(badr))["phrase"] == "hello"
        finally:
            for guest in (amira, badr, watcher):
                await guest.close()

    serve(tmp_path, scenario, **QUICK)


def test_a_tournament_starting_rings_its_players_bells(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        # Badr's page is open before the event is made (on a loaded machine, a page opened
        # after the start would only count the news as unread).
        page = await Page.open(badr)
        try:
            event = await an_event(base, http, amira, starts_in=2.0, format="arena",
                                   minutes=5)
            for guest in (amira, badr):
                r = await http.post(f"{base}/api/tournaments/{event['id']}/join",
                                    headers=guest.headers, json={})
                assert r.status_code == 200, r.text
            heard = await page.next("notification", 15, notification__kind="tournament")
            assert heard["notification"]["body"] == {"tournament": event["id"],
                                                     "name": "Test Cup"}
        finally:
            await page.close()

    serve(tmp_path, scenario, tournament_tick_seconds=0.2, **QUICK)
