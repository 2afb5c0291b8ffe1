"""Abuse: what a flooding spectator, sockets that never read, storms of sign-ins, rebuilt
matches, slow requests, the expert's queue, crowds of spectators and ``sync`` pulls cost a
seated player (issues 8 and 25).

Starts a real ``basra serve`` (SQLite in a temporary directory, the default limits, a
1 s rematch window so finished matches leave memory at once) on a free loopback port. A
guest plays whole matches against the random bot at a quick human's pace (a play every
``--pace`` seconds), and each play's time from sending it to the state that shows it (the
``played`` message) is one sample. Each run is ``--seconds`` long (``--runs`` picks them):

- ``quiet``: nobody else;
- ``flood``: a spectator of the same table sends ``--flood`` messages as fast as it can,
  opening a new socket whenever the server closes one for flooding;
- ``stalled``: ``--stalled`` raw sockets watch the table, do the websocket handshake with a
  tiny receive buffer and never read a byte;
- ``sign-ins``: ``--sign-ins`` clients at once try wrong passwords, as fast as the server
  answers, each for names of its own and from addresses of its own (the server trusts
  loopback as a proxy, so ``X-Forwarded-For`` names them; a new address whenever one is
  limited): every attempt costs the server an argon2id check;
- ``right-sign-ins``: ``--sign-ins`` clients from two addresses sign in to one account
  with its *right* password as fast as answered, while a third address signs in to its
  own account every 2 s: that sign-in's time is reported too;
- ``rebuilds``: ``--rebuilders`` connections of one address ask for the records of
  finished matches that left memory (``GET /api/tables/ID/record``, ``--finished`` of
  them, round robin) as fast as answered;
- ``slowloris``: ``--slow`` connections of one address send a request head a byte every
  2 s; a newcomer from another address (127.0.0.2) asks for ``/health`` twice a second,
  and the run reports how many of the slow connections the server still held at its end
  and how many of the newcomer's requests failed;
- ``spectators``: ``--crowd`` spectators of the player's table from 20 addresses; then one
  more, from another address, is tried (as TV would): admitted or refused;
- ``syncs``: 48 sockets of one address watch another table and ask ``sync`` in a loop;
  the bytes they pulled are reported;
- ``analyses``: one guest asks the expert for ``--finished`` analyses (from a new address
  each time, so no address limit stops it); then another guest asks for one more: its
  answer (202, or 503 ``analysis/busy`` when one client filled the queue) is reported.

The report gives p50 and p99 per run and what each attack got. Traffic goes to 127.0.0.1
and 127.0.0.2 only, and every loop is bounded. ``--legacy-token-url`` puts the session
token in the socket's address, for servers from before issue 25 (the "before" figures).

    .venv/bin/python benchmarks/abuse.py --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from typing import Any

import httpx
from serving import Held, RawSocket, basra_serve, bench_main
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

LEGACY_TOKEN_URL = False
"""Put the token in the socket's address (servers from before issue 25)."""


async def seat_socket(base: str, table: str, token: str) -> ClientConnection:
    """A seated player's socket: the token in its first message (or, for an old server,
    in its address)."""
    ws_base = base.replace("http://", "ws://") + f"/ws/tables/{table}"
    if LEGACY_TOKEN_URL:
        return await connect(f"{ws_base}?token={token}", max_size=None)
    ws = await connect(f"{ws_base}?auth=1", max_size=None)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def new_table(base: str, http: httpx.AsyncClient, name: str,
                    address: str | None = None) -> tuple[str, str]:
    """A guest called ``name`` (from ``address``, through the trusted proxy, if given) and
    a table of theirs against the random bot."""
    via = {"X-Forwarded-For": address} if address else {}
    r = await http.post(f"{base}/api/guests", json={"nickname": name}, headers=via)
    token = r.json()["token"]
    r = await http.post(f"{base}/api/tables/bot", json={"bot_level": "random"},
                        headers={"Authorization": f"Bearer {token}", **via})
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
        async with await seat_socket(base, table, token) as ws:
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


async def finished_matches(base: str, count: int) -> tuple[str, list[str]]:
    """``count`` matches a guest resigned at once (finished, and soon out of memory): a
    guest's token (the last) and the matches' ids."""
    ids: list[str] = []
    token = ""
    async with httpx.AsyncClient(timeout=30) as http:
        for n in range(count):
            token, table = await new_table(base, http, f"finished-{n}",
                                           f"10.5.{n // 200}.{n % 200 + 1}")
            async with await seat_socket(base, table, token) as ws:
                held = Held()
                deadline = time.monotonic() + 30
                while True:
                    state = await next_state(ws, held, deadline)
                    if state["view"]["round"] >= 1 and state["view"]["hand"]:
                        break
                await ws.send(json.dumps({"type": "resign"}))
                while (await next_state(ws, held, deadline))["table"]["status"] != "finished":
                    pass
            ids.append(table)
    await asyncio.sleep(3.0)  # the rematch window (1 s) and a sweep: out of memory
    return token, ids


async def rebuild_storm(base: str, ids: list[str], clients: int, seconds: float,
                        report: dict[str, Any]) -> None:
    stop_at = time.monotonic() + seconds
    answers: dict[int, int] = {}

    async def one(n: int) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            k = n
            while time.monotonic() < stop_at:
                r = await http.get(f"{base}/api/tables/{ids[k % len(ids)]}/record")
                answers[r.status_code] = answers.get(r.status_code, 0) + 1
                k += 1

    await asyncio.gather(*(one(n) for n in range(clients)))
    report.update(rebuild_requests=sum(answers.values()),
                  rebuild_rate=round(sum(answers.values()) / seconds, 1),
                  rebuild_answers=answers)


async def slowloris(base: str, count: int, seconds: float, report: dict[str, Any]) -> None:
    host, port = base.removeprefix("http://").split(":")
    opened: list[asyncio.StreamWriter] = []
    refused = 0
    for _ in range(count):
        try:
            # From an address of its own (not loopback's 127.0.0.1, the trusted proxy).
            _, writer = await asyncio.open_connection(host, int(port),
                                                      local_addr=("127.0.0.3", 0))
            writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            opened.append(writer)
        except OSError:
            refused += 1
    stop_at = time.monotonic() + seconds
    newcomer = {"ok": 0, "failed": 0}

    async def trickle() -> None:
        while time.monotonic() < stop_at:
            for writer in opened:
                if not writer.is_closing():
                    with contextlib.suppress(OSError):
                        writer.write(b"X")
            await asyncio.sleep(2.0)

    async def visit() -> None:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(transport=transport, timeout=5) as http:
            while time.monotonic() < stop_at:
                try:
                    r = await http.get(f"{base}/health")
                    newcomer["ok" if r.status_code == 200 else "failed"] += 1
                except httpx.HTTPError:
                    newcomer["failed"] += 1
                await asyncio.sleep(0.5)

    await asyncio.gather(trickle(), visit())
    still = 0
    for writer in opened:  # still open: the server has not closed it
        try:
            writer.write(b"X")
            await asyncio.wait_for(writer.drain(), 1)
            reader_alive = not writer.is_closing() and not writer.transport.is_closing()
            still += 1 if reader_alive else 0
        except (OSError, TimeoutError):
            pass
        writer.close()
    report.update(slow_opened=len(opened), slow_refused=refused, slow_still_held=still,
                  newcomer_ok=newcomer["ok"], newcomer_failed=newcomer["failed"])


async def right_sign_ins(base: str, clients: int, seconds: float,
                         report: dict[str, Any]) -> None:
    """Two addresses sign in with the right password as fast as answered; a third signs
    in to its own account every 2 s (its times are the victim's)."""
    async with httpx.AsyncClient(timeout=60) as http:
        for name in ("farmer", "victim"):
            r = await http.post(f"{base}/api/guests", json={"nickname": name})
            await http.post(f"{base}/api/account",
                            headers={"Authorization": f"Bearer {r.json()['token']}"},
                            json={"username": name, "password": f"{name} password 1"})
        stop_at = time.monotonic() + seconds
        counts: dict[int, int] = {}
        victim: list[float] = []
        victim_failed = 0

        async def farm(n: int) -> None:
            while time.monotonic() < stop_at:
                r = await http.post(f"{base}/api/sessions",
                                    headers={"X-Forwarded-For": f"10.9.0.{n % 2 + 1}"},
                                    json={"username": "farmer",
                                          "password": "farmer password 1"})
                counts[r.status_code] = counts.get(r.status_code, 0) + 1
                if r.status_code != 201:
                    await asyncio.sleep(0.05)

        async def sign_in_now() -> None:
            nonlocal victim_failed
            while time.monotonic() < stop_at:
                started = time.monotonic()
                r = await http.post(f"{base}/api/sessions",
                                    headers={"X-Forwarded-For": "10.8.0.1"},
                                    json={"username": "victim",
                                          "password": "victim password 1"})
                if r.status_code == 201:
                    victim.append((time.monotonic() - started) * 1000)
                else:
                    victim_failed += 1
                await asyncio.sleep(2.0)

        await asyncio.gather(sign_in_now(), *(farm(n) for n in range(clients)))
    report.update(farm_answers=counts, victim_sign_ins=len(victim),
                  victim_failed=victim_failed, victim_p50_ms=pct(victim, 0.5),
                  victim_max_ms=round(max(victim), 1) if victim else 0.0)


async def spectator_crowd(base: str, table: str, crowd: int, seconds: float,
                          report: dict[str, Any]) -> None:
    url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
    admitted: list[ClientConnection] = []
    refused = 0
    readers: list[asyncio.Task[None]] = []

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _ in ws:
                pass

    for n in range(crowd):
        try:
            ws = await connect(url, additional_headers={
                "X-Forwarded-For": f"10.7.0.{n % 20 + 1}"}, max_size=None)
        except (OSError, InvalidHandshake):
            refused += 1
            continue
        first = json.loads(await ws.recv())
        if first["type"] == "welcome":
            admitted.append(ws)
            readers.append(asyncio.create_task(drain(ws)))
        else:
            refused += 1
            await ws.close()
    await asyncio.sleep(seconds)
    async with connect(url, additional_headers={"X-Forwarded-For": "10.6.0.1"}) as late:
        answer = json.loads(await late.recv())
    report.update(crowd_admitted=len(admitted), crowd_refused=refused,
                  next_viewer=answer["type"] if answer["type"] == "welcome"
                  else answer.get("code", answer["type"]))
    for ws in admitted:
        await ws.close()
    for task in readers:
        task.cancel()


async def sync_pull(base: str, seconds: float, report: dict[str, Any]) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        _, table = await new_table(base, http, "watched")
    url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
    stop_at = time.monotonic() + seconds
    pulled = [0]

    async def one() -> None:
        with contextlib.suppress(ConnectionClosed, OSError, InvalidHandshake):
            async with connect(url, max_size=None, max_queue=None) as ws:
                async def read() -> None:
                    with contextlib.suppress(ConnectionClosed):
                        async for message in ws:
                            pulled[0] += len(message)

                reader = asyncio.create_task(read())
                frame = json.dumps({"type": "sync"})
                while time.monotonic() < stop_at:
                    await ws.send(frame)
                    await asyncio.sleep(0.005)
                reader.cancel()

    await asyncio.gather(*(one() for _ in range(48)))
    report.update(sync_pulled_mb=round(pulled[0] / 1e6, 1))


async def analysis_queue(base: str, ids: list[str], report: dict[str, Any]) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(f"{base}/api/guests", json={"nickname": "Greedy"},
                            headers={"X-Forwarded-For": "10.4.0.1"})
        greedy = {"Authorization": f"Bearer {r.json()['token']}",
                  "X-Forwarded-For": "10.4.0.1"}
        r = await http.post(f"{base}/api/guests", json={"nickname": "Other"},
                            headers={"X-Forwarded-For": "10.4.0.2"})
        other = {"Authorization": f"Bearer {r.json()['token']}",
                 "X-Forwarded-For": "10.4.0.2"}
        taken: dict[int, int] = {}
        for n, table in enumerate(ids[:-1]):  # one player, from ever new addresses
            r = await http.post(f"{base}/api/replays/{table}/analysis",
                                headers={**greedy, "X-Forwarded-For": f"10.4.1.{n + 1}"})
            taken[r.status_code] = taken.get(r.status_code, 0) + 1
        r = await http.post(f"{base}/api/replays/{ids[-1]}/analysis", headers=other,
                            json={})
        report.update(greedy_answers=taken, other_answer=r.status_code,
                      other_code=(r.json().get("error") or {}).get("code", r.json().get(
                          "status")))


async def sockets_held(base: str) -> int:
    async with httpx.AsyncClient() as http:
        held: int = (await http.get(f"{base}/health")).json()["memory"]["sockets"]
        return held


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1) if ordered else 0.0


RUNS = ("quiet", "flood", "stalled", "sign-ins", "right-sign-ins", "rebuilds", "slowloris",
        "spectators", "syncs", "analyses")


async def scenario(base: str, kind: str, args: argparse.Namespace,
                   finished: list[str]) -> dict[str, Any]:
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
    elif kind == "sign-ins":
        await sign_in_storm(base, args.sign_ins, args.seconds, report)
    elif kind == "right-sign-ins":
        await right_sign_ins(base, args.sign_ins, args.seconds, report)
    elif kind == "rebuilds":
        await rebuild_storm(base, finished, args.rebuilders, args.seconds, report)
    elif kind == "slowloris":
        await slowloris(base, args.slow, args.seconds, report)
    elif kind == "spectators":
        await spectator_crowd(base, table, args.crowd, args.seconds / 2, report)
    elif kind == "syncs":
        await sync_pull(base, args.seconds, report)
    elif kind == "analyses":
        await analysis_queue(base, finished, report)
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
    global LEGACY_TOKEN_URL  # noqa: PLW0603  (one switch for the whole run)
    LEGACY_TOKEN_URL = args.legacy_token_url
    runs = [r for r in args.runs.split(",") if r]
    unknown = set(runs) - set(RUNS)
    if unknown:
        raise SystemExit(f"abuse.py: unknown runs {sorted(unknown)} (of {', '.join(RUNS)})")
    async with basra_serve("--bot-delay", "0", "--trusted-proxy", "127.0.0.1",
                           "--rematch-window", "1") as served:
        finished: list[str] = []
        if {"rebuilds", "analyses"} & set(runs):
            _, finished = await finished_matches(served.base, args.finished)
        return [await scenario(served.base, kind, args, finished) for kind in runs]


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", default=",".join(RUNS),
                        help=f"which runs, in order (default all: {','.join(RUNS)})")
    parser.add_argument("--pace", type=float, default=0.1,
                        help="seconds between a state and the guest's play (default 0.1)")
    parser.add_argument("--flood", type=int, default=60_000)
    parser.add_argument("--stalled", type=int, default=5)
    parser.add_argument("--sign-ins", type=int, default=16,
                        help="clients signing in at once (default 16)")
    parser.add_argument("--rebuilders", type=int, default=32,
                        help="connections asking for finished matches' records (default 32)")
    parser.add_argument("--finished", type=int, default=60,
                        help="finished matches made first, for rebuilds and analyses")
    parser.add_argument("--slow", type=int, default=1000,
                        help="connections sending a request head slowly (default 1000)")
    parser.add_argument("--crowd", type=int, default=1000,
                        help="spectators of the player's table, from 20 addresses")
    parser.add_argument("--legacy-token-url", action="store_true",
                        help="the token in the socket's address (servers before issue 25)")


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
        if "farm_answers" in r:
            extra = (f"  right-password sign-ins {r['farm_answers']}; another address's "
                     f"sign-in p50 {r['victim_p50_ms']} ms, max {r['victim_max_ms']} ms, "
                     f"{r['victim_failed']} failed")
        if "rebuild_requests" in r:
            extra = (f"  {r['rebuild_requests']} record requests ({r['rebuild_rate']}/s): "
                     f"{r['rebuild_answers']}")
        if "slow_opened" in r:
            extra = (f"  {r['slow_opened']} slow connections opened ({r['slow_refused']} "
                     f"refused), {r['slow_still_held']} still held at the end; newcomer "
                     f"{r['newcomer_ok']} ok, {r['newcomer_failed']} failed")
        if "crowd_admitted" in r:
            extra = (f"  {r['crowd_admitted']} spectators admitted, {r['crowd_refused']} "
                     f"refused; the next viewer from elsewhere: {r['next_viewer']}")
        if "sync_pulled_mb" in r:
            extra = f"  48 sockets pulled {r['sync_pulled_mb']} MB by sync"
        if "greedy_answers" in r:
            extra = (f"  one client's analyses {r['greedy_answers']}; another's: "
                     f"{r['other_answer']} {r['other_code']}")
        print(f"{r['run']:>14}: {r['plays']} plays  p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms  "
              f"max {r['max_ms']} ms{extra}")


if __name__ == "__main__":
    bench_main(__doc__, options, run, report)
