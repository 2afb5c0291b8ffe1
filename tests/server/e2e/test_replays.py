"""Replays over HTTP: a finished match step by step with every hand (``GET
/api/replays/ID``), a record file checked as ``basra replay`` checks it (``POST
/api/replays``), and what is refused (a match in play, a bad record, a file too large)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from basra.bots import make_bot
from basra.game.cards import NAMES, names_of
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.match.driver import MatchDriver
from basra.match.records import parse_record
from basra.match.replay import replay
from basra.match.steps import replay_steps
from server_harness import bot_table, new_guest, over, play_out, round_states, serve


def check_steps(steps: dict[str, Any], record_json: dict[str, Any]) -> None:
    """Every step of every round is the engine's state after that many plays."""
    record = parse_record(record_json)
    states = round_states(record)
    assert [r["number"] for r in steps["rounds"]] == list(states)
    for rnd in steps["rounds"]:
        expected = states[rnd["number"]]
        assert len(rnd["steps"]) == len(expected)
        for k, (step, state) in enumerate(zip(rnd["steps"], expected, strict=True)):
            assert step["floor"] == names_of(state.floor), (rnd["number"], k)
            assert step["hands"] == [names_of(h) for h in state.hands], (rnd["number"], k)
            assert step["pile_counts"] == [p.bit_count() for p in state.piles]
            assert step["stock_count"] == state.stock_left
            if k:
                play = record.rounds[rnd["number"] - 1].plays[k - 1]
                assert step["play"]["card"] == names_of(1 << play.card)[0]
                assert step["play"]["take"] == names_of(play.take)
            else:
                assert step["play"] is None
    result = replay(record)
    assert steps["winner"] == result.winner
    assert steps["totals"] == list(result.match.totals)
    for rnd, res in zip(steps["rounds"], result.results, strict=False):
        assert rnd["result"]["points"] == list(res.points)
        assert rnd["fairness"]["fair"] is True


def test_a_finished_match_replays_with_every_hand_and_a_record_file_too(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        table = await bot_table(base, http, guest)
        await guest.connect(table)
        await guest.until(lambda s: s["view"]["round"] >= 1)
        early = await http.get(f"{base}/api/replays/{table}")
        assert early.status_code == 409 and early.json()["error"]["code"] == \
            "replay/not_finished", early.text
        state = await play_out(guest)
        assert over(state)
        record_json = (await http.get(f"{base}/api/tables/{table}/record")).json()
        answer = await http.get(f"{base}/api/replays/{table}")
        assert answer.status_code == 200, answer.text
        steps = answer.json()
        assert steps["format"] == "basra-replay/1" and steps["table"] == table
        assert steps["record"] == f"/api/tables/{table}/record"
        assert steps["players"][0] == "Amira"
        check_steps(steps, record_json)
        again = await http.get(f"{base}/api/replays/{table}")
        assert again.json() == steps

        # The same record as a file: the same replay, but for the table's id.
        opened = await http.post(f"{base}/api/replays", content=json.dumps(record_json))
        assert opened.status_code == 200, opened.text
        assert {**opened.json(), "table": table, "record": steps["record"]} == steps

        # A play changed to a card not in that hand: refused, naming round and play.
        bad = json.loads(json.dumps(record_json))
        plays = bad["rounds"][1]["plays"]
        held = {p["card"] for p in plays[16:]}
        plays[16]["card"] = next(c for c in (*("KH", "QH", "JH", "AS"), *NAMES)
                                 if c not in held and c != plays[16]["card"])
        refused = await http.post(f"{base}/api/replays", content=json.dumps(bad))
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert error["code"] == "replay/bad_record"
        assert error["message"].startswith("round 2, play 17: "), error

        for junk in (b"not json", b"[]", b'{"format": "basra-record/1"}'):
            answer = await http.post(f"{base}/api/replays", content=junk)
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"]["code"] == "replay/bad_record"
        huge = await http.post(f"{base}/api/replays", content=b" " * (600 * 1024))
        assert huge.status_code == 413
        missing = await http.get(f"{base}/api/replays/nothing-here")
        assert missing.status_code == 404
        await guest.close()

    serve(tmp_path, scenario)


def test_replay_steps_of_a_resigned_match_end_without_a_result() -> None:
    driver = MatchDriver(find_variant("egyptian"), Seating(2, False), ["amira", "bot:easy"])
    bots = [make_bot("easy", seed=1), make_bot("easy", seed=2)]
    driver.deal([None, None])
    driver.play_round(bots)
    driver.deal([None, None])
    for _ in range(7):
        seat = driver.to_play
        assert seat is not None
        driver.apply(seat, bots[seat].choose(driver.view(seat)))
    driver.resign(0)
    steps = replay_steps(driver.build_record())
    assert steps["resigned"] == 0 and steps["winner"] == 1
    assert [len(r["steps"]) for r in steps["rounds"]] == [49, 8]
    assert steps["rounds"][0]["result"] is not None and steps["rounds"][1]["result"] is None
    assert steps["rounds"][1]["totals_before"] == steps["rounds"][0]["result"]["totals"]
    assert steps["rounds"][1]["steps"][-1]["turn"] is not None
