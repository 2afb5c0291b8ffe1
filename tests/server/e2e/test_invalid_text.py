"""Text that is not text (issue 8), end to end: a nickname of combining marks only, a lone
surrogate or invisible fillers, and a seat part, a message type or a card with a lone
surrogate or a control character, each gets a code, never a traceback, and the socket lives
on."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from server_harness import at_a_bot_table, pending_round, serve


def test_text_that_is_not_valid_gets_a_code_never_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for raw in ('{"nickname": "\\u0301\\u0301\\u0301"}',  # combining marks only
                    '{"nickname": "\\ud800abc"}',  # a lone surrogate
                    '{"nickname": "\\u3164\\u3164"}',  # Hangul fillers: nothing visible
                    '{"nickname": "__--"}'):
            r = await http.post(f"{base}/api/guests", content=raw,
                                headers={"content-type": "application/json"})
            assert r.status_code == 422, (raw, r.text)
            assert r.json()["error"]["code"] in ("guest/bad_nickname", "request/invalid",
                                                 "guest/nickname_invisible")
        amira = await at_a_bot_table(base, http)
        await amira.until(lambda s: pending_round(s) == 1)
        for part in ('"\\ud800"', '"abc\\udfffdef"', '"tab\\there"', '"nul\\u0000"'):
            await amira.send_raw('{"type": "seed", "round": 1, "client_seed": ' + part + "}")
            await amira.ping()
            assert amira.errors[-1]["code"] == "seed/bad", part
        for raw in ('{"type": "\\ud800"}', '{"type": "play", "version": 1, '
                    '"card": "\\ud800", "take": []}'):
            await amira.send_raw(raw)
            await amira.ping()
            assert re.match(r"protocol/", amira.errors[-1]["code"]), raw
        await amira.send({"type": "seed", "round": 1, "client_seed": "ok"})
        await amira.until(lambda s: s["view"]["round"] == 1)  # the socket lives on
        await amira.close()

    serve(tmp_path, scenario, seed_window_seconds=30.0)
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
