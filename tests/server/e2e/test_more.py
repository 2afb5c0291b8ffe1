"""More of the server, end to end: rematches, spectators, client seeds and the commitment's
timing, a stale play after a bot's move, an invite opened again mid-match, and a real
``basra serve`` process (health, readiness, JSON logs on standard error)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from pathlib import Path
from typing import Any

import httpx

from basra import __version__
from basra.game.shuffle import commitment, seat_part
from basra.match.records import parse_record
from basra.match.replay import replay, verify
from server_harness import (
    Backend,
    Guest,
    ServeProcess,
    backend_fixture,  # noqa: F401  (the backend fixture)
    bot_table,
    changes,
    new_guest,
    over,
    play_out,
    play_turns,
    rematch,
    run,
    serve,
    strings_in,
)


def error_codes(guest: Guest) -> list[str]:
    return [e["code"] for e in guest.errors]


async def refused(guest: Guest, message: dict[str, Any], code: str) -> None:
    """The message gets exactly that error, and the table does not move (when no one
    else moves it meanwhile)."""
    version, _ = await guest.ping()  # all read up to now
    count = len(guest.errors)
    await guest.send(message)
    pong, before = await guest.ping()
    assert [e["code"] for e in guest.errors[count:]] == [code], (message, guest.errors)
    assert pong == version and not changes(before)


# ---------------------------------------------------------------------------------------
# rematch and spectators


def test_rematch_at_a_private_table_and_against_a_bot_spectators_see_no_hand(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        watcher = Guest(base, "Watcher")
        created = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={"variant": "egyptian"})).json()
        table_id = created["table"]["id"]
        await amira.connect(table_id)
        await watcher.connect(table_id)
        await http.post(f"{base}/api/tables/join", headers=omar.headers,
                        json={"invite_code": created["table"]["invite_code"]})
        await omar.connect(table_id)
        guests = (amira, omar, watcher)
        try:
            state = await watcher.until(lambda s: s["view"]["turn"] is not None)
            assert state["you"] is None and "invite_code" not in state["table"]
            await refused(amira, {"type": "rematch"}, "rematch/not_over")
            await refused(watcher, {"type": "play", "version": state["version"],
                                    "card": "5H", "take": []}, "play/not_seated")
            await refused(watcher, {"type": "seed", "round": 1, "client_seed": "x"},
                          "seed/not_seated")
            await refused(watcher, {"type": "ready"}, "ready/not_seated")
            watching = asyncio.create_task(watcher.until(over, 120))
            await play_out(amira, omar)
            await watching
            # the spectator saw the whole match, and never a hand or a legal play
            states = watcher.seen
            assert len(states) > 100
            assert all(m["view"]["hand"] == [] and m["view"]["legal"] == []
                       for m in states)
            assert all(m["hand"] == [] and m["legal"] == [] for m in watcher.log
                       if m["type"] == "played")
            assert max(len(m["view"]["plays"]) for m in states) > 40
            await refused(watcher, {"type": "rematch"}, "rematch/not_seated")

            # One asks: noted, no table yet. The other asks: a new table for both.
            await amira.send({"type": "rematch"})
            asked = await omar.until(lambda s: s["table"]["players"][0]["rematch"])
            assert asked["table"]["rematch_table"] is None
            await omar.send({"type": "rematch"})
            done = await amira.until(lambda s: s["table"]["rematch_table"] is not None)
            new_id = done["table"]["rematch_table"]
            assert new_id != table_id
            seen = await watcher.until(lambda s: s["table"]["rematch_table"] is not None)
            assert seen["table"]["rematch_table"] == new_id
            await amira.send({"type": "rematch"})  # asking again changes nothing
            version, before = await amira.ping()
            assert version == amira.state["version"]
            assert not changes(before)
            assert amira.state["table"]["rematch_table"] == new_id
        finally:
            for g in guests:
                await g.close()

        info = (await http.get(f"{base}/api/tables/{new_id}")).json()["table"]
        assert info["status"] == "playing" and info["kind"] == "private"
        assert [p["name"] for p in info["players"]] == ["Amira", "Omar"]
        await amira.connect(new_id)
        await omar.connect(new_id)
        try:  # the new table is playable: a few turns each
            await play_turns([amira, omar], lambda s: len(s["view"]["plays"]) >= 6)
            assert amira.state["you"] == 0 and omar.state["you"] == 1
        finally:
            await amira.close()
            await omar.close()

        # Against a bot, the player's own request is enough.
        against_bot = await bot_table(base, http, amira, variant="egyptian")
        await amira.connect(against_bot)
        try:
            await play_out(amira)
            rematch_id = await rematch(amira)
            await amira.close()
            await amira.connect(rematch_id)
            state = await amira.until(amira.my_turn)
            assert state["table"]["players"][1]["name"] == "bot:random"
            await amira.play_first_legal()
            await amira.until(lambda s: s["version"] > state["version"])
        finally:
            await amira.close()
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        # (the rematch tables may be over too by now: their bots play the left seats)
        assert {table_id, against_bot} <= {m["table"] for m in history["matches"]}

    serve(backend, scenario)


# ---------------------------------------------------------------------------------------
# client seeds, the commitment, the server seed


def test_client_seeds_are_used_in_their_round_and_the_commitment_comes_first(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        created = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={"variant": "lebanese", "players": 3})).json()
        table_id = created["table"]["id"]
        await http.post(f"{base}/api/tables/join", headers=omar.headers,
                        json={"invite_code": created["table"]["invite_code"]})
        await amira.connect(table_id)
        await omar.connect(table_id)
        try:
            # No part before the round's commitment: there is no round to send it for.
            # (Omar's arrival is seen first: it is sent to Amira too, at the same version.)
            await amira.until(lambda s: s["table"]["status"] == "waiting"
                              and s["table"]["players"][1]["connected"] is True)
            await refused(amira, {"type": "seed", "round": 1, "client_seed": "early"},
                          "seed/wrong_round")
            r = await http.post(f"{base}/api/tables/{table_id}/bots",
                                headers=amira.headers, json={"level": "random"})
            assert r.json() == {"seat": 2}
            pending = await omar.until(lambda s: s["table"]["phase"] == "seeding")
            current = pending["table"]["fairness"]["current"]
            assert current["round"] == 1 and current["client_seed"] is None
            assert current["parts_sent"] == [False, False, None]
            assert pending["view"]["round"] == 0 and pending["view"]["hand"] == []
            first_commitment = current["commitment"]
            started = time.monotonic()
            # Amira sends a part for round 1; Omar only says ready (his part is then
            # derived from the server seed, as a bot's always is).
            await refused(amira, {"type": "seed", "round": 2, "client_seed": "x"},
                          "seed/wrong_round")
            await amira.send({"type": "seed", "round": 1, "client_seed": "amira-7f3a"})
            await amira.until(lambda s: s["table"]["fairness"]["current"]["parts_sent"]
                              == [True, False, None])
            assert amira.state["table"]["players"][0]["client_seed"] == "amira-7f3a"
            assert amira.state["table"]["players"][1]["client_seed"] is None
            await omar.send({"type": "ready"})
            dealt = await amira.until(lambda s: s["view"]["round"] == 1)
            assert time.monotonic() - started < 3  # everyone answered: no need to wait
            current = dealt["table"]["fairness"]["current"]
            assert current["round"] == 1 and current["commitment"] == first_commitment
            first_seed = current["client_seed"]
            # one part per seat: Amira's own, then two derived 16-hex parts
            assert re.fullmatch(r"amira-7f3a\|[0-9a-f]{16}\|[0-9a-f]{16}", first_seed)
            await omar.until(lambda s: s["view"]["round"] == 1)
            for guest in (amira, omar):  # the commitment came before the first cards
                states = guest.seen
                first_cards = next(i for i, m in enumerate(states)
                                   if m["view"]["round"] == 1)
                assert any(m["table"]["fairness"]["current"]
                           and m["table"]["fairness"]["current"]["commitment"]
                           == first_commitment for m in states[:first_cards])
            # once the table waits for a person (the bot at seat 2 has played)
            await amira.until(lambda s: s["view"]["turn"] in (0, 1))
            await omar.until(lambda s: s["version"] == amira.state["version"])
            turn_owner = amira if amira.my_turn(amira.state) else omar
            await refused(turn_owner, {"type": "seed", "round": 1, "client_seed": "late"},
                          "seed/round_started")

            # Opening the invite again mid-match changes nothing.
            r = await http.post(f"{base}/api/tables/join", headers=omar.headers,
                                json={"invite_code": created["table"]["invite_code"]})
            assert r.status_code == 200 and r.json()["seat"] == 1
            version, before = await amira.ping()
            assert version == amira.state["version"]
            assert not changes(before)

            # Round 1 to its end: its server seed is revealed only then.
            async def round_one(guest: Guest) -> None:
                sent = -1
                while True:
                    s = await guest.until(lambda s, last=sent: s["view"]["round"] > 1
                                          or s["table"]["phase"] == "seeding"
                                          or (guest.my_turn(s) and s["version"] > last))
                    if s["view"]["round"] > 1 or s["table"]["phase"] == "seeding":
                        return
                    sent = s["version"]
                    await guest.play_first_legal()

            await asyncio.gather(round_one(amira), round_one(omar))
            seeding = await amira.until(lambda s: s["table"]["phase"] == "seeding")
            revealed = seeding["table"]["fairness"]["revealed"]
            assert len(revealed) == 1 and revealed[0]["round"] == 1
            server_seed = revealed[0]["server_seed"]
            assert commitment(server_seed) == first_commitment
            assert revealed[0]["client_seed"] == first_seed
            for guest in (amira, omar):
                reveal = next(i for i, m in enumerate(guest.log)
                              if server_seed in strings_in(m))
                assert all(m["view"]["round"] == 1 and len(m["view"]["plays"]) == 48
                           for m in guest.log[reveal:] if m["type"] == "state")
                assert not [m for m in guest.log[reveal:] if m["type"] == "played"]
            second = seeding["table"]["fairness"]["current"]
            assert second["round"] == 2 and second["client_seed"] is None

            # The parts of round 1 were fixed by its commitment: Omar's and the bot's
            # are the ones derived from the revealed server seed.
            assert first_seed.split("|") == ["amira-7f3a", seat_part(server_seed, 1, 1),
                                             seat_part(server_seed, 1, 2)]

            # Round 2: a part of round 1 is never taken again; Amira sends a fresh one,
            # Omar nothing, so the round starts when the seed window ends.
            await refused(amira, {"type": "seed", "round": 2, "client_seed": "amira-7f3a"},
                          "seed/reused")
            await amira.send({"type": "seed", "round": 2, "client_seed": "second"})
            await amira.until(lambda s: s["table"]["players"][0]["client_seed"]
                              == "second")
            dealt = await amira.until(lambda s: s["view"]["round"] == 2, timeout=20)
            current = dealt["table"]["fairness"]["current"]
            assert current["commitment"] == second["commitment"]
            mine, *derived = current["client_seed"].split("|")
            assert mine == "second" and len(derived) == 2
            assert all(re.fullmatch(r"[0-9a-f]{16}", d) for d in derived)

            # The record: round 1 whole and fair, round 2 without its server seed.
            doc = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
            assert [r["fairness"]["client_seed"] for r in doc["rounds"]] == [
                first_seed, current["client_seed"]]
            assert doc["rounds"][0]["fairness"]["server_seed"] == server_seed
            assert "server_seed" not in doc["rounds"][1]["fairness"]
            assert server_seed in json.dumps(doc)
            finished_part = parse_record({**doc, "rounds": doc["rounds"][:1]})
            assert verify(finished_part).ok
            assert len(replay(finished_part).results) == 1
        finally:
            await amira.close()
            await omar.close()

    serve(tmp_path, scenario, seed_window_seconds=3.0)


# ---------------------------------------------------------------------------------------
# a stale play


def test_a_play_on_the_state_before_the_bots_move_is_stale(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                            json={"bot_level": "easy"})
        await amira.connect(r.json()["table"]["id"])
        try:
            for _ in range(3):
                state = await amira.until(amira.my_turn)
                version = state["version"]
                played = await amira.play_legal(0)
                mine = await amira.until(lambda s, v=version: s["version"] == v + 1)
                # the bot answers: a new version, on which Amira must play
                after = await amira.until(lambda s, v=version: amira.my_turn(s)
                                          and s["version"] > v + 1)
                assert after["view"]["plays"][-2]["card"] == played["card"]
                legal = after["view"]["legal"][0]
                for stale in (mine["version"], version):
                    await refused(amira, {"type": "play", "version": stale,
                                          "card": legal["card"], "take": legal["take"]},
                                  "play/stale")
                assert "the latest state" in amira.errors[-1]["message"]
                assert amira.state["version"] == after["version"]
        finally:
            await amira.close()

    serve(tmp_path, scenario)


# ---------------------------------------------------------------------------------------
# the process


def test_basra_serve_health_readiness_and_json_logs(tmp_path: Path) -> None:
    serve = ServeProcess(["--data-dir", str(tmp_path / "data"), "--log-level", "info",
                          "--seed-window", "0", "--summary-window", "0", "--bot-delay", "0"],
                         tmp_path / "serve.log")

    async def scenario() -> str:
        base = serve.base
        async with httpx.AsyncClient() as http:
            health = await http.get(f"{base}/health")
            assert health.json() == {"status": "ok", "version": __version__, "memory": {
                "tables": 0, "tickets": 0, "sockets": 0, "evicted": 0, "kept": 0,
                "rebuilt": 0}}
            assert (await http.get(f"{base}/ready")).json() == {
                "ready": True, "database": True, "redis": None}
            amira = await new_guest(base, http, "Amira")
            r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                                json={"bot_level": "random"})
            await amira.connect(r.json()["table"]["id"])
            try:
                await amira.until(lambda s: s["view"]["turn"] is not None)
                await amira.send_raw(b"\xff\x00 not text")  # a binary frame
                assert (await amira.receive())["code"] == "protocol/bad_json"
                await amira.ping()
            finally:
                await amira.close()
        return amira.token

    with serve.running():
        token = run(scenario())
        with socket.create_connection(("127.0.0.1", serve.port)) as raw:  # not HTTP at all
            raw.sendall(b"\x16\x03\x01 garbage\r\n\r\n")
            raw.settimeout(5)
            raw.recv(100)
        assert httpx.get(f"{serve.base}/health").status_code == 200
        assert serve.stop() == 0  # Ctrl-C: a clean shutdown
    lines = serve.log_lines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    for entry in entries:
        assert {"time", "level", "logger", "message"} <= set(entry)
        assert entry["level"] != "error", entry
    messages = [e["message"] for e in entries]
    assert any(m.startswith("server ready") for m in messages)
    assert any("Invalid HTTP request" in m for m in messages)  # uvicorn's, as JSON too
    assert token not in "\n".join(lines)  # session tokens stay out of the log


# --------------------------------------------------------------------------- the expert


def test_a_round_against_the_expert_bot(tmp_path: Path) -> None:
    """The expert is a level of the lobby like the others (its searches run in the bot
    workers: tests/workers/test_local_pool.py), and a whole round against it is played and
    scored."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        levels = (await http.get(f"{base}/api/variants")).json()["bot_levels"]
        assert levels[-2:] == ["hard", "expert"]
        amira = await new_guest(base, http, "Amira")
        await amira.connect(await bot_table(base, http, amira, "expert"))
        try:
            await play_turns([amira], lambda s: bool(s["view"]["results"]), timeout=180)
            state = amira.state
            assert state["view"]["results"], "the first round was scored"
            assert state["table"]["bot_level"] == "expert"
        finally:
            await amira.close()

    serve(tmp_path, scenario)
