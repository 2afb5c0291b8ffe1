"""``basra records``: a real server's finished match written as an anonymised record that
replays as the match was played (no name a person chose, no fairness data) and that
``basra puzzles mine --records`` reads."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from basra.cli.main import main
from basra.match.records import parse_record
from basra.match.replay import replay
from basra.puzzles.mine import mine
from server_harness import bot_table, new_guest, over, play_out, serve


def test_a_finished_match_is_exported_anonymised(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> str:
        guest = await new_guest(base, http, "Amira Khalil")
        table = await bot_table(base, http, guest)
        await guest.connect(table)
        assert over(await play_out(guest))
        await guest.close()
        record = (await http.get(f"{base}/api/tables/{table}/record")).json()
        return json.dumps(record)

    played = parse_record(serve(tmp_path, scenario))
    out = tmp_path / "records"
    assert main(["records", "--data-dir", str(tmp_path / "data"), "--out", str(out)]) == 0
    assert "1 matches written" in capsys.readouterr().out
    [written] = sorted(out.glob("*.json"))
    text = written.read_text("utf-8")
    assert "Amira" not in text and "fairness" not in text
    exported = parse_record(text)
    assert exported.players[0] == "Player 1" and exported.players[1].startswith("bot:")
    assert replay(exported).match.totals == replay(played).match.totals
    assert [r.plays for r in exported.rounds] == [r.plays for r in played.rounds]
    report = mine("egyptian", 1, 1, [str(out)])
    assert report.records == 1 and not report.skipped_records

    # Another variant, or none finished: nothing written, no failure.
    assert main(["records", "--data-dir", str(tmp_path / "data"), "--variant", "serbian",
                 "--out", str(tmp_path / "none")]) == 0
    assert main(["records", "--out", str(out), "--players", "1"]) == 2
    # Never over an earlier export: its files would mix with the new ones.
    assert main(["records", "--data-dir", str(tmp_path / "data"), "--out", str(out)]) == 1
    assert "not empty" in capsys.readouterr().err
