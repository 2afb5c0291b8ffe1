"""The table actor plays its match through the match driver (basra.match.driver): a person's play
reaches the engine once, and a whole match at a real table, through real sockets, gives the
record the driver's reference gives for the same seeds, parts and players."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from basra.bots import make_bot
from basra.game.cards import NAMES, names_of
from basra.game.engine import Match, Play
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.game.views import view_from_json
from basra.match import driver as driver_module
from basra.match.driver import Player
from basra.match.records import parse_record, to_json
from match.test_driver import reference_match
from server_harness import (
    bot_table,
    new_guest,
    play_match_sending_parts,
    play_turns,
    serve,
    two_at_a_private_table,
)


def test_a_persons_play_is_applied_to_the_engine_once(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people and no bot: the one play made reaches the engine exactly once (checked,
    stored, then applied with what the check returned)."""
    calls: list[int] = []
    real = driver_module.engine_play

    def counting(match: Match, move: Play, seat: int | None = None) -> Match:
        calls.append(seat if seat is not None else -1)
        return real(match, move, seat)

    monkeypatch.setattr(driver_module, "engine_play", counting)

    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        _, amira, omar = await two_at_a_private_table(base, http)
        try:
            state = await amira.until(lambda s: s["view"]["turn"] is not None)
            mover = amira if amira.my_turn(state) else omar
            await mover.until(mover.my_turn)
            assert calls == []
            await mover.play_first_legal()
            after = await mover.until(lambda s: len(s["view"]["plays"]) == 1)
            assert calls == [after["view"]["plays"][0]["seat"]]
        finally:
            await amira.close()
            await omar.close()

    serve(tmp_path, scenario)


BOT_SEED = "same-match"
EGYPTIAN = find_variant("egyptian")


def amira_bot() -> Player:
    """What Amira's client plays: an easy bot's choice on the view the table sent her."""
    return make_bot("easy", seed="amira")


def amira_client() -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Amira's scripted client: ``amira_bot``'s choice on the view the table sent."""
    bot = amira_bot()

    def choose(view: dict[str, Any]) -> dict[str, Any]:
        move = bot.choose(view_from_json(view))
        return {"card": NAMES[move.card], "take": names_of(move.take)}

    return choose


def test_a_whole_match_at_a_table_is_the_drivers_reference_match(tmp_path: Path) -> None:
    """Amira (a scripted client playing an easy bot's choices, sending her own parts)
    against the table's random bot, seeded by the settings: the table's record equals
    :func:`test_driver.reference_match` for the server seeds the table revealed, Amira's
    parts (the bot's derived) and the same two players."""
    async def scenario(base: str, http: httpx.AsyncClient) -> dict[str, Any]:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        parts: dict[int, str] = {}
        try:
            await play_match_sending_parts(amira, parts, choose=amira_client(),
                                           part=lambda number: f"amira-{number}")
        finally:
            await amira.close()
        record: dict[str, Any] = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert sorted(parts) == list(range(1, len(record["rounds"]) + 1))
        return {"record": record, "parts": parts}

    # the window waits for Amira's part (the round starts the moment it comes)
    played = serve(tmp_path, scenario, seed_window_seconds=60.0, bot_seed=BOT_SEED)
    record = parse_record(played["record"])
    server_seeds = {r.fairness.nonce: r.fairness.server_seed for r in record.rounds
                    if r.fairness is not None}
    assert len(server_seeds) == len(record.rounds) >= 2

    def seeds(number: int) -> tuple[str, Sequence[str | None]]:
        return server_seeds[number], [played["parts"][number], None]

    expected = reference_match(EGYPTIAN, Seating(2), ["Amira", "bot:random"],
                               [amira_bot(), make_bot("random", seed=f"{BOT_SEED}:1")], seeds)
    assert to_json(record) == to_json(expected)
    assert played["record"] == to_json(expected)


class FaultyBot:
    """A bot with a bug: every other call it answers an illegal play, or raises."""

    name = "bot:faulty"
    level = "faulty"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: Any) -> Play:
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError("the bot crashed")
        wrong = Play(next(c for c in range(52) if c not in view.hand), 0)  # not in hand
        assert wrong not in view.legal
        return wrong


def test_a_faulty_bot_never_stalls_its_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """A bot that raises, or answers an illegal play, is a fault of ours: it is logged and
    the bot's seat plays its first legal play, so the person's match goes on to its end."""
    bots: list[FaultyBot] = []

    def faulty(level: str, seed: object = None, **_: object) -> FaultyBot:
        bots.append(FaultyBot())
        return bots[-1]

    monkeypatch.setattr("basra.server.table.seats.make_bot", faulty)

    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        await amira.connect(await bot_table(base, http, amira, "random"))
        try:
            await play_turns([amira], lambda s: len(s["view"]["plays"]) >= 6, timeout=60)
            assert amira.state is not None
            assert [p["seat"] for p in amira.state["view"]["plays"]].count(1) >= 3
        finally:
            await amira.close()

    with caplog.at_level("ERROR", logger="basra.table"):
        serve(tmp_path, scenario)
    assert any(b.calls >= 2 for b in bots)
    text = caplog.text
    assert "failed to choose" in text and "an illegal play" in text
