"""SIGKILL a real ``basra serve`` process mid-match and start it again on the same database:
every live table resumes exactly where it was, the player to move's clock goes on from its
stored deadline, the matches play on to the end, and their records hold every accepted
play exactly once.

Runs on both stores (the ``backend`` fixture). Each guest keeps every message it received,
so the plays a table accepted are known from the states alone (``PlayLog``)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx

from basra.game.shuffle import commitment
from basra.match.records import parse_record
from basra.match.replay import replay, verify
from server_harness import (
    Backend,
    Guest,
    PlayLog,
    ServeProcess,
    backend_fixture,  # noqa: F401  (the backend fixture)
    comparable,
    new_guest,
    over,
    play_out,
    play_turns,
    record_plays,
    run,
)

CLOCK = 30
SERVE = ["--seed-window", "0", "--summary-window", "0", "--bot-delay", "0", "--clock", str(CLOCK),
         # long enough for the guests to come back before a bot would play their seats,
         # so that the tables can be compared exactly as they were
         "--grace", "60", "--log-level", "info",
         # the guests play at machine speed, past the message rate a person could reach
         "--no-limits"]


async def settle(*guests: Guest) -> None:
    """Read every message already sent (the tables are waiting for a person to play)."""
    for guest in guests:
        version, _ = await guest.ping()
        assert guest.state["version"] == version


async def reconnect(table_of: dict[str, str], *guests: Guest) -> None:
    for guest in guests:
        await guest.connect(table_of[guest.nickname])
    for guest in guests:
        await guest.until(lambda s: True)
    await settle(*guests)


async def close_all(*guests: Guest) -> None:
    for guest in guests:
        await guest.close()


def test_sigkill_mid_match_then_restart_resumes_every_table(backend: Backend,
                                                           tmp_path: Path) -> None:
    serve = ServeProcess([*backend.serve_args(), *SERVE], tmp_path / "serve.log")

    async def scenario() -> None:
        # ---------------------------------------------------------- first life
        await asyncio.to_thread(serve.start)
        base = serve.base
        async with httpx.AsyncClient() as http:
            amira = await new_guest(base, http, "Amira")
            badr = await new_guest(base, http, "Badr")
            camila = await new_guest(base, http, "Camila")
            r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                                json={"variant": "egyptian", "bot_level": "random"})
            bot_table = r.json()["table"]["id"]
            created = (await http.post(f"{base}/api/tables/private", headers=badr.headers,
                                       json={"variant": "lebanese"})).json()
            pair_table = created["table"]["id"]
            r = await http.post(f"{base}/api/tables/join", headers=camila.headers,
                                json={"invite_code": created["table"]["invite_code"]})
            assert r.status_code == 200, r.text
        table_of = {"Amira": bot_table, "Badr": pair_table, "Camila": pair_table}
        await reconnect(table_of, amira, badr, camila)

        # Amira plays into round 2; Badr and Camila through part of round 1.
        await play_turns([amira], lambda s: s["view"]["round"] >= 2
                         and len(s["view"]["plays"]) >= 6 and amira.my_turn(s))
        await play_turns([badr, camila], lambda s: len(s["view"]["plays"]) >= 11)
        await settle(amira, badr, camila)
        await asyncio.sleep(1.0)  # the clocks run
        await settle(amira, badr, camila)
        before = {g.nickname: g.state for g in (amira, badr, camila)}
        assert amira.my_turn(before["Amira"])
        to_move = badr if badr.my_turn(before["Badr"]) else camila
        assert to_move.my_turn(before[to_move.nickname])
        async with httpx.AsyncClient() as http:
            left = {}  # the clocks now, as the public table shows them
            for table_id in (bot_table, pair_table):
                info = (await http.get(f"{base}/api/tables/{table_id}")).json()
                left[table_id] = info["table"]["clock"]["remaining_ms"]
                assert left[table_id] < CLOCK * 1000 - 900
            measured = time.monotonic()
            # The record of a round in play leaves out that round's server seed.
            mid = (await http.get(f"{base}/api/tables/{bot_table}/record")).json()
        assert len(mid["rounds"]) == 2
        assert "server_seed" in mid["rounds"][0]["fairness"]
        assert "server_seed" not in mid["rounds"][1]["fairness"]
        assert "deck" not in mid["rounds"][1]

        serve.kill()  # SIGKILL: no shutdown, no goodbye
        await close_all(amira, badr, camila)

        # ---------------------------------------------------------- second life
        await asyncio.to_thread(serve.start)
        await reconnect(table_of, amira, badr, camila)
        for guest in (amira, badr, camila):
            after = guest.state
            assert comparable(after) == comparable(before[guest.nickname]), guest.nickname
            assert after["table"]["status"] == "playing"
            assert after["view"]["hand"] == before[guest.nickname]["view"]["hand"]
            clock = after["table"]["clock"]
            assert clock["seat"] == before[guest.nickname]["table"]["clock"]["seat"]
            # the clock goes on from its stored deadline: what was left, less the time
            # the server was away (never a fresh clock, never run down by the outage
            # below the least a rebuilt table gives)
            since_ms = (time.monotonic() - measured) * 1000
            was = left[table_of[guest.nickname]]
            assert clock["remaining_ms"] <= was + 50
            assert clock["remaining_ms"] >= was - since_ms - 300
            assert all(p["connected"] is not False and not p["bot_playing"]
                       for p in after["table"]["players"])

        # A few more plays, then a kill while a play is on its way: it is either stored
        # (once) or lost entirely, never half applied.
        await play_turns([amira], lambda s: len(s["view"]["plays"]) >= 12 and amira.my_turn(s))
        await play_turns([badr, camila], lambda s: len(s["view"]["plays"]) >= 15)
        await settle(amira, badr, camila)
        in_flight = {"Amira": await amira.play_legal(0)}
        to_move = badr if badr.my_turn(badr.state) else camila
        in_flight[to_move.nickname] = await to_move.play_legal(0)
        before = {g.nickname: g.state for g in (amira, badr, camila)}
        serve.kill()
        await close_all(amira, badr, camila)

        # ---------------------------------------------------------- third life
        await asyncio.to_thread(serve.start)
        await reconnect(table_of, amira, badr, camila)
        for guest in (amira, to_move):
            old = before[guest.nickname]["view"]["plays"]
            new = guest.state["view"]["plays"]
            if guest.state["view"]["round"] == before[guest.nickname]["view"]["round"]:
                assert new[:len(old)] == old
                extra = new[len(old):]
            else:  # the play in flight ended the round
                extra = [None]
            if extra:
                sent = in_flight[guest.nickname]
                if extra[0] is not None:
                    assert extra[0]["card"] == sent["card"]
                    assert sorted(extra[0]["take"]) == sorted(sent["take"])

        finals = await asyncio.gather(play_out(amira), play_out(badr, camila))
        assert all(over(final) for final in finals)
        await close_all(amira, badr, camila)

        # ---------------------------------------------------------- the records
        async with httpx.AsyncClient() as http:
            for table_id, guests in ((bot_table, [amira]), (pair_table, [badr, camila])):
                doc = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
                record = parse_record(json.dumps(doc))
                assert verify(record).ok, verify(record).failure
                result = replay(record)
                assert result.winner == guests[0].state["view"]["winner"]
                seen = PlayLog()
                for guest in guests:
                    seen.see_all(guest.seen)
                # every play any guest saw, before and after the kills, exactly once
                assert record_plays(record) == seen.rounds
                published = {m["table"]["fairness"]["current"]["round"]:
                             m["table"]["fairness"]["current"]["commitment"]
                             for g in guests for m in g.log
                             if m["type"] == "state" and m["table"]["fairness"]["current"]}
                for number, rnd in enumerate(record.rounds, 1):
                    assert rnd.fairness is not None
                    assert published[number] == rnd.fairness.commitment
                    assert commitment(rnd.fairness.server_seed) == rnd.fairness.commitment
            history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
            assert [m["table"] for m in history["matches"]] == [bot_table]

    try:
        run(scenario())
        assert serve.stop() == 0
    finally:
        serve.kill()
    for line in serve.log_lines():  # structured logs only, and no error among them
        entry = json.loads(line)
        assert entry["level"] in ("info", "warning"), line
