"""Abuse: what a flooding spectator, sockets that never read or a storm of sign-ins cost a
seated player.

Starts a real ``basra serve`` (SQLite in a temporary directory, the default limits) on a
free loopback port. A guest plays whole matches against the random bot at a quick human's
pace (a play every ``--pace`` seconds), and each play's time from sending it to the state
that shows it (the ``played`` message) is one sample. Three runs, each ``--seconds`` long:

- ``quiet``: nobody else;
- ``flood``: a spectator of the same table sends ``--flood`` messages as fast as it can,
  opening a new socket whenever the server closes one for flooding;
- ``stalled``: ``--stalled`` raw sockets watch the table, do the websocket handshake with a
  tiny receive buffer and never read a byte;
- ``sign-ins``: ``--sign-ins`` clients at once try passwords, as fast as the server answers,
  each for names of its own (a new name every attempt, so no account's limit stops them)
  and from addresses of its own (the server trusts loopback as a proxy, so
  ``X-Forwarded-For`` names them; a new address whenever one is limited): every attempt
  costs the server an argon2id check.

The report gives p50 and p99 per run, how many flood messages were sent and how often the
flooder was closed, how long the stalled sockets took to be let go, and how many sign-ins
were answered (and how many of those were refused by the limits). Traffic goes to
127.0.0.1 only, and every loop is bounded.

    .venv/bin/python benchmarks/abuse.py --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from typing import Any

import httpx
from serving import Held, RawSocket, basra_serve, bench_main
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


async def new_table(base: str, http: httpx.AsyncClient, name: str) -> tuple[str, str]:
    r = await http.post(f"{base}/api/guests", json={"nickname": name})
    token = r.json()["token"]
    r = await http.post(f"{base}/api/tables/bot", headers={"Authorization": f"Bearer {token}"},
                        json={"bot_level": "random"})
    return token, r.json()["table"]["id"]


async def next_state(ws: ClientConnection, held: Held, deadline: float) -> dict[str, Any]:
    """The whole state held after the next message that changes it (a ``state`` or a
    ``played`` message)."""
    while True:
        message: dict[str, Any] = json.loads(
            await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()) + 30))
        state = held.take(message)
        if state is not None:
            return state


async def player(base: str, token: str, table: str, seconds: float, pace: float,
                 samples: list[float]) -> None:
    """Play matches on ``table`` (and its rematches) for ``seconds``, pacing the plays."""
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table}?token={token}"
        async with connect(url, max_size=None) as ws:
            sent = -1
            held = Held()
            while time.monotonic() < stop_at:
                state = await next_state(ws, held, stop_at)
                if state["table"]["status"] == "finished":
                    break
                current = state["table"]["fairness"]["current"]
                if state["table"]["phase"] == "seeding" and current:
                    await ws.send(json.dumps({"type": "seed", "round": current["round"],
                                              "client_seed": os.urandom(8).hex()}))
                    continue
                view = state["view"]
                if not (view["legal"] and view["turn"] == state["you"]
                        and state["version"] > sent):
                    continue
                await asyncio.sleep(pace)
                sent = state["version"]
                play = view["legal"][0]
                started = time.monotonic()
                await ws.send(json.dumps({"type": "play", "version": sent,
                                          "card": play["card"], "take": play["take"]}))
                answer = await next_state(ws, held, stop_at)
                while answer["version"] <= sent:
                    answer = await next_state(ws, held, stop_at)
                samples.append((time.monotonic() - started) * 1000)
                if answer["table"]["status"] == "finished":  # the play ended the match
                    break
            else:
                return
            await ws.send(json.dumps({"type": "rematch"}))
            while True:
                state = await next_state(ws, held, stop_at)
                if state["table"]["rematch_table"]:
                    table = state["table"]["rematch_table"]
                    break


async def flooder(url: str, count: int, report: dict[str, Any]) -> None:
    frame = json.dumps({"type": "ping"})
    sent = 0
    closes: dict[str, int] = {}
    while sent < count:
        async with connect(url, max_queue=None) as ws:
            try:
                while sent < count:
                    await ws.send(frame)
                    sent += 1
                    if sent % 100 == 0:
                        await asyncio.sleep(0)
            except ConnectionClosed as exc:
                code = str(exc.rcvd.code) if exc.rcvd else "none"
                closes[code] = closes.get(code, 0) + 1
    report.update(flood_sent=sent, flooder_closed=closes)


async def sign_in_storm(base: str, clients: int, seconds: float,
                        report: dict[str, Any]) -> None:
    """``clients`` loops of wrong-password sign-ins for ``seconds``."""
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(f"{base}/api/guests", json={"nickname": "Target"})
        token = r.json()["token"]
        await http.post(f"{base}/api/account", headers={"Authorization": f"Bearer {token}"},
                        json={"username": "target", "password": "the real password"})
        stop_at = time.monotonic() + seconds
        counts = {"answered": 0, "limited": 0}

        async def one(n: int) -> None:
            address = attempt = 0
            while time.monotonic() < stop_at:
                forwarded = f"10.{n}.{address // 250}.{address % 250 + 1}"
                attempt += 1
                name = "target" if attempt % 10 == 0 else f"guess-{n}-{attempt}"
                r = await http.post(f"{base}/api/sessions",
                                    headers={"X-Forwarded-For": forwarded},
                                    json={"username": name, "password": "wrong guess"})
                counts["answered"] += 1
                if r.status_code == 429:
                    counts["limited"] += 1
                    address += 1

        await asyncio.gather(*(one(n) for n in range(clients)))
    report.update(sign_ins=counts["answered"], sign_ins_limited=counts["limited"])


async def sockets_held(base: str) -> int:
    async with httpx.AsyncClient() as http:
        held: int = (await http.get(f"{base}/health")).json()["memory"]["sockets"]
        return held


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1) if ordered else 0.0


async def scenario(base: str, kind: str, args: argparse.Namespace) -> dict[str, Any]:
    samples: list[float] = []
    report: dict[str, Any] = {"run": kind}
    async with httpx.AsyncClient(timeout=30) as http:
        token, table = await new_table(base, http, f"abuse-{kind}")
    url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
    stalled: list[RawSocket] = []
    if kind == "stalled":
        stalled = [RawSocket(base, f"/ws/tables/{table}") for _ in range(args.stalled)]
    started = time.monotonic()
    playing = asyncio.create_task(player(base, token, table, args.seconds, args.pace, samples))
    if kind == "flood":
        await flooder(url, args.flood, report)
    if kind == "sign-ins":
        await sign_in_storm(base, args.sign_ins, args.seconds, report)
    await playing
    if stalled:  # how long until the server let every stalled socket go
        while await sockets_held(base) > 0 and time.monotonic() - started < 120:
            await asyncio.sleep(0.2)
        report["stalled_gone_after_s"] = round(time.monotonic() - started, 1)
        for raw in stalled:
            raw.close()
    report.update(plays=len(samples), p50_ms=pct(samples, 0.5), p99_ms=pct(samples, 0.99),
                  max_ms=round(max(samples), 1) if samples else 0.0)
    return report


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    async with basra_serve("--bot-delay", "0", "--trusted-proxy", "127.0.0.1") as served:
        return [await scenario(served.base, kind, args)
                for kind in ("quiet", "flood", "stalled", "sign-ins")]


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=0.1,
                        help="seconds between a state and the guest's play (default 0.1)")
    parser.add_argument("--flood", type=int, default=60_000)
    parser.add_argument("--stalled", type=int, default=5)
    parser.add_argument("--sign-ins", type=int, default=16,
                        help="clients trying wrong passwords at once (default 16)")


def report(results: list[dict[str, Any]]) -> None:
    for r in results:
        extra = ""
        if "flood_sent" in r:
            extra = f"  flood {r['flood_sent']} messages, flooder closed {r['flooder_closed']}"
        if "stalled_gone_after_s" in r:
            extra = f"  stalled sockets gone after {r['stalled_gone_after_s']} s"
        if "sign_ins" in r:
            extra = (f"  {r['sign_ins']} sign-ins answered, {r['sign_ins_limited']} of them "
                     "refused by the limits")
        print(f"{r['run']:>8}: {r['plays']} plays  p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms  "
              f"max {r['max_ms']} ms{extra}")


if __name__ == "__main__":
    bench_main(__doc__, options, run, report)
