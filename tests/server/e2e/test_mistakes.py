"""Learn from your mistakes, over HTTP (``GET /api/replays/ID/mistakes``): a finished match
analysed by the expert (its progress counted in plays from the first answer), then a seat's
costliest plays as positions to solve again, each rebuilt from the record (the seat's hand
and the floor as it faced them, its legal plays, the expert's play among them), the
costliest first; refused with a code while the analysis is not done and for a seat that is
not the match's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from basra.game.cards import NAMES
from basra.match.analysis import positions
from basra.match.records import parse_record
from basra.server.reads.mistakes import LEAST_COST, MOST, PASSED, mistaken, mistakes
from server.e2e.test_analyses import until_done
from server_harness import bot_table, new_guest, over, play_out, serve

ITERATIONS = 12


def check(body: dict[str, Any], analysis: dict[str, Any], record: Any, seat: int) -> None:
    """The body is the seat's costliest plays of the analysis, each position as the
    record gives it."""
    assert body["format"] == "basra-mistakes/1"
    assert body["seat"] == seat
    costly = [p for p in analysis["plays"] if p["seat"] == seat and p["cost"] >= LEAST_COST]
    assert body["mistakes"] == len(costly)
    shown = body["positions"]
    assert len(shown) == min(MOST, len(costly))
    costs = [p["cost"] for p in shown]
    assert costs == sorted(costs, reverse=True)
    assert all(c >= LEAST_COST for c in costs)
    if costly:
        assert costs[0] == max(p["cost"] for p in costly)
    faced = {(p.round, p.number): p for p in positions(record)}
    judged = {(p["round"], p["number"]): p for p in analysis["plays"]}
    for item in shown:
        key = (item["round"], item["number"])
        position, play = faced[key], judged[key]
        assert item["seat"] == position.seat == seat
        legal = [p["play"] for p in item["legal"]]
        assert item["best"]["play"] == play["best"] in legal
        assert item["made"]["play"] == play["play"] in legal
        assert item["best"]["play"] != item["made"]["play"]
        assert item["best"]["card"] in item["hand"]
        assert set(item["best"]["take"]) <= set(item["floor"])
        assert item["hand"] == [NAMES[c] for c in position.view.hand]
        assert item["floor"] == [NAMES[c] for c in position.view.floor]
        assert item["cost"] == play["cost"]
        assert item["unseen"] == position.view.unseen().bit_count()
        assert list(item["totals"]) == list(position.totals)


def test_a_seats_costliest_plays_as_positions(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        table = await bot_table(base, http, guest, length="short")
        await guest.connect(table)
        assert over(await play_out(guest))
        await guest.close()
        url = f"{base}/api/replays/{table}/mistakes"

        early = await http.get(url, headers=guest.headers)
        assert early.status_code == 409, early.text
        assert early.json()["error"]["code"] == "analysis/not_ready"
        record = parse_record((await http.get(f"{base}/api/tables/{table}/record")).json())
        # The first answer counts the plays already ("Analysing… 0 of 57 plays").
        asked = await http.post(f"{base}/api/replays/{table}/analysis")
        assert asked.status_code == 202, asked.text
        plays = sum(len(r.plays) for r in record.rounds)
        assert asked.json() == {"status": "running", "done": 0, "total": plays}
        seen = await until_done(http, base, table)
        done = seen[-1]
        assert done["status"] == "done", done
        assert all(s["total"] == plays for s in seen[:-1]), seen
        analysis = done["analysis"]

        # The player's own seat when none is named; any seat for anyone.
        mine = await http.get(url, headers=guest.headers)
        assert mine.status_code == 200, mine.text
        body = mine.json()
        assert body["viewer"] == 0 and body["table"] == table
        assert body["players"][0] == "Amira"
        check(body, analysis, record, 0)
        theirs = await http.get(url, params={"seat": 1})
        assert theirs.status_code == 200, theirs.text
        assert theirs.json()["viewer"] is None
        check(theirs.json(), analysis, record, 1)
        assert (await http.get(url, params={"seat": 0})).json()["positions"] == body["positions"]

        for params in ({}, {"seat": 2}, {"seat": -1}):
            refused = await http.get(url, params=params)
            assert refused.status_code == 422, (params, refused.text)
            assert refused.json()["error"]["code"] == "analysis/bad_seat"
        assert (await http.get(url, params={"seat": "x"})).status_code == 422
        missing = await http.get(f"{base}/api/replays/no-such-table/mistakes?seat=0")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "table/not_found"

        # The analysis's words for a play are passed on when it has them (an older one
        # has none); a play the record does not allow there (an analysis that does not fit)
        # is left out.
        assert all(k in p for p in body["positions"] for k in PASSED)
        for seat in (0, 1):
            plays = [{k: v for k, v in p.items() if k not in PASSED} for p in analysis["plays"]]
            costly: list[Any] = mistaken({"plays": plays}, seat)  # the costliest first
            if len(costly) < 2:
                continue
            costly[0].update(reason="missed-basra", best_points=12, made_points=0,
                             best_basra=True, gave_basra=False, made_take=[])
            costly[1]["best"] = "KS:KC+KD+KH"  # never legal: one king takes at most three
            read = mistakes(record, {**analysis, "plays": plays}, seat)
            keys = [(p["round"], p["number"]) for p in read["positions"]]
            assert (costly[1]["round"], costly[1]["number"]) not in keys
            first = next(p for p in read["positions"]
                         if (p["round"], p["number"]) == (costly[0]["round"], costly[0]["number"]))
            assert first["reason"] == "missed-basra" and first["best_points"] == 12
            assert first["best_basra"] is True and first["made_take"] == []
            assert sum("reason" in p for p in read["positions"]) == 1
            break
        else:
            raise AssertionError("no seat made two clear mistakes")

    serve(tmp_path, scenario, analysis_iterations=ITERATIONS, bot_workers=1)
