"""Tournament players for the end-to-end tests: a guest with its event page open (the
tournament socket), who sits at each table it is paired to and plays it out, and the
arithmetic the tests check the server's standings against, written again here by hand."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedOK

from server_harness import Guest, over


@dataclass
class Entrant:
    """A player in an event: its page's socket, what it heard, the tables it played."""

    guest: Guest
    tournament: str
    page: ClientConnection | None = None
    heard: list[dict[str, Any]] = field(default_factory=list)
    paired: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    tables: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    async def join(self, http: httpx.AsyncClient, password: str | None = None) -> None:
        r = await http.post(f"{self.guest.base}/api/tournaments/{self.tournament}/join",
                            headers=self.guest.headers, json={"password": password})
        assert r.status_code == 200, r.text

    async def open_page(self) -> None:
        base = self.guest.base.replace("http://", "ws://")
        self.page = await connect(f"{base}/ws/tournaments/{self.tournament}?auth=1",
                                  max_size=None)
        await self.page.send(json.dumps({"type": "hello", "token": self.guest.token}))
        self.reader = asyncio.create_task(self._read(self.page))

    async def _read(self, page: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for raw in page:
                message = json.loads(raw)
                self.heard.append(message)
                if message["type"] == "paired":
                    await self.paired.put(message["table"])

    async def close_page(self) -> None:
        if self.page is not None:
            await self.page.close()
            self.page = None
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
            self.reader = None

    async def play_table(self, table_id: str, *, stop_after: int | None = None) -> None:
        """Sit at the table and play the first legal play at each turn, to the end (or
        leave after ``stop_after`` plays of its own)."""
        self.tables.append(table_id)
        guest = self.guest
        await guest.connect(table_id)
        made = 0
        try:
            sent = -1
            while True:
                try:
                    state = await guest.until(
                        lambda s, last=sent: over(s) or (guest.my_turn(s) and s["version"] > last),
                        120)
                except ConnectionClosedOK:
                    # The server closed the table ("closed", then 1000): it left memory,
                    # decided (an opponent gone and the table given up, on a slow machine
                    # before this player saw its last state). The browser leaves it too.
                    assert any(m["type"] == "closed" for m in guest.log[-3:]), guest.log[-3:]
                    return
                if over(state) or (stop_after is not None and made >= stop_after):
                    return
                sent = state["version"]
                await guest.play_first_legal()
                made += 1
        finally:
            await guest.close()

    async def play_on(self, stop: asyncio.Event, *, never_come: bool = False,
                      drop_after: int | None = None,
                      hold: asyncio.Event | None = None) -> None:
        """Play every table the event pairs this entrant to until ``stop``: or never come
        to them (the page stays open), or drop in the first match after ``drop_after``
        plays (leaving the table and the page). With ``hold``, every table after the first
        waits for it to be set."""
        while not stop.is_set():
            try:
                table_id = await asyncio.wait_for(self.paired.get(), 0.5)
            except TimeoutError:
                continue
            if never_come:
                self.tables.append(table_id)
                continue
            if hold is not None and self.tables:
                await hold.wait()
            await self.play_table(table_id, stop_after=drop_after)
            if drop_after is not None:
                await self.close_page()
                return


async def an_event(base: str, http: httpx.AsyncClient, owner: Guest, starts_in: float = 3.0,
                   **options: Any) -> dict[str, Any]:
    """A new event made by ``owner``, starting in ``starts_in`` seconds."""
    starts_at = datetime.now(UTC) + timedelta(seconds=starts_in)
    body = {"name": "Test Cup", "starts_at": starts_at.isoformat(), **options}
    r = await http.post(f"{base}/api/tournaments", headers=owner.headers, json=body)
    assert r.status_code == 200, r.text
    event: dict[str, Any] = r.json()["tournament"]
    return event


async def until_status(base: str, http: httpx.AsyncClient, tournament: str, status: str,
                       timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = await http.get(f"{base}/api/tournaments/{tournament}")
        assert r.status_code == 200, r.text
        state: dict[str, Any] = r.json()
        if state["event"]["status"] == status:
            return state
        assert time.monotonic() < deadline, f"the event is {state['event']['status']}"
        await asyncio.sleep(0.2)


def arena_points(results: list[tuple[float, bool]]) -> list[int]:
    """An arena entrant's points per match, in order, from (game points, absent): a win 2,
    a draw 1, a loss 0; a win or a draw counts double after two wins in a row (lichess's
    streak), until a match is not won; an absent entrant's match is 0 and ends the streak."""
    out, streak = [], 0
    for points, absent in results:
        fire = streak >= 2
        if absent:
            out.append(0)
            streak = 0
        elif points == 1:
            out.append(4 if fire else 2)
            streak += 1
        elif points == 0.5:
            out.append(2 if fire else 1)
            streak = 0
        else:
            out.append(0)
            streak = 0
    return out


def sheets(rounds: list[dict[str, Any]]) -> dict[str, list[tuple[int, str | None, float, bool]]]:
    """Each entrant's matches in order: (round, opponent or None, points, absent)."""
    out: dict[str, list[tuple[int, str | None, float, bool]]] = {}
    for rnd in rounds:
        for pairing in rnd["pairings"]:
            entrants, points = pairing["entrants"], pairing["points"]
            assert points is not None, pairing
            for i, entrant in enumerate(entrants):
                opponent = entrants[1 - i] if len(entrants) == 2 else None
                out.setdefault(entrant, []).append(
                    (rnd["round"], opponent, points[i], entrant in pairing["absent"]))
    return out
