"""A table's actor on its own, for its unit tests: no server, no HTTP, no database.

The actor is the real one (:class:`basra.server.table.actor.Table`), on the in-memory table
store (:class:`basra.store.memory.MemoryTableStore`), with settings that play a match in
moments. Its clients are real outboxes whose sockets read at once: every message the table
sends is decoded and kept, and the client holds the state a browser would (the last
``state`` with every ``played`` since applied). A client may play a random legal play on
its seat's turn, as a player who never waits.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from basra.server.config import Limits, Settings
from basra.server.table.actor import AbsentHook, RematchHook, Table
from basra.server.table.commands import Attach, Detach, FillBot, Incoming, Join
from basra.server.table.outbox import Outbox
from basra.server.wire.client_messages import parse_client_message
from basra.server.wire.server_messages import apply_played
from basra.store.base import SeatRow, TableKind, TableRow
from basra.store.memory import MemoryTableStore

FAST = Settings(seed_window_seconds=0.0, summary_seconds=0.0, bot_delay_seconds=0.0,
                clock_seconds=30.0, grace_seconds=600.0, arrival_seconds=5.0,
                limits=Limits.unlimited(), bot_seed="unit")
"""Rounds start as soon as their commitment reached everyone, bots answer at once, and
nobody's clock or grace period runs out unless a test says so."""

WAIT = 60.0
"""Seconds a client waits for what it expects, at most (a busy machine is slow)."""


class Reader:
    """A websocket as an outbox sees it: every text sent is read at once."""

    def __init__(self, read: Callable[[dict[str, Any]], None]) -> None:
        self.read = read
        self.closed_with: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        self.read(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = (code, reason)


class Client:
    """One connection to a table (``player_id`` None: a spectator), over a real outbox.
    With ``plays``, it plays a random legal play whenever its seat is to play."""

    def __init__(self, table: Table, player_id: str | None, *, plays: bool = False,
                 seed: str = "") -> None:
        self.table = table
        self.player_id = player_id
        self.plays = plays
        self.stop_when: Callable[[dict[str, Any]], bool] | None = None
        """Stop playing as soon as a state read satisfies this (not a poll later)."""
        self.rng = random.Random(f"{seed}:{player_id}")
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.socket = Reader(self.read)
        self.outbox = Outbox(self.socket)
        self.writer = asyncio.create_task(self.outbox.run())
        self.sent = -1
        """The version this client last played on (it plays once a version)."""

    # ------------------------------------------------------------------ reading

    def read(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "played":
            self.state = apply_played(self.state, message)
        else:
            return
        self.maybe_play()

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    @property
    def seat(self) -> int | None:
        return self.state.get("you")

    @staticmethod
    def my_turn(state: dict[str, Any]) -> bool:
        if not state or state["you"] is None or state["table"]["phase"] != "playing":
            return False
        return bool(state["view"]["turn"] == state["you"] and state["view"]["legal"])

    def maybe_play(self) -> None:
        if self.stop_when is not None and self.state and self.stop_when(self.state):
            self.plays = False
        if not self.plays or not self.my_turn(self.state) or self.state["version"] <= self.sent:
            return
        self.sent = self.state["version"]
        play = self.rng.choice(self.state["view"]["legal"])
        self.send_nowait({"type": "play", "version": self.sent, **play})

    async def until(self, done: Callable[[dict[str, Any]], bool],
                    seconds: float = WAIT) -> dict[str, Any]:
        """The state this client holds once ``done`` holds of it."""
        deadline = time.monotonic() + seconds
        while not (self.state and done(self.state)):
            assert time.monotonic() < deadline, (self.player_id, self.state)
            await asyncio.sleep(0.01)
        return self.state

    async def next_message(self, kind: str, seconds: float = WAIT,
                           since: int | None = None) -> dict[str, Any]:
        """The first message of ``kind`` this client reads from now on (or since it had
        read ``since`` messages)."""
        seen = len(self.messages) if since is None else since
        deadline = time.monotonic() + seconds
        while True:
            found = [m for m in self.messages[seen:] if m["type"] == kind]
            if found:
                return found[0]
            assert time.monotonic() < deadline, (self.player_id, kind, self.messages[-3:])
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------------ acting

    async def attach(self) -> None:
        await self.table.inbox.put(Attach(self.outbox, self.player_id))

    def send_nowait(self, message: dict[str, Any]) -> None:
        parsed = parse_client_message(json.dumps(message))
        self.table.inbox.put_nowait(Incoming(self.outbox, parsed))

    async def send(self, message: dict[str, Any]) -> None:
        self.send_nowait(message)
        await asyncio.sleep(0)

    async def answer_to(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """What the table sends this client after ``message``, up to a ``ping``'s
        ``pong`` (the inbox takes one command at a time, in order)."""
        seen = len(self.messages)
        self.send_nowait(message)
        self.send_nowait({"type": "ping"})
        await self.next_message("pong")
        answers = self.messages[seen:]
        return answers[:next(i for i, m in enumerate(answers) if m["type"] == "pong")]

    async def drop(self) -> None:
        """The connection is lost (as a socket that dies): the table is told."""
        self.outbox.close("the peer went away", code=1001)
        await self.table.inbox.put(Detach(self.outbox))

    async def close(self) -> None:
        self.writer.cancel()
        await asyncio.gather(self.writer, return_exceptions=True)


def new_table(store: MemoryTableStore, players: list[str | None], *,
              kind: TableKind = "private", table_id: str = "t1",
              settings: Settings = FAST) -> tuple[TableRow, list[SeatRow]]:
    """A table's row and seats: a seat for each of ``players`` (None: an empty seat), the
    first its owner; the players are known to the store."""
    seat_rows = []
    for number, player_id in enumerate(players):
        if player_id is not None and player_id not in store.players:
            store.add_player(player_id, player_id.title())
        nickname = None if player_id is None else player_id.title()
        seat_rows.append(SeatRow(number, player_id, None, "", nickname))
    full = all(p is not None for p in players)
    row = TableRow(id=table_id, kind=kind, variant="egyptian", seats=len(players),
                   teams=False, clock_seconds=settings.clock_seconds, bot_level="random",
                   status="playing" if full else "waiting", created_at=datetime.now(UTC),
                   invite_code="CODE" + table_id.upper() if kind == "private" else None,
                   owner_id=players[0])
    return row, seat_rows


async def started(store: MemoryTableStore, players: list[str | None], *,
                  kind: TableKind = "private", table_id: str = "t1",
                  settings: Settings = FAST, on_rematch: RematchHook | None = None,
                  on_absent: AbsentHook | None = None) -> Table:
    """A new table of ``players`` (see :func:`new_table`), its actor started."""
    row, seat_rows = new_table(store, players, kind=kind, table_id=table_id,
                               settings=settings)
    table = await Table.create(row, seat_rows, store, settings, on_rematch,
                               on_absent=on_absent)
    table.start()
    return table


def fast(**changes: Any) -> Settings:
    return replace(FAST, **changes)


async def join(table: Table, player_id: str) -> int:
    """A player takes a seat by invite: its number (a refusal raised as it is)."""
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    await table.inbox.put(Join(player_id, player_id.title(), future))
    return await asyncio.wait_for(future, WAIT)


async def fill_bot(table: Table, by: str, seat: int | None = None,
                   level: str = "random") -> int:
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    await table.inbox.put(FillBot(seat, level, by, future))
    return await asyncio.wait_for(future, WAIT)


def in_play(state: dict[str, Any]) -> bool:
    return bool(state["table"]["phase"] == "playing" and state["view"]["round"] >= 1)


def over(state: dict[str, Any]) -> bool:
    return bool(state["table"]["status"] == "finished")
