"""Operations, end to end: ``GET /metrics`` scraped from a real server while guests play
(counts that move as they should), ``GET /ready`` with the database and a real Redis (up,
refusing, hanging), and the event loop ``basra serve`` runs on (uvloop).

The Redis tests use the server at 127.0.0.1:6379 and fail when it is not there: they never
skip."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvloop
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from basra import __version__
from basra.server import metrics
from basra.server.app import create_app, services_of
from basra.server.main import server_config
from basra.store import sql
from server_harness import (
    Guest,
    ServeProcess,
    at_a_bot_table,
    database,
    free_port,
    run,
    running_server,
    serve,
)

REDIS = "redis://127.0.0.1:6379/0"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(http: httpx.AsyncClient, base: str) -> Samples:
    """Every sample of one scrape of ``/metrics``, by name and labels."""
    r = await http.get(f"{base}/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    found: Samples = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str) -> float:
    """A sample's sum over all its label values."""
    return sum(v for (n, _), v in samples.items() if n == name)


def labels_of(samples: Samples, name: str) -> list[dict[str, str]]:
    return [dict(labels) for (n, labels) in samples if n == name]


async def play_turns_of(guest: Guest, plays: int) -> dict[str, Any]:
    """``guest`` plays its first legal play ``plays`` times, then waits for its turn: the
    state it is then in."""
    for _ in range(plays):
        state = await guest.until(guest.my_turn)
        await guest.play_first_legal()
        await guest.until(lambda s, v=state["version"]: s["version"] > v)
    return await guest.until(guest.my_turn)


# ---------------------------------------------------------------------------------------
# /metrics


def test_metrics_count_the_plays_tables_connections_and_commits_of_a_real_server(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        before = await scrape(http, base)
        assert value(before, "basra_tables", status="playing") == 0
        assert value(before, "basra_connections") == 0
        amira = await at_a_bot_table(base, http, "Amira")
        omar = await at_a_bot_table(base, http, "Omar")
        try:
            states = await asyncio.gather(play_turns_of(amira, 4), play_turns_of(omar, 3))
            after = await scrape(http, base)
        finally:
            await amira.close()
            await omar.close()
        assert not amira.errors and not omar.errors
        for state in states:  # still the first round: its plays are every play made
            assert state["view"]["round"] == 1
        made = sum(len(s["view"]["plays"]) for s in states)
        by_players = 4 + 3
        by_bots = made - by_players
        assert by_bots > 0

        def moved(name: str, **labels: str) -> float:
            return value(after, name, **labels) - value(before, name, **labels)

        assert moved("basra_plays_total", by_bot="false") == by_players
        assert moved("basra_plays_total", by_bot="true") == by_bots
        assert moved("basra_play_broadcast_seconds_count") == made
        assert moved("basra_play_broadcast_seconds_sum") > 0
        assert moved("basra_play_broadcast_seconds_bucket", le="+Inf") == made
        thought = (total(after, "basra_bot_think_seconds_count")
                   - total(before, "basra_bot_think_seconds_count"))
        assert thought >= by_bots
        assert moved("basra_bot_think_seconds_count", level="random") == thought
        assert value(after, "basra_bot_queue") == 0  # both players' turn: no bot thinks
        assert moved("basra_store_commit_seconds_count", operation="create player") == 2
        assert moved("basra_store_commit_seconds_count", operation="create table") == 2
        assert (moved("basra_store_commit_seconds_count", operation="store plays")
                + moved("basra_store_commit_seconds_count", operation="store play")) >= 1
        assert {"operation": "add round"} in labels_of(after, "basra_store_commit_seconds_count")
        # what the node holds, read at the scrape: two tables playing, two sockets open
        assert value(after, "basra_tables", status="playing") == 2
        assert value(after, "basra_tables", status="waiting") == 0
        assert value(after, "basra_connections") == 2
        assert value(after, "basra_tickets") == 0
        [node] = labels_of(after, "basra_node_info")
        assert node == {"node": metrics.node_id(), "version": __version__,
                        "loop": "uvloop.Loop"}
        # the loop's lag, sampled every 50 ms while the server runs
        assert moved("basra_loop_lag_seconds_count") >= 1
        assert value(after, "basra_loop_lag_seconds_bucket", le="+Inf") == value(
            after, "basra_loop_lag_seconds_count")
        for event in metrics.LEASE_EVENTS:  # there from the start, at zero or more
            assert ("basra_lease_moves_total", (("event", event),)) in after

        # the sockets closed: the gauge follows
        deadline = time.monotonic() + 10
        while value(await scrape(http, base), "basra_connections") != 0:
            assert time.monotonic() < deadline, "the connections gauge never fell to 0"
            await asyncio.sleep(0.05)

    serve(tmp_path, scenario)


def test_lease_moves_count_by_event_and_refuse_an_unknown_one() -> None:
    def count(event: str) -> float:
        found = metrics.REGISTRY.get_sample_value("basra_lease_moves_total",
                                                  {"event": event})
        assert found is not None
        return found

    before = {event: count(event) for event in metrics.LEASE_EVENTS}
    metrics.lease_moved("acquired")
    metrics.lease_moved("acquired")
    metrics.lease_moved("lost")
    assert count("acquired") == before["acquired"] + 2
    assert count("lost") == before["lost"] + 1
    assert count("adopted") == before["adopted"]
    with pytest.raises(ValueError, match="renewed_late"):
        metrics.lease_moved("moved")


def test_the_node_id_defaults_to_host_and_pid_and_may_be_named() -> None:
    assert metrics.default_node_id() == f"{socket.gethostname()}:{os.getpid()}"
    named = metrics._node.get("id")
    try:
        assert metrics.node_info("node-7") == "node-7" == metrics.node_id()
        assert metrics.node_info() == metrics.default_node_id() == metrics.node_id()
    finally:
        metrics._node.pop("id", None)
        if named is not None:
            metrics._node["id"] = named


def test_store_operations_are_named_without_their_ids() -> None:
    assert sql.operation_of("create player p_1x") == "create player"
    assert sql.operation_of("set seat 3 of table t9") == "set seat"
    assert sql.operation_of("store 12 plays") == "store plays"
    assert sql.operation_of("store play 4 of round 2 of table t9") == "store play"
    assert metrics.committed in sql.COMMIT_HOOKS


# ---------------------------------------------------------------------------------------
# /ready


def with_redis(app: FastAPI, url: str) -> FastAPI:
    """``app`` with ``services.redis`` a client of ``url``, opened and closed in the server's
    own event loop (around the app's lifespan), as cluster mode does."""
    held = services_of(app)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(served: FastAPI) -> AsyncIterator[None]:
        held.redis = Redis.from_url(url, socket_connect_timeout=5)
        try:
            async with inner(served):
                yield
        finally:
            redis, held.redis = held.redis, None
            await redis.aclose()

    app.router.lifespan_context = lifespan
    return app


@contextlib.contextmanager
def silent_listener() -> Iterator[int]:
    """A port that takes connections and never answers (a stuck Redis): its number."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


async def ready_of(base: str) -> tuple[int, dict[str, Any], float]:
    """``/ready``'s status, body and the seconds it took."""
    async with httpx.AsyncClient(timeout=30) as http:
        started = time.monotonic()
        r = await http.get(f"{base}/ready")
        return r.status_code, r.json(), time.monotonic() - started


def ready_with(tmp_path: Path, redis_url: str | None) -> tuple[int, dict[str, Any], float]:
    with database("sqlite", tmp_path) as store:
        settings = store.settings()
        app = create_app(settings)
        if redis_url is not None:
            with_redis(app, redis_url)
        with running_server(settings, app) as base:
            answer: tuple[int, dict[str, Any], float] = run(ready_of(base))
            return answer


def test_ready_without_redis_names_the_database_and_no_redis(tmp_path: Path) -> None:
    status, body, _ = ready_with(tmp_path, None)
    assert (status, body) == (200, {"ready": True, "database": True, "redis": None})


def test_ready_with_a_real_redis(tmp_path: Path) -> None:
    status, body, _ = ready_with(tmp_path, REDIS)
    assert (status, body) == (200, {"ready": True, "database": True, "redis": True})


def test_ready_is_503_when_redis_refuses(tmp_path: Path) -> None:
    status, body, _ = ready_with(tmp_path, f"redis://127.0.0.1:{free_port()}/0")
    assert (status, body) == (503, {"ready": False, "database": True, "redis": False})


def test_ready_never_hangs_on_a_redis_that_does_not_answer(tmp_path: Path) -> None:
    with silent_listener() as port:
        status, body, took = ready_with(tmp_path, f"redis://127.0.0.1:{port}/0")
    assert (status, body) == (503, {"ready": False, "database": True, "redis": False})
    assert took < 5, f"/ready took {took:.1f} s"


# ---------------------------------------------------------------------------------------
# the event loop


def test_basra_serve_config_picks_uvloop() -> None:
    factory = server_config(create_app(), "warning").get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_basra_serve_runs_on_uvloop_and_is_scraped(tmp_path: Path) -> None:
    process = ServeProcess(["--data-dir", str(tmp_path / "data"), "--log-level", "info"],
                           tmp_path / "serve.log")
    with process.running():
        assert process.proc is not None
        pid = process.proc.pid
        r = httpx.get(f"{process.base}/metrics", timeout=10)
        ready = httpx.get(f"{process.base}/ready", timeout=10)
    assert r.status_code == 200 and ready.status_code == 200
    assert ready.json() == {"ready": True, "database": True, "redis": None}
    infos = [s for f in text_string_to_metric_families(r.text) for s in f.samples
             if s.name == "basra_node_info"]
    assert [s.labels["loop"] for s in infos] == ["uvloop.Loop"]
    assert infos[0].labels["node"] == f"{socket.gethostname()}:{pid}"
    messages = [json.loads(line)["message"] for line in process.log_lines()]
    assert any(m.startswith("server ready") and "on uvloop.Loop" in m
               for m in messages), messages
