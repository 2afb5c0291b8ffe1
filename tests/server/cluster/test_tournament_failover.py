"""An arena on three `basra serve` nodes (PostgreSQL and Redis): the node directing it is
SIGKILLed while it runs; another node takes the event over (its lease lapses), the players
reconnect through the survivors, and the event ends with every pairing decided once and
standings that the scoring, done again by hand, agrees with."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from pathlib import Path

import httpx
from redis.asyncio import Redis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from server.cluster.test_cluster import in_cluster_of, play_on, prefix, three_nodes
from server.e2e.test_accounts import an_account
from server.e2e.tournament_kit import an_event, arena_points, sheets, until_status
from server_harness import Guest, ServeProcess, database, new_guest

PLAYERS = 8


def alive(nodes: list[ServeProcess]) -> list[ServeProcess]:
    return [n for n in nodes if n.proc is not None and n.proc.poll() is None]


async def take_part(guest: Guest, entrant: str, tournament: str, nodes: list[ServeProcess],
                    stop: asyncio.Event, rng: random.Random) -> int:
    """Keep the event's page open on some live node (reopening it on another when its
    node dies) and play every table it is paired to, as the browser finds it: told
    ``paired``, or in the event's first message to a page (re)opened after the pairing was
    told; how many tables it played."""
    tables: asyncio.Queue[str] = asyncio.Queue()
    ring = itertools.cycle(nodes)

    async def keep_page() -> None:
        while not stop.is_set():
            node = next(ring)
            if node not in alive(nodes):
                continue
            base = node.base.replace("http://", "ws://")
            try:
                async with connect(f"{base}/ws/tournaments/{tournament}?auth=1") as page:
                    await page.send(json.dumps({"type": "hello", "token": guest.token}))
                    async for raw in page:
                        message = json.loads(raw)
                        if message["type"] == "paired":
                            await tables.put(message["table"])
                        elif message["type"] == "mine" and message["row"]["table"]:
                            # Back on a page: the player's own row names their table.
                            await tables.put(message["row"]["table"])
            except (ConnectionClosed, OSError, InvalidHandshake):
                pass
            await asyncio.sleep(0.2)

    keeper = asyncio.create_task(keep_page())
    played: set[str] = set()
    try:
        while not stop.is_set():
            try:
                table = await asyncio.wait_for(tables.get(), 0.5)
            except TimeoutError:
                continue
            if table in played:  # told again by a director that took the event over
                continue
            played.add(table)
            for node in itertools.cycle(nodes):
                if node not in alive(nodes):
                    continue
                guest.base = node.base
                try:
                    await guest.connect(table)
                    break
                except (ConnectionClosed, OSError, InvalidHandshake):
                    await asyncio.sleep(0.2)
            await play_on(guest, table, nodes, rng)
            await guest.close()
    finally:
        keeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keeper
        await guest.close()  # (failed or not: no socket left for a later test to find)
    return len(played)


def test_an_arena_survives_the_sigkill_of_the_node_directing_it(tmp_path: Path) -> None:
    keys = prefix()
    with database("postgresql", tmp_path) as backend:
        nodes = three_nodes(backend, keys, tmp_path, "--tournament-schedule", "none",
                            "--tournament-last-pairing", "15")

        async def in_cluster(redis: Redis) -> None:
            async with httpx.AsyncClient(timeout=30) as http:
                owner = await an_account(nodes[0].base, http, "Organiser")
                event = await an_event(nodes[0].base, http, owner, starts_in=4.0,
                                       format="arena", minutes=1, rated=False)
                tid = event["id"]
                guests = [await new_guest(nodes[i % 3].base, http, f"Player {i}")
                          for i in range(PLAYERS)]
                entrants = []
                for i, guest in enumerate(guests):
                    r = await http.post(f"{nodes[i % 3].base}/api/tournaments/{tid}/join",
                                        headers=guest.headers, json={})
                    assert r.status_code == 200, r.text
                    entrants.append(r.json()["entrant"])
                stop = asyncio.Event()
                rng = random.Random(27)
                tasks = [asyncio.create_task(take_part(g, e, tid, nodes, stop,
                                                       random.Random(rng.random())))
                         for g, e in zip(guests, entrants, strict=True)]
                try:
                    await until_status(nodes[1].base, http, tid, "running", 30)
                    await asyncio.sleep(15)  # a few waves in
                    leader = await redis.get(f"{keys}tournament:lease:{tid}")
                    assert leader is not None
                    pid = int(leader.decode().split(":")[1])
                    victim = next(n for n in nodes if n.proc is not None
                                  and n.proc.pid == pid)
                    killed_at = time.monotonic()
                    await asyncio.to_thread(victim.kill)
                    survivor = alive(nodes)[0].base
                    while True:  # another node takes the lead
                        now = await redis.get(f"{keys}tournament:lease:{tid}")
                        if now is not None and now != leader:
                            break
                        assert time.monotonic() - killed_at < 15, "nobody took the event"
                        await asyncio.sleep(0.2)
                    await until_status(survivor, http, tid, "finished", 120)
                finally:
                    stop.set()
                    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
                failed = [o for o in outcomes if isinstance(o, BaseException)]
                if failed:  # (every player's task ended first, its socket closed)
                    raise failed[0]
                counts = [o for o in outcomes if isinstance(o, int)]
                results = (await http.get(f"{survivor}/api/tournaments/{tid}/results")).json()

                # Every pairing decided, once; an entrant once a wave; the scoring by hand.
                pairings = [p for r in results["rounds"] for p in r["pairings"]]
                assert len(pairings) >= PLAYERS and sum(counts) >= 2 * PLAYERS - 2
                assert all(p["points"] is not None for p in pairings)
                assert len({p["table"] for p in pairings}) == len(pairings)
                rows = {row["entrant"]: row for row in results["standings"]}
                for entrant, games in sheets(results["rounds"]).items():
                    waves = [g[0] for g in games]
                    assert len(waves) == len(set(waves))
                    assert rows[entrant]["sheet"] == arena_points([(g[2], g[3]) for g in games])

        try:
            asyncio.run(in_cluster_of(nodes, in_cluster))
        finally:
            for node in nodes:
                node.kill()
