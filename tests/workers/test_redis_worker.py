"""Searching bots think in bot workers anywhere, through Redis (basra.workers.redis_bots,
``basra bot-worker``): the same decision as the local pool, a worker killed mid-search is
replaced and the decision still comes, no worker at all means the medium bot plays right
after the deadline, a late job is searched with the least budget (or dropped when far past).

Against the real Redis at 127.0.0.1:6379: a test fails, not skips, when it is absent. Every
test works under a key prefix of its own."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from redis.asyncio import Redis

from basra.bots import make_bot
from basra.bots.hard import HardBot
from basra.cli import main as cli
from basra.game.engine import legal_match_plays, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import shuffled_deck
from basra.game.views import SeatView, view
from basra.match.analysis import play_values
from basra.workers.factory import bot_service
from basra.workers.jobs import GRACE, GROUP, Job, Keys, budget_at
from basra.workers.local import LocalPool
from basra.workers.redis_bots import RedisBots
from basra.workers.service import decision_seed

URL = "redis://127.0.0.1:6379/0"


def mid_round_view(plays: int = 5) -> SeatView:
    """A seat's view some plays into a round, on its turn with several legal plays."""
    rng = random.Random(7)
    match = start_round(new_match(find_variant("egyptian"), 2),
                        shuffled_deck("11" * 32, "worker", 1))
    for _ in range(plays):
        match = play(match, rng.choice(legal_match_plays(match)))
    assert match.round is not None
    seen = view(match, match.round.turn)
    assert len(seen.legal) > 1 and seen.plays
    return seen


def fresh_prefix() -> str:
    return f"test-bot-worker:{uuid.uuid4().hex}:"


def drop_keys(prefix: str) -> None:
    client = redis.Redis.from_url(URL)
    try:
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
    finally:
        client.close()


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of this test's own (Redis must answer: no skipping)."""
    name = fresh_prefix()
    client = redis.Redis.from_url(URL, socket_connect_timeout=5)
    try:
        client.ping()
    finally:
        client.close()
    yield name
    drop_keys(name)


@dataclass
class BotWorker:
    """A ``basra bot-worker --processes 1`` subprocess and its keys."""

    process: subprocess.Popen[bytes]
    prefix: str
    log: Path

    @property
    def keys(self) -> Keys:
        return Keys(self.prefix)

    def child(self) -> int:
        """The pid of its one worker process (not multiprocessing's resource tracker)."""
        pid = self.process.pid
        for text in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            if b"spawn_main" in Path(f"/proc/{text}/cmdline").read_bytes():
                return int(text)
        raise AssertionError("the bot worker has no worker process")


def consumers(prefix: str) -> list[dict[str, object]]:
    client = redis.Redis.from_url(URL)
    try:
        found: list[dict[str, object]] = client.xinfo_consumers(Keys(prefix).jobs, GROUP)
        return found
    finally:
        client.close()


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotWorker]:
    """One bot-worker command for the module, ready (its worker has joined the group);
    stopped by SIGTERM at the end, which must be clean."""
    name = fresh_prefix()
    log = tmp_path_factory.mktemp("bot-worker") / "stderr.log"
    with log.open("wb") as err:
        process = subprocess.Popen([sys.executable, "-m", "basra", "bot-worker", "--redis", URL,
                                    "--redis-prefix", name, "--processes", "1"], stderr=err)
    try:
        end = time.monotonic() + 30
        while not (process.poll() is None and Path(log).exists() and _joined(name)):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < end, "the bot worker did not start"
            time.sleep(0.05)
        yield BotWorker(process, name, log)
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
        assert consumers(name) == []  # its worker left the group
        assert "Traceback" not in log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        drop_keys(name)


def _joined(prefix: str) -> bool:
    try:
        return len(consumers(prefix)) == 1
    except redis.ResponseError:  # no stream or group yet
        return False


async def stream_length(prefix: str) -> int:
    client = Redis.from_url(URL)
    try:
        return int(await client.xlen(Keys(prefix).jobs))
    finally:
        await client.aclose()


def test_a_bot_worker_decides_as_the_local_pool(worker: BotWorker) -> None:
    """With a fixed iteration budget and time to spare, the decision a bot worker sends
    back is the one the local pool makes: the same seed (bot, round, play number), the same
    view read back from JSON."""
    seen = mid_round_view()
    bot = make_bot("hard", seed="table:9", iterations=300, time_cap=30)

    async def through_redis() -> object:
        bots = RedisBots(URL, prefix=worker.prefix)
        try:
            choice = await bots.choose(bot, seen, time.time() + 30)
        finally:
            await bots.aclose()
        assert bots.fallbacks == 0
        return choice

    pool = LocalPool(1)
    try:
        local = asyncio.run(pool.choose(bot, seen, time.time() + 30))
    finally:
        pool.close()
    assert asyncio.run(through_redis()) == local
    assert local in seen.legal


def test_a_bot_worker_values_a_play_for_an_analysis_as_the_local_pool(
        worker: BotWorker) -> None:
    """An analysis's job (level ``analysis``): every legal play valued by the expert, the
    same values as in the local pool and as ``basra analyse`` makes them in process."""
    seen = mid_round_view()

    async def through_redis() -> list[tuple[object, float]]:
        bots = RedisBots(URL, prefix=worker.prefix)
        try:
            return list(await bots.values(seen, "0|1|6", 40))
        finally:
            await bots.aclose()

    pool = LocalPool(1)
    try:
        local = asyncio.run(pool.values(seen, "0|1|6", 40))
    finally:
        pool.close()
    assert asyncio.run(through_redis()) == local == play_values(seen, "0|1|6", 40)
    assert sorted(p for p, _ in local) == sorted(seen.legal)


def test_a_late_job_is_searched_with_the_least_budget(worker: BotWorker) -> None:
    """Its deadline passed (but within the grace): one rollout per legal play, an answer at
    once, not its millions of iterations and not the fallback."""
    seen = mid_round_view()
    bot = make_bot("hard", seed=5, iterations=10**8, time_cap=0.9)

    async def late() -> tuple[object, float, int]:
        bots = RedisBots(URL, prefix=worker.prefix)
        try:
            started = time.monotonic()
            choice = await bots.choose(bot, seen, time.time() - 0.1)
            return choice, time.monotonic() - started, bots.fallbacks
        finally:
            await bots.aclose()

    choice, took, fallbacks = asyncio.run(late())
    assert choice in seen.legal and fallbacks == 0 and took < GRACE
    assert budget_at(100.0, now=100.05) == pytest.approx(0.001)
    assert budget_at(100.0, now=99.0) == pytest.approx(1.0)
    assert budget_at(100.0, now=100.0 + GRACE + 0.01) is None  # the server fell back


def test_far_late_and_malformed_jobs_are_dropped(worker: BotWorker) -> None:
    """A job later than the grace (the server answered it already) and a malformed one are
    acknowledged and deleted, never answered."""
    seen = mid_round_view()
    far = Job(uuid.uuid4().hex, "hard", "s|1|5", 10**8, time.time() - 5, seen)
    medium = json.loads(far.encode())
    medium.update(id=uuid.uuid4().hex, level="medium", deadline=time.time() + 5)
    garbage = uuid.uuid4().hex

    async def scenario() -> None:
        client = Redis.from_url(URL)
        keys = worker.keys
        try:
            for data in (far.encode(), json.dumps(medium).encode(), b"{not json"):
                await client.xadd(keys.jobs, {"job": data})
            end = time.monotonic() + 10
            while await client.xlen(keys.jobs):
                assert time.monotonic() < end, "the jobs were not taken"
                await asyncio.sleep(0.02)
            for job_id in (far.id, medium["id"], garbage):
                assert not await client.exists(keys.reply(job_id))
            assert (await client.xpending(keys.jobs, GROUP))["pending"] == 0
        finally:
            await client.aclose()

    asyncio.run(scenario())
    with pytest.raises(ValueError, match="searching level"):
        Job.decode(json.dumps(medium), time.time())
    with pytest.raises(ValueError, match="deadline"):
        Job.decode(Job(far.id, "hard", "s", 5, time.time() + 3600, seen).encode(), time.time())


def test_a_worker_killed_mid_search_is_replaced_and_the_decision_comes(
        worker: BotWorker) -> None:
    """SIGKILLed while it searches, the worker process is replaced under the same consumer
    name; the replacement takes the job back and answers before the server's fallback."""
    seen = mid_round_view()
    bot = make_bot("hard", seed="killed", iterations=3000, time_cap=10)
    assert isinstance(bot, HardBot)
    first = worker.child()

    async def scenario() -> tuple[object, float, int]:
        bots = RedisBots(URL, prefix=worker.prefix)
        client = Redis.from_url(URL)
        try:
            started = time.monotonic()
            # (a deadline with room for a replacement to start on a loaded machine)
            thinking = asyncio.create_task(bots.choose(bot, seen, time.time() + 25))
            end = time.monotonic() + 5
            while (await client.xpending(worker.keys.jobs, GROUP))["pending"] == 0:
                assert time.monotonic() < end, "no worker took the job"
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)
            os.kill(first, signal.SIGKILL)  # mid-search
            choice = await asyncio.wait_for(thinking, 35)
            return choice, time.monotonic() - started, bots.fallbacks
        finally:
            await client.aclose()
            await bots.aclose()

    choice, took, fallbacks = asyncio.run(scenario())
    assert choice in seen.legal and fallbacks == 0 and took < 25
    assert worker.child() != first
    assert "it is replaced" in worker.log.read_text()


def test_with_no_worker_the_medium_bot_plays_right_after_the_deadline(prefix: str) -> None:
    seen = mid_round_view()
    bot = make_bot("hard", seed="alone", iterations=300, time_cap=30)

    async def alone() -> tuple[object, float, int, int]:
        bots = RedisBots(URL, prefix=prefix)  # no worker on this prefix, none of its own
        try:
            started = time.monotonic()
            choice = await bots.choose(bot, seen, time.time() + 0.3)
            took = time.monotonic() - started
        finally:
            await bots.aclose()
        return choice, took, bots.fallbacks, await stream_length(prefix)

    choice, took, fallbacks, left = asyncio.run(alone())
    assert 0.3 + GRACE - 0.05 <= took < 0.3 + GRACE + 0.5
    assert fallbacks == 1 and left == 0  # the job was withdrawn
    assert choice == make_bot("medium", seed=decision_seed(bot, seen)).choose(seen)


def test_cluster_mode_runs_bot_workers_on_the_node(prefix: str) -> None:
    """With a Redis URL the lobby's bots go through Redis, and the node runs
    ``bot_workers`` worker processes of its own that take the jobs: no ``basra
    bot-worker`` is needed on one machine."""
    local = bot_service(None)
    assert type(local) is LocalPool
    local.close()
    service = bot_service(URL, workers=3)
    assert isinstance(service, RedisBots) and service.workers == 3
    assert service.keys.jobs == "basra:bots:jobs"  # under the site's prefix
    service.close()  # nothing was started
    assert service.local is None
    default = bot_service(URL)
    assert isinstance(default, RedisBots) and default.workers == (os.cpu_count() or 1)

    seen = mid_round_view()
    bot = make_bot("hard", seed="node", iterations=200, time_cap=30)

    async def on_the_node() -> tuple[object, int]:
        bots = bot_service(URL, prefix=prefix, workers=1)
        assert isinstance(bots, RedisBots)
        try:
            return await bots.choose(bot, seen, time.time() + 20), bots.fallbacks
        finally:
            await asyncio.to_thread(bots.close)  # as the lobby closes it

    choice, fallbacks = asyncio.run(on_the_node())
    assert choice in seen.legal and fallbacks == 0
    assert consumers(prefix) == []  # the node's worker left the group as it stopped


def test_an_unreachable_redis_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bot-worker", "--redis", "redis://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("basra bot-worker: error: cannot reach Redis at redis://127.0.0.1:1")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert cli.main(["bot-worker", "--redis", "http://127.0.0.1"]) == 2
    assert capsys.readouterr().err.startswith("basra bot-worker: error: --redis: ")
