"""basra-ws/2's ``played`` message, at a real table actor (store, outboxes, bots, clock),
its sockets replaced by readers: a client that starts from a snapshot and applies only
``played`` messages holds, at every version, the very state the server would have sent in
full, seat by seat and as a spectator, for a whole match of each variant; each seat's
message is encoded once for all its connections; ``sync`` answers a full state, within the
rate limits; and a client that misses a ``played`` message sees the gap and catches up with
``sync``."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from basra.server.config import Limits, Settings
from basra.server.table import snapshot
from basra.server.table.actor import Table
from basra.server.table.commands import Attach, Incoming
from basra.server.table.outbox import Outbox
from basra.server.wire.client_messages import parse_client_message
from basra.server.wire.server_messages import PLAYED_PLAY, PLAYED_VIEW, ServerMessage, apply_played
from basra.store import open_store
from basra.store.base import SeatRow, TableRow
from server_harness import Guest, at_a_bot_table, changes, over, play_turns, serve

SEATINGS = [("egyptian", 2, False), ("arabic101", 2, False), ("lebanese", 4, True),
            ("serbian", 2, False)]
CLOCK = 0.25
"""A short turn clock: the client at seat 1 lets it run out now and then, so that the
seat's bot plays for it (``by_bot``) while it is connected."""


class Wire:
    """A websocket as an outbox sees it: every text sent is read at once."""

    def __init__(self, read: Callable[[dict[str, Any]], None]) -> None:
        self.read = read
        self.texts = 0

    async def send_text(self, data: str) -> None:
        self.texts += 1
        self.read(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


@dataclass
class Client:
    """One connection's client: it holds the last ``state`` with every ``played`` since
    applied (as a browser does), and, if it ``plays``, plays a random legal play on its
    seat's turn (but lets every ``idle_every``-th of its first 40 turns' clock run out)."""

    table: Table
    seat: int | None
    rng: random.Random
    plays: bool = True
    idle_every: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    held: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Each version reached by a ``played`` message: the state it left this client with."""
    played: list[dict[str, Any]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    sent = -1
    turns = 0

    def __post_init__(self) -> None:
        self.wire = Wire(self.read)
        self.outbox = Outbox(self.wire)

    def read(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        self.kinds[kind] += 1
        if kind == "state":
            self.state = message
        elif kind == "played":
            self.state = apply_played(self.state, message)
            self.held[message["version"]] = self.state
            self.played.append(message)
        else:
            return
        self.maybe_play()

    def maybe_play(self) -> None:
        view = self.state["view"]
        if (not self.plays or view["turn"] != self.seat or not view["legal"]
                or self.state["version"] <= self.sent):
            return
        self.sent = self.state["version"]
        self.turns += 1
        if self.idle_every and self.turns % self.idle_every == 0 and self.turns <= 40:
            return
        play = self.rng.choice(view["legal"])
        raw = json.dumps({"type": "play", "version": self.sent, **play})
        self.table.inbox.put_nowait(Incoming(self.outbox, parse_client_message(raw)))


def without_time_left(state: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """A state without the clock's time left (it runs between two readings), and that."""
    clock = state["table"]["clock"]
    if clock is None:
        return state, None
    rest = {k: v for k, v in clock.items() if k != "remaining_ms"}
    return {**state, "table": {**state["table"], "clock": rest}}, clock["remaining_ms"]


def same_state(held: dict[str, Any], full: dict[str, Any], where: str,
               ran_ms: int = 2000) -> None:
    """``held`` is ``full`` but for the clock's time left, read at most ``ran_ms`` later
    (on a busy machine a moment can be long)."""
    a, left_a = without_time_left(held)
    b, left_b = without_time_left(full)
    assert a["view"] == b["view"], where
    assert a["table"] == b["table"], where
    assert a == b, where
    assert (left_a is None) == (left_b is None), where
    if left_a is not None and left_b is not None:
        assert 0 <= left_b - left_a <= ran_ms, (where, left_a, left_b)


async def whole_match(tmp_path: Path, variant: str, seats: int, teams: bool,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(None, tmp_path / variant)
    await store.open()
    settings = Settings(data_dir=tmp_path / variant, seed_window_seconds=0.0,
                        summary_seconds=0.0, bot_delay_seconds=0.0, clock_seconds=CLOCK,
                        grace_seconds=600.0, limits=Limits.unlimited())
    seat_rows = []
    for n in range(seats):
        player = await store.create_player(f"p{n}-{variant}", f"Player {n}", f"hash{n}{variant}")
        seat_rows.append(SeatRow(n, player.id, None, "", player.nickname))
    row = TableRow(id=f"t-{variant}", kind="private", variant=variant, seats=seats,
                   teams=teams, clock_seconds=CLOCK, bot_level="random", status="playing",
                   created_at=datetime.now(UTC))
    table = await Table.create(row, seat_rows, store, settings)

    # What the server would send in full at each version a played message makes.
    truth: dict[tuple[int, int | None], dict[str, Any]] = {}
    broadcasts: list[int] = []
    real_broadcast = table.flow.broadcast_play

    def recording(by_bot: bool) -> None:
        broadcasts.append(table.version)
        for seat in (*range(seats), None):
            truth[table.version, seat] = json.loads(json.dumps(
                table.state_for(seat).to_json()))
        real_broadcast(by_bot)

    monkeypatch.setattr(table.flow, "broadcast_play", recording)
    encoded: Counter[str] = Counter()
    real_encode = snapshot.encode

    def counting(message: ServerMessage) -> str:
        encoded[message.type] += 1
        return real_encode(message)

    monkeypatch.setattr(snapshot, "encode", counting)

    rng = random.Random(f"played-{variant}")
    clients = [Client(table, n, rng, idle_every=7 if n == 1 else 0) for n in range(seats)]
    clients.append(Client(table, 0, rng, plays=False))  # a second tab of seat 0
    clients += [Client(table, None, rng), Client(table, None, rng)]  # two spectators
    writers = [asyncio.create_task(c.outbox.run()) for c in clients]
    table.start()
    try:
        for c in clients:
            player_id = None if c.seat is None else seat_rows[c.seat].player_id
            await table.inbox.put(Attach(c.outbox, player_id))
        deadline = time.monotonic() + 240
        while not all(c.state and over(c.state) for c in clients):
            assert time.monotonic() < deadline, f"{variant}: the match did not end"
            await asyncio.sleep(0.05)
        final = {seat: json.loads(json.dumps(table.state_for(seat).to_json()))
                 for seat in (*range(seats), None)}
    finally:
        await table.stop()
        for w in writers:
            w.cancel()
        await asyncio.gather(*writers, return_exceptions=True)
        await store.close()

    rounds = len(final[None]["view"]["results"])
    if rounds < 2:
        raise OneRound(variant)
    assert len(broadcasts) > 40 * rounds, (variant, len(broadcasts))
    for c in clients:
        who = f"{variant}, seat {c.seat}"
        # Every played message reached every connection, and each left its client holding
        # the full state of its version.
        assert sorted(c.held) == sorted(broadcasts), who
        for version, held in c.held.items():
            same_state(held, truth[version, c.seat], f"{who}, version {version}")
        same_state(c.state, final[c.seat], f"{who}, the end")
        # Full states only when the round is not going on from the play: a deal, a
        # round's end, the match's end, seating, arrivals (a handful per round).
        assert c.kinds["played"] == len(broadcasts)
        assert c.kinds["state"] < 12 * rounds, (who, c.kinds)
        for message in c.played:
            assert set(message) == {"type", "version", "by_bot", "clock", "spectators",
                                    *PLAYED_PLAY, *PLAYED_VIEW}, who
            if c.seat is None:
                assert message["hand"] == [] and message["legal"] == [], who
            elif message["turn"] != c.seat:
                assert message["legal"] == [], who
    by_bot = Counter(m["by_bot"] for m in clients[1].played if m["seat"] == 1)
    assert by_bot[True] and by_bot[False], (variant, by_bot)  # the clock ran out, at times
    # Encoded once per seat and once for the spectators, whatever the connections.
    assert encoded["played"] == len(broadcasts) * (seats + 1), (variant, encoded)


class OneRound(Exception):
    """The match ended in its first round (the deal is the server's random one, and in
    arabic101 every clear is a basra: random plays now and then reach 101 in one round), so
    it crossed no round's end."""


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS,
                         ids=[f"{v}-{n}{'t' if t else ''}" for v, n, t in SEATINGS])
def test_played_messages_rebuild_every_full_state(tmp_path: Path, variant: str, seats: int,
                                                  teams: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for attempt in range(4):  # a match of one round is played again, on a new deal
        try:
            asyncio.run(whole_match(tmp_path / str(attempt), variant, seats, teams,
                                    monkeypatch))
            return
        except OneRound:
            monkeypatch.undo()
    pytest.fail(f"{variant}: four matches in a row ended in their first round")


# ---------------------------------------------------------------------------------------
# sync and gaps, over real sockets


def test_sync_answers_the_full_state_as_held_and_is_rate_limited(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        watcher = Guest(base, "Watcher")
        try:
            await play_turns([amira], lambda s: len(s["view"]["plays"]) >= 3)
            held = await amira.until(amira.my_turn)  # nobody else moves now
            table_id = held["table"]["id"]
            assert [m for m in amira.log if m["type"] == "played"], "no played message"
            await amira.send({"type": "sync"})
            version, before = await amira.ping()
            answers = changes(before)
            assert [m["type"] for m in answers] == ["state"] and version == held["version"]
            same_state(answers[0], held, "sync", ran_ms=10_000)
            await watcher.connect(table_id)
            await watcher.until(lambda s: s["version"] == version)
            await watcher.send({"type": "sync"})
            _, before = await watcher.ping()
            assert [m["type"] for m in changes(before)] == ["state"]
            assert changes(before)[0]["you"] is None and changes(before)[0]["view"]["hand"] == []
            # A bucket of its own: 5 at once (one taken above), then 30 a minute; the rest
            # dropped and said so (each one: a sync is no flood of the socket's bucket).
            for _ in range(60):
                await amira.send({"type": "sync"})
            await asyncio.sleep(3)  # the message bucket fills again: the ping is not dropped
            _, before = await amira.ping()
            kinds = Counter(m["type"] for m in before)
            codes = {m["code"] for m in before if m["type"] == "error"}
            assert codes == {"protocol/rate_limited"}, before[-3:]
            assert Limits().sync_burst - 1 <= kinds["state"] <= Limits().sync_burst, kinds
            assert any("full states a minute" in m["message"] for m in before
                       if m["type"] == "error")
        finally:
            await amira.close()
            await watcher.close()

    serve(tmp_path, scenario, limits=Limits())


class Lossy(Guest):
    """A guest whose connection loses one ``played`` message (the ``lose``-th)."""

    lose = 3
    count = 0

    async def take_played(self, message: dict[str, Any]) -> None:
        self.count += 1
        if self.count == self.lose:
            return
        await super().take_played(message)


def test_a_client_that_misses_a_played_message_sees_the_gap_and_syncs(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        lossy = Lossy(base, "Amira", amira.token, amira.player_id, sync_on_gap=True)
        try:
            state = await amira.until(lambda s: s["view"]["round"] == 1)
            await lossy.connect(state["table"]["id"])  # a second tab, that loses one
            await lossy.until(lambda s: s["view"]["round"] == 1)
            asked = len([m for m in lossy.log if m["type"] == "state"])
            # Amira plays on; both tabs follow.
            await play_turns([amira], lambda s: len(s["view"]["plays"]) >= 12)
            await amira.until(amira.my_turn)  # nobody else moves now
            version, _ = await amira.ping()
            await lossy.until(lambda s: s["version"] == version)
            assert lossy.gaps == 1
            # The gap was answered by one full state, and the tab holds the server's state.
            assert len([m for m in lossy.log if m["type"] == "state"]) == asked + 1
            same_state(lossy.state, amira.state, "after the gap")
        finally:
            await amira.close()
            await lossy.close()

    serve(tmp_path, scenario)


def test_a_played_message_that_does_not_follow_is_refused() -> None:
    state = {"type": "state", "version": 4, "you": 0, "table": {"clock": None},
             "view": {"round": 2, "plays": [], "hand": ["5H"]}}
    played = {"type": "played", "version": 5, "round": 2, "seat": 1, "card": "QS",
              "take": [], "basra": 0, "by_bot": True, "turn": 0, "deal": 1, "hand": ["5H"],
              "hand_counts": [1, 3], "floor": ["QS"], "stock_count": 40,
              "pile_counts": [0, 0], "basras": [0, 0], "basra_points": [0, 0],
              "last_taker": None, "legal": [{"card": "5H", "take": []}],
              "clock": {"seat": 0, "seconds": 30, "remaining_ms": 30000}, "spectators": 2}
    after = apply_played(state, played)
    assert after["version"] == 5 and after["view"]["plays"] == [
        {"seat": 1, "card": "QS", "take": [], "basra": 0}]
    assert after["table"]["clock"] == played["clock"] and after["view"]["floor"] == ["QS"]
    assert after["table"]["spectators"] == 2
    assert state["version"] == 4 and state["view"]["plays"] == []  # not changed
    for wrong in ({**played, "version": 6}, {**played, "version": 4},
                  {**played, "round": 3}, {k: v for k, v in played.items() if k != "floor"}):
        with pytest.raises(ValueError):
            apply_played(state, wrong)
    with pytest.raises(ValueError):
        apply_played({}, played)
