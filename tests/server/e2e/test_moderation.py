"""Fair play end to end against a real server (issue 31, docs/MODERATION.md), on SQLite and
PostgreSQL: a report flows to the moderators' queue, a moderator (made by ``basra admin
grant``) bans the reported player, the log keeps it, and the opponent gets back the rating
points the banned player took, as Glicko-2 computes them by hand; the banned player is
refused at quick match and tournaments. A player who leaves a match is counted and shown.
A forced rename; offensive names refused."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from basra.cli.admin import main as admin
from basra.ratings import Rating, rate_game
from server.e2e.test_rated_play import account, me, quick_pair
from server.e2e.test_watching import said
from server_harness import (
    Backend,
    at_a_bot_table,
    backend_fixture,  # noqa: F401
    join,
    new_guest,
    play_out,
    private_table,
    serve,
)


async def grant(backend: Backend, name: str) -> None:
    """``basra admin grant NAME moderator`` against the server's database (the command's
    own event loop, in a thread of its own)."""
    args = [*backend.serve_args(), "grant", name, "moderator"]
    assert await asyncio.to_thread(admin, args) == 0


async def get(http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> dict[str, Any]:
    r = await http.get(url, headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_report_a_ban_the_log_and_the_refund(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        omar = await account(base, http, "Omar")
        ticket = await quick_pair(base, http, amira, omar)
        for guest in (amira, omar):
            await guest.connect(ticket["table"])
        try:
            final = await play_out(amira, omar)
        finally:
            await amira.close()
            await omar.close()
        result = final["table"]["result"]
        seats = {p["name"]: p["seat"] for p in final["table"]["players"]}
        winner = result["winner"]
        assert winner is not None, "a drawn match: nobody lost points to refund"
        # The winner is reported for cheating and banned; the loser is refunded.
        cheat, victim = (amira, omar) if seats["Amira"] == winner else (omar, amira)
        score = 1.0 if winner == 0 else 0.0
        after = rate_game(Rating(), Rating(), score)[seats[victim.nickname]]
        lost = 1500 - after.rating
        assert lost > 0

        r = await http.post(f"{base}/api/reports", headers=victim.headers, json={
            "username": cheat.nickname, "reason": "cheating",
            "note": "every play was the best one", "table": ticket["table"]})
        assert r.status_code == 201, r.text
        filed = r.json()["report"]
        assert filed["status"] == "open" and filed["player"]["username"] == cheat.nickname
        mine = await get(http, f"{base}/api/reports", victim.headers)
        assert [x["id"] for x in mine["reports"]] == [filed["id"]]
        r = await http.post(f"{base}/api/reports", headers=victim.headers,
                            json={"username": victim.nickname, "reason": "other", "note": "x"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "report/self"

        r = await http.get(f"{base}/api/mod/reports", headers=victim.headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "fairplay/not_moderator"
        mona = await account(base, http, "Mona")
        await grant(backend, "Mona")
        assert (await me(base, http, mona))["standing"]["role"] == "moderator"
        queue = await get(http, f"{base}/api/mod/reports", mona.headers)
        assert queue["open"] == 1
        [row] = queue["reports"]
        assert row["id"] == filed["id"] and row["reporter"]["username"] == victim.nickname
        cheat_id = row["player"]["id"]
        file = await get(http, f"{base}/api/mod/players/{cheat_id}", mona.headers)
        assert [m["table"] for m in file["matches"]] == [ticket["table"]]
        assert file["completion"] == {"finished": 1, "left": 0, "rate": 1.0}

        r = await http.post(f"{base}/api/mod/players/{cheat_id}/actions", headers=mona.headers,
                            json={"action": "ban", "reason": "engine help, replay checked",
                                  "report": filed["id"]})
        assert r.status_code == 200, r.text
        done = r.json()
        [refund] = done["refunds"]
        assert refund["username"] == victim.nickname and refund["variant"] == "egyptian"
        assert refund["points"] == round(lost, 1) and refund["matches"] == 1
        assert refund["rating"] == 1500  # all they lost to the banned player, back
        assert (await me(base, http, victim))["ratings"]["egyptian"]["rating"] == 1500
        assert done["standing"]["rated_ban"] is True

        log = (await get(http, f"{base}/api/mod/log", mona.headers))["log"]
        assert log[0]["action"] == "ban" and log[0]["moderator"]["name"] == "Mona"
        assert log[0]["player"]["name"] == cheat.nickname
        assert log[0]["reason"] == "engine help, replay checked"
        assert log[0]["detail"]["refunds"][0]["points"] == round(lost, 1)
        assert [e["action"] for e in log][-1] == "grant_moderator"  # the operator's, first

        answered = (await get(http, f"{base}/api/reports", victim.headers))["reports"][0]
        assert answered["status"] == "actioned" and answered["outcome"] == "ban"
        told = (await get(http, f"{base}/api/notifications", victim.headers))["notifications"]
        assert {"report_answered", "refund"} <= {n["kind"] for n in told}
        assert (await get(http, f"{base}/api/mod/reports", mona.headers))["open"] == 0

        r = await http.post(f"{base}/api/quick-match", headers=cheat.headers,
                            json={"variant": "egyptian"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "fairplay/banned"
        # Each lost match is refunded once ever: banned again, or unbanned and banned, or
        # two moderators at once, nobody gets the points twice.
        async def act(action: str) -> dict[str, Any]:
            r = await http.post(f"{base}/api/mod/players/{cheat_id}/actions",
                                headers=mona.headers, json={"action": action, "reason": "x"})
            assert r.status_code == 200, r.text
            answer: dict[str, Any] = r.json()
            return answer

        assert (await act("ban"))["refunds"] == []
        assert (await act("unban"))["standing"]["rated_ban"] is False
        again = await asyncio.gather(act("ban"), act("ban"))
        assert [a["refunds"] for a in again] == [[], []]
        assert (await me(base, http, victim))["ratings"]["egyptian"]["rating"] == 1500
        # Odd input is refused in one line, never a fault.
        mona_id = (await me(base, http, mona))["id"]
        r = await http.post(f"{base}/api/mod/players/{mona_id}/actions", headers=mona.headers,
                            json={"action": "dismiss", "reason": "about me"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "report/self"
        for url, body in ((f"{base}/api/mod/log?before=99999999999999999999999", None),
                          (f"{base}/api/reports", {"username": "Omar", "reason": "other",
                                                   "note": "a\u0000b"}),
                          (f"{base}/api/mod/players/a%00b", None)):
            r = await (http.post(url, headers=mona.headers, json=body) if body
                       else http.get(url, headers=mona.headers))
            assert r.status_code == 422 and r.json()["error"]["code"] == "request/invalid", url
        r = await http.post(f"{base}/api/mod/players/{cheat_id}/actions",
                            headers=cheat.headers, json={"action": "unban", "reason": "x"})
        assert r.status_code == 403

    serve(backend, scenario)


def test_a_leaver_is_counted_and_a_forced_rename(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        nour = await account(base, http, "Nour")
        # A game against bots left: nobody's loss, not counted.
        alone = await at_a_bot_table(base, http, "Sami")
        await alone.until(alone.my_turn, 20)
        await alone.close()
        # Two people: Sami closes the page and never comes back; his bot plays his seat
        # after the grace period while Rana plays the match out.
        sami, rana = alone, await new_guest(base, http, "Rana")
        table, code = await private_table(base, http, sami)
        await join(base, http, rana, code)
        for guest in (sami, rana):
            await guest.connect(table)
        await sami.until(lambda s: s["table"]["status"] == "playing")
        await sami.close()
        final = await play_out(rana)
        await rana.close()
        result = final["table"]["result"]
        assert result["left"] == [0], result
        standing = (await http.get(f"{base}/api/me", headers=sami.headers)).json()
        assert standing["leaver"]["left"] == 1  # the bot game is not counted
        assert standing["leaver"]["wait_until"] is None  # and the first leave costs no wait
        assert (await http.get(f"{base}/api/me", headers=rana.headers)).json()[
            "leaver"]["left"] == 0

        # A forced rename: a neutral name at once, then the player chooses one.
        mona = await account(base, http, "Mona")
        await grant(backend, "Mona")
        r = await http.post(f"{base}/api/mod/players/{nour.player_id}/actions",
                            headers=mona.headers,
                            json={"action": "rename", "reason": "an insulting name"})
        assert r.status_code == 200, r.text
        renamed = await me(base, http, nour)
        assert renamed["username"].startswith("renamed-") and renamed["standing"]["rename"]
        r = await http.put(f"{base}/api/me/username", headers=nour.headers,
                           json={"username": "Nour_K"})
        assert r.status_code == 200, r.text
        assert r.json()["username"] == "Nour_K" and not r.json()["standing"]["rename"]
        r = await http.put(f"{base}/api/me/username", headers=nour.headers,
                           json={"username": "Nour_L"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "fairplay/no_rename"

    serve(backend, scenario)


REFUSED = ("N1gg3r_Boss", "شـرمـوطة", "Bou.gnoul", "ПЕДЕРЧИНА", "n i g g a 77")
"""Offensive names in the four languages, disguised: digits for letters, the tatweel,
a separator, Cyrillic for the Latin-listed Serbian word, spaced letters."""


def test_offensive_names_are_refused_and_moderators_add_words(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for name in REFUSED:
            r = await http.post(f"{base}/api/guests", json={"nickname": name})
            assert r.status_code == 422 and r.json()["error"]["code"] == "name/offensive", name
            assert name not in r.text
        guest = await account(base, http, "Lina")
        r = await http.patch(f"{base}/api/me", headers=guest.headers,
                             json={"nickname": "Bou-gnoul"})
        assert r.json()["error"]["code"] == "name/offensive"
        ok = await http.post(f"{base}/api/guests", json={"nickname": "Grumpkin 7"})
        assert ok.status_code == 201
        mona = await account(base, http, "Mona")
        await grant(backend, "Mona")
        r = await http.post(f"{base}/api/mod/words", headers=mona.headers,
                            json={"word": "grumpkin"})
        assert r.status_code == 201 and r.json()["words"] == ["grumpkin"]
        r = await http.post(f"{base}/api/guests", json={"nickname": "GRUMP_KIN 8"})
        assert r.json()["error"]["code"] == "name/offensive"
        log = (await get(http, f"{base}/api/mod/log", mona.headers))["log"]
        assert log[0]["action"] == "add_word" and log[0]["detail"] == {"word": "grumpkin"}

    serve(backend, scenario)


def test_a_muted_players_phrases_are_refused_and_a_warning_rings(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, badr = await account(base, http, "Amira"), await account(base, http, "Badr")
        mona = await account(base, http, "Mona")
        await grant(backend, "Mona")
        for action in ("mute", "warn"):
            r = await http.post(f"{base}/api/mod/players/{amira.player_id}/actions",
                                headers=mona.headers,
                                json={"action": action, "reason": "insults in phrases"})
            assert r.status_code == 200, r.text
        told = (await get(http, f"{base}/api/notifications", amira.headers))["notifications"]
        assert [n["body"]["reason"] for n in told if n["kind"] == "warning"] == [
            "insults in phrases"]
        table, code = await private_table(base, http, amira)
        await join(base, http, badr, code)
        for guest in (amira, badr):
            await guest.connect(table)
        try:
            for guest in (amira, badr):
                await guest.until(lambda s: s["table"]["status"] == "playing")
            await asyncio.sleep(0.3)  # the table has read Amira's standing
            await amira.send({"type": "say", "phrase": "good_luck"})
            while not amira.errors:
                await amira.receive(10)
            assert amira.errors[0]["code"] == "say/muted"
            await badr.send({"type": "say", "phrase": "hello"})  # Badr is not muted
            assert (await said(badr))["phrase"] == "hello"
        finally:
            for guest in (amira, badr):
                await guest.close()
        me_now = await me(base, http, amira)
        assert me_now["standing"]["muted"] and me_now["standing"]["warnings"] == 1

    serve(backend, scenario)
