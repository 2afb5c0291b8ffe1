"""The server's side of "the browser, round two": one-tap guests with generated names and
renaming; the next round waiting while its players read the summary (no clock runs);
what a bot played for an absent player told on their return (``away``); resigning; hints
at bot tables. Against a real server (tests/server_harness.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from basra.errors import IllegalPlayError, RecordError
from basra.game.engine import new_match
from basra.game.rules import find_variant
from basra.match.driver import resigned_match
from basra.match.records import parse_record
from basra.match.replay import replay, verify
from basra.server.identity.guests import clean_nickname
from server_harness import (
    Guest,
    at_a_bot_table,
    bot_table,
    new_guest,
    next_message,
    over,
    serve,
    two_at_a_private_table,
)

# ---------------------------------------------------------------------------------------
# guests


def test_a_guest_without_a_nickname_gets_a_friendly_one_and_can_rename(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        names = set()
        for body in ({}, {"nickname": None}):
            r = await http.post(f"{base}/api/guests", json=body)
            assert r.status_code == 201, r.text
            name = r.json()["player"]["nickname"]
            assert clean_nickname(name) == name and len(name.split()) == 3, name
            names.add(name)
        arabic = await http.post(f"{base}/api/guests", json={"language": "ar"})
        name = arabic.json()["player"]["nickname"]
        assert all("\u0600" <= ch <= "\u06ff" or ch.isdigit() or ch == " " for ch in name), name
        other = await http.post(f"{base}/api/guests", json={"language": "xx-YY"})
        assert other.json()["player"]["nickname"].isascii()  # not ours: English
        r = await http.post(f"{base}/api/guests")  # no body at all: the same
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        r = await http.patch(f"{base}/api/me", headers=headers, json={"nickname": "  Amira "})
        assert r.status_code == 200 and r.json()["nickname"] == "Amira", r.text
        assert (await http.get(f"{base}/api/me", headers=headers)).json()["nickname"] == "Amira"
        r = await http.patch(f"{base}/api/me", headers=headers, json={"nickname": "bot:hard"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "guest/bad_nickname"
        r = await http.patch(f"{base}/api/me", json={"nickname": "Omar"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "auth/required"
        # The new name is the one a table made from now on shows.
        r = await http.post(f"{base}/api/tables/bot", headers=headers, json={})
        assert r.json()["table"]["players"][0]["name"] == "Amira"

    serve(tmp_path, scenario)


# ---------------------------------------------------------------------------------------
# the summary


async def play_round_one(guest: Guest) -> dict[str, Any]:
    """Play the first legal play on each turn until round 1 is over: the state once round
    2 is committed."""
    sent = -1
    while True:
        state = await guest.until(lambda s, last=sent: bool(s["view"]["results"]) or (
            guest.my_turn(s) and s["version"] > last))
        if state["view"]["results"]:
            return await guest.until(lambda s: s["table"]["phase"] == "seeding")
        sent = state["version"]
        await guest.play_first_legal()


def test_the_next_round_waits_for_the_player_and_no_clock_runs_meanwhile(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        state = await play_round_one(amira)
        table = state["table"]
        assert table["phase"] == "seeding" and table["clock"] is None
        waiting = table["next_round"]
        assert waiting["round"] == 2 and waiting["seconds"] == 30
        assert waiting["waiting_for"] == [0] and 0 < waiting["remaining_ms"] <= 30_000
        # Nothing is dealt while she reads the summary.
        await asyncio.sleep(1.5)
        await amira.send({"type": "ping"})
        await next_message(amira, "pong")
        assert amira.state["view"]["round"] == 1 and amira.state["table"]["clock"] is None
        # She continues: the round is dealt at once, and only now does her clock run.
        await amira.send({"type": "ready"})
        dealt = await amira.until(lambda s: s["view"]["round"] == 2, timeout=5)
        assert dealt["table"]["next_round"] is None and dealt["table"]["phase"] == "playing"
        mine = await amira.until(lambda s: s["table"]["clock"] is not None, timeout=10)
        assert mine["table"]["clock"]["seat"] == 0
        await amira.close()

    serve(tmp_path, scenario, summary_seconds=30.0)


def test_the_summary_wait_ends_by_itself_and_names_who_is_still_reading(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        _, amira, omar = await two_at_a_private_table(base, http)
        states = await asyncio.gather(play_round_one(amira), play_round_one(omar))
        assert states[0]["table"]["next_round"]["waiting_for"] == [0, 1]
        await amira.send({"type": "ready"})
        seen = await omar.until(lambda s: s["table"]["next_round"] is not None
                                and s["table"]["next_round"]["waiting_for"] == [1])
        assert seen["view"]["round"] == 1
        started = time.monotonic()
        await omar.until(lambda s: s["view"]["round"] == 2, timeout=10)
        assert time.monotonic() - started > 0.5  # the window's end dealt it, not Omar
        await amira.close()
        await omar.close()

    serve(tmp_path, scenario, summary_seconds=2.5)


# ---------------------------------------------------------------------------------------
# away


def test_a_player_back_is_told_every_play_a_bot_made_for_them(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        # Her clock runs out once while she is there...
        first = await amira.until(amira.my_turn)
        timed_out = await amira.until(lambda s: s["version"] > first["version"]
                                      and s["view"]["plays"][-1:] != []
                                      and s["view"]["plays"][-1]["seat"] == 0)
        clock_card = timed_out["view"]["plays"][-1]["card"]
        # ...then she leaves; past the grace her bot plays her seat.
        await amira.close()
        await asyncio.sleep(2.0)
        await amira.connect(table_id)
        await amira.receive()  # welcome
        state = await amira.receive()
        assert state["type"] == "state"
        away = await next_message(amira, "away")
        plays = away["plays"]
        assert plays[0] == {**plays[0], "round": 1, "card": clock_card, "reason": "clock"}
        dropped = [p for p in plays if p["reason"] == "dropped"]
        assert dropped, plays
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        mine = [(n, p["card"]) for n, r in enumerate(record["rounds"], 1)
                for p in r["plays"] if p["seat"] == 0]
        assert [(p["round"], p["card"]) for p in plays] == mine[:len(plays)]
        # Told once: a second connection is not told again.
        await amira.close()
        await amira.connect(table_id)
        await amira.send({"type": "ping"})
        await next_message(amira, "pong")
        assert all(m["type"] != "away" for m in amira.log[amira.log.index(away) + 1:])
        await amira.close()

    serve(tmp_path, scenario, clock_seconds=0.6, grace_seconds=0.3, bot_delay_seconds=0.3)


# ---------------------------------------------------------------------------------------
# resign


def test_resigning_ends_the_match_for_the_resigners_side(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        watcher = Guest(base, "watcher")
        await amira.connect(table_id)
        await watcher.connect(table_id)
        await watcher.send({"type": "resign"})
        assert (await next_message(watcher, "error"))["code"] == "resign/not_seated"
        for _ in range(3):
            state = await amira.until(amira.my_turn)
            await amira.play_first_legal()
            await amira.until(lambda s, v=state["version"]: s["version"] > v)
        await amira.send({"type": "resign"})
        end = await amira.until(over, timeout=10)
        assert end["table"]["resigned"] == 0 and end["view"]["winner"] == 1
        assert end["view"]["legal"] == [] and end["table"]["clock"] is None
        # The round cut short is revealed, so the record is whole and verifiable.
        assert end["table"]["fairness"]["current"] is None
        await amira.send({"type": "resign"})
        assert (await next_message(amira, "error"))["code"] == "resign/not_playing"
        await amira.close()
        await watcher.close()
        raw = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert raw["resigned"] == 0
        record = parse_record(raw)
        assert replay(record).winner == 1
        assert verify(record).ok
        await asyncio.sleep(1.5)  # evicted: now answered from the store
        info = (await http.get(f"{base}/api/tables/{table_id}")).json()["table"]
        assert info["status"] == "finished" and info["resigned"] == 0
        again = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert again == raw
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        assert history["matches"][0]["winner"] == 1

    serve(tmp_path, scenario, rematch_window_seconds=0.5, sweep_seconds=0.1)


def test_no_resigning_before_the_match_begins_and_nothing_after_it(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        r = await http.post(f"{base}/api/tables/private", headers=amira.headers, json={})
        table_id = r.json()["table"]["id"]
        code = r.json()["invite_link"].rsplit("/", 1)[-1]
        await http.post(f"{base}/api/tables/join", headers=omar.headers,
                        json={"invite_code": code})
        await amira.connect(table_id)  # Omar never comes: the table waits for him
        await amira.until(lambda s: s["table"]["phase"] == "arriving")
        await amira.send({"type": "resign"})
        assert (await next_message(amira, "error"))["code"] == "resign/not_playing"
        await omar.connect(table_id)
        await amira.until(lambda s: s["view"]["round"] == 1)
        await amira.send({"type": "resign"})
        end = await amira.until(over, timeout=10)
        assert end["table"]["resigned"] == 0 and end["view"]["winner"] == 1
        await omar.send({"type": "seed", "round": 2, "client_seed": "late"})
        assert (await next_message(omar, "error"))["code"] == "seed/wrong_round"
        await amira.close()
        await omar.close()

    serve(tmp_path, scenario, arrival_seconds=60.0)


def test_the_resignation_rule() -> None:
    two = new_match(find_variant("egyptian"), 2)
    assert resigned_match(two, 0).winner == 1 and resigned_match(two, 1).winner == 0
    three = new_match(find_variant("lebanese"), 3)._replace(totals=(40, 12, 55))
    assert resigned_match(three, 2).winner == 0  # the leader among the others
    assert resigned_match(three, 0).winner == 2
    tied = three._replace(totals=(30, 30, 30))
    assert resigned_match(tied, 1).winner == 2  # a tie: the side seated next
    teams = new_match(find_variant("lebanese"), 4, True)
    assert resigned_match(teams, 3).winner == 0 and resigned_match(teams, 2).winner == 1
    with pytest.raises(IllegalPlayError, match="already decided"):
        resigned_match(two._replace(winner=0), 1)


def test_a_record_resigned_after_the_end_or_by_no_seat_is_refused() -> None:
    head = {"format": "basra-record/1", "variant": "egyptian", "players": ["a", "b"],
            "rounds": []}
    assert replay(parse_record({**head, "resigned": 1})).winner == 0
    with pytest.raises(RecordError, match="resigned must be a seat number from 0 to 1"):
        parse_record({**head, "resigned": 2})
    with pytest.raises(RecordError, match="resigned must be a seat number"):
        parse_record({**head, "resigned": "b"})


# ---------------------------------------------------------------------------------------
# hints


def test_a_hint_is_a_legal_play_at_a_bot_table_on_your_turn_only(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http, level="medium")
        state = await amira.until(amira.my_turn)
        await amira.send({"type": "hint"})
        hint = await next_message(amira, "hint")
        assert hint["version"] == state["version"]
        assert {"card": hint["card"], "take": hint["take"]} in state["view"]["legal"]
        await amira.send({"type": "play", "version": state["version"], "card": hint["card"],
                          "take": hint["take"]})
        after = await amira.until(lambda s: s["version"] > state["version"])
        assert not amira.my_turn(after)  # the bot thinks a second: not her turn now
        await amira.send({"type": "hint"})
        assert (await next_message(amira, "error"))["code"] == "hint/not_your_turn"
        await amira.close()
        _, omar, lina = await two_at_a_private_table(base, http)
        await omar.send({"type": "hint"})
        assert (await next_message(omar, "error"))["code"] == "hint/not_allowed"
        await omar.close()
        await lina.close()

    serve(tmp_path, scenario, bot_delay_seconds=1.0)
