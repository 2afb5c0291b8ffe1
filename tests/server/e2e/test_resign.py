"""Resigning. At a real server: it ends the match for the resigner's side, the round cut
short is revealed so the record stays whole and verifiable (and the same once the table has
left memory), and it is refused to a spectator, before the match begins and after it ends.
Without one: who wins when a seat resigns (:func:`basra.match.driver.resigned_match`), and a
record's ``resigned`` seat checked when it is read."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from basra.errors import IllegalPlayError, RecordError
from basra.game.engine import new_match
from basra.game.rules import find_variant
from basra.match.driver import resigned_match
from basra.match.records import parse_record
from basra.match.replay import replay, verify
from server_harness import Guest, bot_table, new_guest, next_message, over, serve


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
