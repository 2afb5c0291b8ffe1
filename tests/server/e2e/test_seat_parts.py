"""Seat parts and the commitment, end to end (issue 8: the server cannot choose the deck).
Every round's commitment reaches a player in an earlier message than its cards, and its
server seed only once the round is over. The round's client seed has one part per seat: the
part a player sent for that round, or one derived from the committed server seed (always, for
a bot), so the operator cannot grind the deck. A part is for its round only: too early, too
late, malformed or reused, each is refused with its code. A round starts as soon as every
seat has answered, or when the seed window ends; the record of the finished rounds
verifies."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import httpx
import pytest

from basra.game.shuffle import commitment, seat_part
from basra.match.records import parse_record
from basra.match.replay import replay, verify
from server.e2e.refusals import refused
from server_harness import (
    Guest,
    at_a_bot_table,
    changes,
    new_guest,
    pending_round,
    play_match_sending_parts,
    serve,
    strings_in,
)


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


@pytest.mark.parametrize("window", [0.0, 8.0])
def test_server_parts_are_derived_and_the_commitment_always_comes_first(
        tmp_path: Path, window: float) -> None:
    """Whatever the seed window, every round's commitment reaches the player in an earlier
    message than its cards; the bot's part is the one derived from the committed server
    seed; the player's part is the one it sent for that round (a fresh one each round),
    and with a window the round starts as soon as the part arrives."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        parts: dict[int, str] = {}
        try:
            started = time.monotonic()
            final = await play_match_sending_parts(amira, parts)
            elapsed = time.monotonic() - started
        finally:
            await amira.close()
        rounds = len(final["view"]["results"])
        assert rounds >= 2
        if window:  # every round started on the part, not at the window's end
            assert elapsed < window * rounds / 2, elapsed
        states = amira.seen
        revealed = {r["round"]: r for r in final["table"]["fairness"]["revealed"]}
        assert sorted(revealed) == list(range(1, rounds + 1))
        for number, entry in revealed.items():
            first_cards = next(i for i, m in enumerate(states)
                               if m["view"]["round"] == number)
            seen = [i for i, m in enumerate(states[:first_cards])
                    if (m["table"]["fairness"]["current"] or {}).get("commitment")
                    == entry["commitment"]]
            assert seen, f"round {number}: cards before the commitment"
            assert commitment(entry["server_seed"]) == entry["commitment"]
            mine, bots = entry["client_seed"].split("|")
            assert bots == seat_part(entry["server_seed"], number, 1)
            if window:
                assert mine == parts[number]
            else:  # with no window the round may start before a part arrives
                assert mine in (parts.get(number),
                                seat_part(entry["server_seed"], number, 0))
        assert len(set(parts.values())) == len(parts)
        record = (await http.get(f"{base}/api/tables/{final['table']['id']}/record")).json()
        assert verify(parse_record(record)).ok

    serve(tmp_path, scenario, seed_window_seconds=window)


def test_a_part_is_for_its_round_only_and_never_reused(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        try:
            state = await amira.until(lambda s: pending_round(s) == 1)
            assert state["view"]["hand"] == []
            for message, code in [
                    ({"type": "seed", "round": 2, "client_seed": "ahead"}, "seed/wrong_round"),
                    ({"type": "seed", "round": 1, "client_seed": ""}, "seed/bad"),
                    ({"type": "seed", "round": 1, "client_seed": "a|b"}, "seed/bad"),
                    ({"type": "seed", "round": 1, "client_seed": "x" * 61}, "seed/bad"),
                    ({"type": "seed", "client_seed": "no round"}, "protocol/bad_message")]:
                await amira.send(message)
                await amira.ping()
                assert amira.errors[-1]["code"] == code, (message, amira.errors[-1])
            assert amira.state["view"]["hand"] == []  # none of that started the round
            await amira.send({"type": "seed", "round": 1, "client_seed": "first"})
            await amira.until(lambda s: s["view"]["round"] == 1)
            await amira.send({"type": "seed", "round": 1, "client_seed": "late"})
            await amira.ping()
            assert amira.errors[-1]["code"] == "seed/round_started"
            # to the end of round 1, then round 2 refuses round 1's part
            sent = -1
            while pending_round(amira.state) != 2:
                s = await amira.until(lambda s, last=sent: pending_round(s) == 2
                                      or (amira.my_turn(s) and s["version"] > last))
                if pending_round(s) == 2:
                    break
                sent = s["version"]
                await amira.play_first_legal()
            await amira.send({"type": "seed", "round": 2, "client_seed": "first"})
            await amira.ping()
            assert amira.errors[-1]["code"] == "seed/reused"
            await amira.send({"type": "seed", "round": 2, "client_seed": "second"})
            state = await amira.until(lambda s: s["view"]["round"] == 2)
            assert state["table"]["fairness"]["current"]["client_seed"].startswith(
                "second|")
        finally:
            await amira.close()

    serve(tmp_path, scenario, seed_window_seconds=30.0)
