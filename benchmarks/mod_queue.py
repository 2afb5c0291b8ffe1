"""The moderators' queue with a hundred thousand reports stored (issue 31's goal: it
answers in under 100 ms).

A ``basra serve`` (``--no-limits``) on SQLite in a temporary folder, or on PostgreSQL
(``--db URL``: a fresh schema of its own, dropped after), whose store is filled first with
``--players`` accounts and ``--reports`` reports (a tenth of them open, the rest
dismissed or actioned, spread over a year, a few hundred flags of the server's own), and
``--log`` entries in the moderators' log; a moderator is made with ``basra admin grant``.
Then, ``--requests`` times each, one at a time over loopback, the client times:

- ``queue``: ``GET /api/mod/reports`` (the newest 50 open reports, their players' and
  reporters' names, the open count);
- ``done``: ``GET /api/mod/reports?status=actioned``;
- ``file``: ``GET /api/mod/players/ID`` of the most reported player (their reports, log,
  matches, leaves, standing and the assistance statistic);
- ``log``: ``GET /api/mod/log`` (the newest 100 entries).

    .venv/bin/python benchmarks/mod_queue.py --reports 100000
    .venv/bin/python benchmarks/mod_queue.py --reports 100000 \\
        --db postgresql+asyncpg://root@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import free_port, wait_ready

from basra.store import open_store
from basra.store.schema import mod_log, players, reports

REASONS = ("cheating", "leaving", "name", "phrases", "other")
CHUNK = 5000


def start(args: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "basra", "serve", "--port", str(port), "--no-limits",
         "--tournament-schedule", "none", "--bot-workers", "1", *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        asyncio.run(wait_ready(base))
    except RuntimeError:
        proc.kill()
        raise SystemExit("the server did not start") from None
    return proc, base


async def fill(url: str | None, schema: str | None, folder: Path, count: int, people: int,
               entries: int) -> str:
    """Accounts, reports and log entries, written in bulk; the most reported player's id."""
    store = open_store(url and f"{url}?schema={schema}", folder)
    await store.open()  # migrated
    await store.close()
    if url:
        engine = create_async_engine(url, poolclass=NullPool, connect_args={
            "server_settings": {"search_path": str(schema)}})
    else:
        engine = create_async_engine(f"sqlite+aiosqlite:///{folder / 'basra.sqlite3'}",
                                     poolclass=NullPool)
    rng = random.Random(31)
    now = datetime.now(UTC)
    ids = [f"p{n:06d}" for n in range(people)]
    async with engine.begin() as connection:
        await connection.execute(insert(players), [
            {"id": pid, "nickname": f"Player{n}", "token_hash": f"hash-{pid}",
             "created_at": now - timedelta(days=400), "username": f"Player{n}",
             "username_key": f"player{n}", "username_skeleton": f"player{n}"}
            for n, pid in enumerate(ids)])
    most = ids[0]
    for start_at in range(0, count, CHUNK):
        rows = []
        for n in range(start_at, min(count, start_at + CHUNK)):
            player = most if n % 50 == 0 else rng.choice(ids)
            status = "open" if n % 10 == 0 else rng.choice(("dismissed", "actioned"))
            flag = n % 300 == 0
            rows.append({
                "id": uuid.uuid4().hex, "reporter_id": None if flag else rng.choice(ids),
                "player_id": player, "reason": "cheating" if flag else rng.choice(REASONS),
                "note": "every play was the best one" if flag else "seen at the table",
                "status": status,
                "created_at": now - timedelta(seconds=rng.uniform(0, 365 * 86400)),
                "resolved_at": None if status == "open" else now,
                "resolved_by": None if status == "open" else ids[1],
                "outcome": "warn" if status == "actioned" else None,
                "detail": {"flagged": True, "score": 5.1} if flag else None,
                "table_id": None})
        async with engine.begin() as connection:
            await connection.execute(insert(reports), rows)
    async with engine.begin() as connection:
        await connection.execute(insert(mod_log), [
            {"at": now - timedelta(seconds=n), "moderator_id": ids[1],
             "moderator_name": "Player1", "player_id": rng.choice(ids),
             "player_name": "someone", "action": "warn", "reason": "a reason",
             "report_id": None, "detail": None} for n in range(entries)])
        if engine.dialect.name == "postgresql":
            await connection.execute(text("ANALYZE"))
    await engine.dispose()
    return most


async def drop(url: str, schema: str) -> None:
    engine = create_async_engine(url, poolclass=NullPool)
    async with engine.begin() as connection:
        await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    await engine.dispose()


def timed(http: httpx.Client, url: str, headers: dict[str, str], count: int) -> list[float]:
    out = []
    for _ in range(count):
        start = time.perf_counter()
        r = http.get(url, headers=headers)
        out.append((time.perf_counter() - start) * 1000)
        r.raise_for_status()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--log", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    schema = f"basra_bench_{uuid.uuid4().hex[:12]}" if args.db else None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        began = time.perf_counter()
        most = asyncio.run(fill(args.db, schema, folder, args.reports, args.players,
                                args.log))
        filled = time.perf_counter() - began
        where = (["--db", f"{args.db}?schema={schema}"] if args.db
                 else ["--data-dir", str(folder)])
        proc, base = start(where)
        try:
            with httpx.Client(timeout=30) as http:
                r = http.post(f"{base}/api/guests", json={"nickname": "Mona"})
                token = r.json()["token"]
                headers = {"Authorization": f"Bearer {token}"}
                http.post(f"{base}/api/account", headers=headers,
                          json={"username": "Mona", "password": "a long password"})
                subprocess.run([sys.executable, "-m", "basra", "admin", *where, "grant",
                                "Mona", "moderator"], check=True, capture_output=True)
                queue = http.get(f"{base}/api/mod/reports", headers=headers).json()
                assert len(queue["reports"]) == 50, queue
                results: dict[str, Any] = {"reports": args.reports,
                                           "open": queue["open"],
                                           "open_more": queue.get("open_more", False),
                                           "store": "postgresql" if args.db else "sqlite",
                                           "fill_seconds": round(filled, 1)}
                for name, path in (("queue", "/api/mod/reports"),
                                   ("done", "/api/mod/reports?status=actioned"),
                                   ("file", f"/api/mod/players/{most}"),
                                   ("log", "/api/mod/log")):
                    times = sorted(timed(http, base + path, headers, args.requests))
                    results[name] = {
                        "p50_ms": round(statistics.median(times), 2),
                        "p99_ms": round(times[min(len(times) - 1,
                                                  int(len(times) * 0.99))], 2),
                        "max_ms": round(times[-1], 2)}
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        if args.db and schema is not None:
            asyncio.run(drop(args.db, schema))
    if args.json:
        print(json.dumps(results))
        return
    shown = f"{results['open']}{'+' if results['open_more'] else ''}"
    print(f"{results['reports']} reports ({shown} open counted) on {results['store']}, "
          f"filled in {results['fill_seconds']} s")
    for name in ("queue", "done", "file", "log"):
        r = results[name]
        print(f"  {name:6} p50 {r['p50_ms']:7.2f} ms   p99 {r['p99_ms']:7.2f} ms   "
              f"max {r['max_ms']:7.2f} ms")


if __name__ == "__main__":
    main()
