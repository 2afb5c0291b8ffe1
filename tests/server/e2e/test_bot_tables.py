"""Playing against bots, end to end: a play sent on the state before the bot's answer is
stale (refused with a code that says so, the table unmoved); a hint is a legal play, given at
a bot table on your turn only; and a whole round against the expert, a level of the lobby
like the others, is played and scored."""

from __future__ import annotations

from pathlib import Path

import httpx

from server.e2e.refusals import refused
from server_harness import (
    at_a_bot_table,
    bot_table,
    new_guest,
    next_message,
    play_turns,
    serve,
    two_at_a_private_table,
)


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
