"""Cluster mode against this machine's real PostgreSQL and Redis (they fail, never skip,
when absent): the lease and the fence on their own, then three real ``basra serve``
processes as one site, one of them SIGKILLed mid-match."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from basra.match.records import parse_record
from basra.match.replay import verify
from basra.server.cluster.fence import FencedTables, LeaseLost
from basra.server.cluster.leases import Leases
from basra.store import open_store
from basra.store.base import PlayRow, SeatRow, TableRow
from server_harness import (
    Backend,
    Guest,
    PlayLog,
    ServeProcess,
    database,
    new_guest,
    over,
    record_plays,
    run,
)

REDIS = "redis://127.0.0.1:6379/0"
SERVE = ["--seed-window", "0", "--summary-window", "0", "--bot-delay", "0", "--clock", "30",
         "--grace", "60", "--no-limits", "--log-level", "info", "--bot-workers", "1"]


def prefix() -> str:
    """Keys of this test's own in the shared Redis."""
    return f"basra-test-{uuid.uuid4().hex[:10]}:"


# ---------------------------------------------------------------------------------------
# the lease and the fence


def test_a_lease_has_one_holder_is_renewed_and_lapses() -> None:
    async def scenario() -> None:
        redis = Redis.from_url(REDIS)
        keys = prefix()
        a = Leases(redis, "node-a", ttl=0.6, prefix=keys)
        b = Leases(redis, "node-b", ttl=0.6, prefix=keys)
        try:
            assert await a.acquire("t1")
            assert not await b.acquire("t1")
            assert a.holds("t1") and not b.holds("t1")
            assert await a.owners(["t1", "t2"]) == {"t1": "node-a", "t2": None}
            for _ in range(3):  # renewed, it outlives its time to live
                await asyncio.sleep(0.3)
                assert await a.renew() == []
            assert a.holds("t1") and await b.owner("t1") == "node-a"
            await asyncio.sleep(0.7)  # not renewed: it lapses, and its holder knows it
            assert not a.holds("t1")
            assert await b.acquire("t1")
            assert await a.renew() == ["t1"]  # lost: a never renews b's lease
            assert await b.owner("t1") == "node-b"
            await a.release("t1")  # releasing what is not yours changes nothing
            assert await b.owner("t1") == "node-b"
            await b.release("t1")
            assert await a.owner("t1") is None
        finally:
            await redis.aclose()

    run(scenario())


def test_a_node_that_lost_its_lease_cannot_store_a_play(tmp_path: Path) -> None:
    """The fence: the local check refuses a write once the lease may have lapsed, and the
    store's (table, round, index) key refuses the second writer of a play."""
    async def scenario() -> None:
        redis = Redis.from_url(REDIS)
        keys = prefix()
        store = open_store(None, tmp_path)
        await store.open()
        a = Leases(redis, "node-a", ttl=0.5, prefix=keys)
        b = Leases(redis, "node-b", ttl=0.5, prefix=keys)
        fenced: list[tuple[str, str]] = []
        on_a = FencedTables(store, a, lambda t: fenced.append(("a", t)))
        on_b = FencedTables(store, b, lambda t: fenced.append(("b", t)))

        def play(index: int, card: str) -> PlayRow:
            return PlayRow(1, index, (index - 1) % 2, card, (), False, datetime.now(UTC))

        try:
            assert await a.acquire("T")
            row = TableRow("T", "bot", "egyptian", 2, False, 30.0, "random", "playing",
                           datetime.now(UTC))
            await on_a.create_table(row, [SeatRow(0, None, "random", ""),
                                          SeatRow(1, None, "random", "")])
            await on_a.add_round("T", 1, "ab" * 32, "cd" * 32)
            await on_a.start_round("T", 1, "seed")
            await on_a.add_play("T", play(1, "2H"))
            with pytest.raises(LeaseLost):  # b holds no lease: refused before the store
                await on_b.add_play("T", play(2, "3H"))
            assert fenced == [("b", "T")]

            await asyncio.sleep(0.6)  # a's lease lapses (a is paused, say)
            with pytest.raises(LeaseLost):
                await on_a.add_play("T", play(2, "4H"))
            assert await b.acquire("T")
            await on_b.add_play("T", play(2, "5H"))
            # a still believes it holds the lease (its clock lies): the store refuses it
            a.until["T"] = time.monotonic() + 60
            with pytest.raises(LeaseLost, match="another node wrote first"):
                await on_a.add_play("T", play(2, "6H"))
            with pytest.raises(LeaseLost, match="another node wrote first"):
                await on_a.start_round("T", 1, "another seed")
            stored = await store.load("T")
            assert stored is not None
            assert [(p.index, p.card) for p in stored.plays] == [(1, "2H"), (2, "5H")]
            assert fenced[1:] == [("a", "T"), ("a", "T"), ("a", "T")]
        finally:
            await store.close()
            await redis.aclose()

    run(scenario())


# ---------------------------------------------------------------------------------------
# three nodes, one killed


async def play_on(guest: Guest, table_id: str, nodes: list[ServeProcess],
                  rng: random.Random, timeout: float = 180) -> dict[str, object]:
    """Play a legal play whenever it is the guest's turn, until the match ends; when the
    socket closes (its node died, or the table moved), reconnect through the next node
    that answers, as the browser does."""
    deadline = time.monotonic() + timeout
    sent = -1
    ring = itertools.cycle(nodes)
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"{guest.nickname}: the match did not end"
        try:
            state = await guest.until(
                lambda s, last=sent: over(s) or (guest.my_turn(s) and s["version"] > last),
                left)
            if over(state):
                return state
            sent = state["version"]
            legal = state["view"]["legal"]
            await guest.play_legal(rng.randrange(len(legal)))
        except (ConnectionClosed, OSError):
            await guest.close()
            while True:
                node = next(ring)
                if node.proc is None or node.proc.poll() is not None:
                    continue
                guest.base = node.base
                try:
                    await guest.connect(table_id)
                    break
                except (ConnectionClosed, OSError, InvalidHandshake):
                    # (a node just killed may still take the connection, then drop it)
                    await asyncio.sleep(0.2)


async def owner_pid(redis: Redis, keys: str, table_id: str) -> int:
    node = await redis.get(f"{keys}lease:{table_id}")
    assert node is not None
    return int(node.decode().split(":")[1])


def three_nodes(backend: Backend, keys: str, folder: Path, *more: str) -> list[ServeProcess]:
    """Three ``basra serve`` nodes of one cluster on ``backend`` (this run's Redis keys,
    ``more`` flags), not started yet."""
    return [ServeProcess([*backend.serve_args(), "--redis", REDIS, "--redis-prefix", keys,
                          *more, *SERVE], folder / f"node{i}.log") for i in range(3)]


async def in_cluster_of(nodes: list[ServeProcess],
                        scenario: Callable[[Redis], Awaitable[None]]) -> None:
    """Start ``nodes`` side by side, then run ``scenario`` with a Redis client of its own."""
    await asyncio.gather(*(asyncio.to_thread(n.start) for n in nodes))
    redis = Redis.from_url(REDIS)
    try:
        await scenario(redis)
    finally:
        await redis.aclose()


def test_three_nodes_are_one_site_and_survive_a_sigkill(tmp_path: Path) -> None:
    keys = prefix()
    with database("postgresql", tmp_path) as backend:
        nodes = three_nodes(backend, keys, tmp_path)

        async def in_cluster(redis: Redis) -> None:
            n0, n1, n2 = (n.base for n in nodes)
            async with httpx.AsyncClient(timeout=30) as http:
                # Quick match: Amira waits on node 0, Badr asks on node 1; they meet.
                amira = await new_guest(n0, http, "Amira")
                badr = await new_guest(n1, http, "Badr")
                r = await http.post(f"{n0}/api/quick-match", headers=amira.headers, json={})
                ticket = r.json()["ticket"]
                assert r.json()["status"] == "waiting"
                waiting = asyncio.create_task(http.get(
                    f"{n0}/api/quick-match/{ticket}?wait=10", headers=amira.headers))
                await asyncio.sleep(0.3)
                r = await http.post(f"{n1}/api/quick-match", headers=badr.headers, json={})
                r = await http.get(f"{n1}/api/quick-match/{r.json()['ticket']}?wait=10",
                                   headers=badr.headers)
                assert r.json()["status"] == "matched", r.text
                quick = r.json()["table"]
                assert (await waiting).json()["table"] == quick

                # An invite: Camila opens a table on node 2, Dana joins through node 0.
                camila = await new_guest(n2, http, "Camila")
                dana = await new_guest(n0, http, "Dana")
                created = (await http.post(f"{n2}/api/tables/private",
                                           headers=camila.headers, json={})).json()
                private = created["table"]["id"]
                r = await http.post(f"{n0}/api/tables/join", headers=dana.headers,
                                    json={"invite_code": created["table"]["invite_code"]})
                assert r.status_code == 200, r.text
                assert r.json()["seat"] == 1

                # A bot table made on node 1, played through node 0.
                eli = await new_guest(n1, http, "Eli")
                r = await http.post(f"{n1}/api/tables/bot", headers=eli.headers,
                                    json={"bot_level": "random"})
                solo = r.json()["table"]["id"]

            owner = await owner_pid(redis, keys, quick)
            by_pid = {n.proc.pid: n for n in nodes if n.proc is not None}
            victim = by_pid[owner]
            # Everyone connected where it puts them on and off the owner of the quick table.
            seats = [(amira, quick, n0), (badr, quick, n1), (camila, private, n2),
                     (dana, private, n1), (eli, solo, n0)]
            for guest, table_id, base in seats:
                guest.base = base
                await guest.connect(table_id)
            rng = random.Random(7)
            games = [asyncio.create_task(play_on(g, t, nodes, random.Random(rng.random())))
                     for g, t, _ in seats]

            def plays_seen(guest: Guest) -> int:
                view = guest.state.get("view") if guest.state else None
                return 0 if view is None else len(view["plays"]) + 100 * view["round"]

            while plays_seen(amira) < 106:  # into round 1's plays: kill the owner
                await asyncio.sleep(0.02)
            killed_at = time.monotonic()
            await asyncio.to_thread(victim.kill)

            def rebuilt(guest: Guest) -> bool:
                """A state of the table as another node rebuilt it (versions after a
                rebuild start from the clock's milliseconds)."""
                return bool(guest.state) and guest.state["version"] > 10**12

            while not rebuilt(amira):
                assert time.monotonic() - killed_at < 20, "the quick table was not adopted"
                await asyncio.sleep(0.02)
            adopted_after = time.monotonic() - killed_at
            new_owner = await owner_pid(redis, keys, quick)
            assert new_owner != owner
            rebuilt_at = plays_seen(amira)
            while plays_seen(amira) <= rebuilt_at:  # and it goes on
                await asyncio.sleep(0.02)
            failover = time.monotonic() - killed_at
            assert failover < 15, (f"the quick table went on only after {failover:.1f} s "
                                   f"(adopted after {adopted_after:.1f} s)")

            finals = await asyncio.gather(*games)
            assert all(over(f) for f in finals)  # type: ignore[arg-type]
            for guest, _, _ in seats:
                await guest.close()

            # Signing out through one node closes the session's socket held by another.
            here, there = (n for n in nodes if n is not victim)
            async with httpx.AsyncClient(timeout=30) as http:
                r = await http.post(f"{here.base}/api/account", headers=eli.headers,
                                    json={"username": "Eli", "password": "Eli's password"})
                assert r.status_code == 201, r.text
                eli.base = here.base
                await eli.connect(solo)
                await eli.until(lambda s: bool(s.get("table")))
                r = await http.delete(f"{there.base}/api/sessions", headers=eli.headers)
                assert r.status_code == 200, r.text
            assert eli.socket is not None
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(10):
                    while True:
                        await eli.socket.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
            await eli.close()

            survivor = next(n for n in nodes if n is not victim)
            async with httpx.AsyncClient(timeout=30) as http:
                for table_id in (quick, private, solo):
                    doc = (await http.get(f"{survivor.base}/api/tables/{table_id}/record")).json()
                    record = parse_record(json.dumps(doc))
                    checked = verify(record)
                    assert checked.ok, checked.failure
                    seen = PlayLog()
                    for guest, t, _ in seats:
                        if t == table_id:
                            seen.see_all(guest.seen)
                    # every play any guest saw, before and after the kill, exactly once
                    assert record_plays(record) == seen.rounds

        try:
            run(in_cluster_of(nodes, in_cluster))
            survivors = [n for n in nodes if n.proc is not None and n.proc.poll() is None]
            assert len(survivors) == 2
            for node in survivors:  # they shut down cleanly, and logged no error
                assert node.stop() == 0
                for line in node.log_lines():
                    entry = json.loads(line)
                    assert entry["level"] in ("info", "warning"), line
        finally:
            for node in nodes:
                node.kill()


# ---------------------------------------------------------------------------------------
# --workers N: N nodes on one machine


def node_processes(pid: int) -> list[int]:
    """The node processes a ``--workers`` supervisor runs (not multiprocessing's helper)."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        if b"resource_tracker" not in cmdline:
            found.append(int(child))
    return sorted(found)


def test_workers_runs_n_nodes_and_starts_a_dead_one_again(tmp_path: Path) -> None:
    keys = prefix()
    with database("postgresql", tmp_path) as backend:
        serve = ServeProcess([*backend.serve_args(), "--redis", REDIS, "--redis-prefix", keys,
                              "--workers", "2", *SERVE], tmp_path / "serve.log")
        try:
            serve.start()
            assert serve.proc is not None
            deadline = time.monotonic() + 30
            while len(node_processes(serve.proc.pid)) < 2:
                assert time.monotonic() < deadline, "two nodes did not start"
                time.sleep(0.1)
            first = node_processes(serve.proc.pid)
            # Both answer on the one address: a guest made through one plays through both.
            nodes_seen = set()
            for _ in range(40):
                with httpx.Client(timeout=10) as http:  # a new connection each time
                    text = http.get(f"{serve.base}/metrics").text
                nodes_seen |= {line.split('node="')[1].split('"')[0]
                               for line in text.splitlines()
                               if line.startswith("basra_node_info")}
                if len(nodes_seen) == 2:
                    break
            assert len(nodes_seen) == 2, nodes_seen
            os.kill(first[0], signal.SIGKILL)
            while True:  # the supervisor starts another
                now = node_processes(serve.proc.pid)
                if len(now) == 2 and first[0] not in now:
                    break
                assert time.monotonic() < deadline + 30, "the dead node was not replaced"
                time.sleep(0.1)
            assert httpx.get(f"{serve.base}/ready", timeout=10).json()["ready"] is True
            assert serve.stop() == 0  # SIGINT stops every node
            for pid in now:
                assert not Path(f"/proc/{pid}").exists() or b"zombie" in Path(
                    f"/proc/{pid}/status").read_bytes().lower()
        finally:
            serve.kill()


@pytest.mark.parametrize(("args", "error"), [
    (["--workers", "2"], "--workers N runs a cluster on this machine: it needs --redis URL "
                         "(and a shared --db, PostgreSQL)"),
    (["--bot-workers", "0"], "--bot-workers 0 needs --redis (basra bot-worker processes "
                             "then think for the site)"),
])
def test_cluster_options_alone_are_refused_in_one_line(args: list[str], error: str) -> None:
    done = subprocess.run([sys.executable, "-m", "basra", "serve", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines()[-1] == f"basra serve: error: {error}"
    assert "Traceback" not in done.stderr


def test_the_redis_url_may_come_from_the_environment() -> None:
    """``$BASRA_REDIS`` stands for ``--redis`` (a password then never shows in ``ps``)."""
    env = {**os.environ, "BASRA_REDIS": "redis://127.0.0.1:1/0"}
    done = subprocess.run([sys.executable, "-m", "basra", "bot-worker"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("basra bot-worker: error: cannot reach Redis at "
                                  "redis://127.0.0.1:1")
    assert "Traceback" not in done.stderr
