"""End to end: a real server, real websocket clients, whole matches. Every scenario runs on
both stores (the ``backend`` fixture of server_harness: SQLite in the test's directory and
PostgreSQL in a fresh schema; the PostgreSQL runs fail, never skip, when it is down)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from basra.match.records import parse_record
from basra.match.replay import replay, verify
from server_harness import (
    Backend,
    at_a_bot_table,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    over,
    play_out,
    serve,
    two_at_a_private_table,
)


def test_a_guest_plays_a_bot_to_the_end(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                            json={"variant": "egyptian", "bot_level": "random"})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        await amira.connect(table_id)
        final = await play_out(amira)
        await amira.close()
        view = final["view"]
        assert view["winner"] in (0, 1)
        assert max(view["results"][-1]["totals"]) >= 121
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        result = replay(parse_record(json.dumps(record)))
        assert result.winner == view["winner"]
        assert verify(parse_record(record)).ok
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        assert [m["table"] for m in history["matches"]] == [table_id]
        assert history["matches"][0]["players"] == ["Amira", "bot:random"]

    serve(backend, scenario)


def test_two_guests_play_a_whole_match_through_an_invite(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        r = await http.post(f"{base}/api/tables/private", headers=amira.headers,
                            json={"variant": "lebanese"})
        created = r.json()
        code = created["table"]["invite_code"]
        assert created["invite_link"] == f"/join/{code}"
        r = await http.post(f"{base}/api/tables/join", headers=omar.headers,
                            json={"invite_code": code.lower()})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == 1
        table_id = created["table"]["id"]
        await amira.connect(table_id)
        await omar.connect(table_id)
        final = await play_out(amira, omar)
        await amira.close()
        await omar.close()
        assert final["view"]["winner"] in (0, 1)
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert record["players"] == ["Amira", "Omar"]
        assert verify(parse_record(record)).ok

    serve(backend, scenario)


def test_the_clock_runs_out_and_the_bot_plays(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http, clock_seconds=5)
        state = await amira.until(amira.my_turn)
        clock = state["table"]["clock"]
        assert clock["seat"] == state["you"] and 0 < clock["remaining_ms"] <= 5000
        played = len(state["view"]["plays"])
        # Amira does nothing: after 5 s her seat's bot plays for her.
        later = await amira.until(
            lambda s: any(p["seat"] == s["you"] for p in s["view"]["plays"][played:]),
            timeout=15)
        assert not later["table"]["players"][0]["bot_playing"]
        await amira.close()

    serve(backend, scenario)


def test_a_dropped_player_is_played_by_a_bot_and_comes_back(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        table_id, amira, omar = await two_at_a_private_table(base, http)
        await omar.until(lambda s: s["view"]["turn"] is not None)
        await omar.close()  # Omar drops
        seen = await amira.until(lambda s: s["table"]["players"][1]["bot_playing"], 10)
        assert seen["table"]["players"][1]["connected"] is False
        # Amira plays on; the bot answers for Omar.
        for _ in range(3):
            state = await amira.until(amira.my_turn)
            version = state["version"]
            await amira.play_first_legal()
            await amira.until(lambda s, v=version: s["version"] > v + 1 or over(s))
        plays_before = len(amira.state["view"]["plays"])
        assert plays_before >= 6
        await omar.connect(table_id)  # Omar returns: a full snapshot, his seat back
        back = await omar.until(lambda s: True)
        assert back["you"] == 1
        assert len(back["view"]["hand"]) == back["view"]["hand_counts"][1]
        assert not back["table"]["players"][1]["bot_playing"]
        assert len(back["view"]["plays"]) >= plays_before
        await amira.until(lambda s: not s["table"]["players"][1]["bot_playing"])
        final = await play_out(amira, omar)
        assert final["view"]["winner"] in (0, 1)
        await amira.close()
        await omar.close()

    serve(backend, scenario)


def test_bad_messages_get_coded_errors_and_change_nothing(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http, clock_seconds=60)
        state = await amira.until(amira.my_turn)
        version = state["version"]
        hand = state["view"]["hand"]
        not_mine = next(c for c in ("AC", "2D", "3H", "4S", "5C") if c not in hand)
        cases = [
            ("not json", "protocol/bad_json"),
            ("[1, 2]", "protocol/bad_json"),
            ('{"type": "dance"}', "protocol/unknown_type"),
            ('{"type": "play", "version": "x", "card": "5H", "take": []}',
             "protocol/bad_message"),
            (json.dumps({"type": "play", "version": version, "card": "ZZ", "take": []}),
             "protocol/bad_card"),
            (json.dumps({"type": "play", "version": version - 1,
                         "card": hand[0], "take": []}), "play/stale"),
            (json.dumps({"type": "play", "version": version, "card": not_mine,
                         "take": []}), "play/not_in_hand"),
            ("x" * 5000, "protocol/too_large"),
        ]
        for raw, code in cases:
            assert amira.socket is not None
            await amira.socket.send(raw)
            reply = await amira.receive()
            assert reply["type"] == "error" and reply["code"] == code, (raw[:40], reply)
        assert amira.state["version"] == version
        await amira.play_first_legal()
        await amira.until(lambda s: s["version"] > version)
        await amira.close()

    serve(backend, scenario)


def test_quick_match_pairs_two_and_offers_a_bot_to_one(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        first = (await http.post(f"{base}/api/quick-match", headers=amira.headers,
                                 json={"variant": "egyptian"})).json()
        assert first["status"] == "waiting"
        second = (await http.post(f"{base}/api/quick-match", headers=omar.headers,
                                  json={"variant": "egyptian"})).json()
        # The pool is paired every pairing_seconds: both long polls see the same table.
        second = (await http.get(f"{base}/api/quick-match/{second['ticket']}?wait=5",
                                 headers=omar.headers)).json()
        assert second["status"] == "matched" and second["rated"] is False  # guests
        polled = (await http.get(f"{base}/api/quick-match/{first['ticket']}?wait=5",
                                 headers=amira.headers)).json()
        assert polled["table"] == second["table"]
        # A lone player is offered a bot after a while, and takes it.
        lone = await new_guest(base, http, "Lina")
        ticket = (await http.post(f"{base}/api/quick-match", headers=lone.headers,
                                  json={"variant": "serbian"})).json()
        await asyncio.sleep(0.6)
        polled = (await http.get(f"{base}/api/quick-match/{ticket['ticket']}",
                                 headers=lone.headers)).json()
        assert polled["bot_offer"] is True and polled["status"] == "waiting"
        took = (await http.post(f"{base}/api/quick-match/{ticket['ticket']}/bot",
                                headers=lone.headers, json={"level": "easy"})).json()
        assert took["status"] == "matched"
        info = (await http.get(f"{base}/api/tables/{took['table']}")).json()
        assert info["table"]["variant"] == "serbian"
        assert info["table"]["players"][1]["name"] == "bot:easy"

    serve(backend, scenario)


def test_guests_health_and_bad_requests(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        assert (await http.get(f"{base}/health")).json()["status"] == "ok"
        assert (await http.get(f"{base}/ready")).json() == {
            "ready": True, "database": True, "redis": None}
        bad = await http.post(f"{base}/api/guests", json={"nickname": "<script>"})
        assert bad.status_code == 422
        assert bad.json()["error"]["code"] == "guest/bad_nickname"
        short = await http.post(f"{base}/api/guests", json={"nickname": "x"})
        assert short.json()["error"]["code"] == "guest/bad_nickname"
        me = await http.get(f"{base}/api/me", headers={"Authorization": "Bearer nope"})
        assert me.status_code == 401 and me.json()["error"]["code"] == "auth/required"
        amira = await new_guest(base, http, "أميرة")
        me = await http.get(f"{base}/api/me", headers=amira.headers)
        assert me.json()["nickname"] == "أميرة"
        r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                            json={"variant": "arabic101", "players": 4})
        assert r.status_code == 400 and r.json()["error"]["code"] == "table/bad_options"
        r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                            json={"bot_level": "oracle"})  # the arena's yardstick alone
        assert (r.status_code, r.json()["error"]["code"]) == (400, "table/bad_options")
        assert "yardstick for `basra arena`" in r.json()["error"]["message"]
        r = await http.post(f"{base}/api/tables/join", headers=amira.headers,
                            json={"invite_code": "NOPE1234"})
        assert r.status_code == 404

    serve(backend, scenario)


@pytest.mark.parametrize("variant,players,teams", [("egyptian", 4, True),
                                                   ("lebanese", 3, False)])
def test_private_tables_fill_with_bots(backend: Backend, variant: str, players: int,
                                       teams: bool) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        created = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={"variant": variant, "players": players,
                                         "teams": teams})).json()
        table_id = created["table"]["id"]
        assert created["table"]["status"] == "waiting"
        for _ in range(players - 1):
            r = await http.post(f"{base}/api/tables/{table_id}/bots",
                                headers=amira.headers, json={"level": "random"})
            assert r.status_code == 200, r.text
        await amira.connect(table_id)
        state = await amira.until(lambda s: s["view"]["turn"] is not None)
        assert len(state["view"]["hand_counts"]) == players
        await amira.close()

    serve(backend, scenario)
