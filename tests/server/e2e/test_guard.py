"""The live site against real people and attackers (issue 8), end to end against a real
server: seat parts the operator cannot grind, a socket that stops reading, floods, per-address
limits, quick-match ghosts, finished tables leaving memory, and text that is not text."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import statistics
import time
from pathlib import Path

import httpx
import pytest
from serving import RawSocket
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from basra.game.shuffle import commitment, seat_part
from basra.match.records import parse_record
from basra.match.replay import verify
from basra.server.config import Limits
from server_harness import (
    Backend,
    Guest,
    at_a_bot_table,
    backend_fixture,  # noqa: F401  (the backend fixture)
    bot_table,
    changes,
    join,
    new_guest,
    next_message,
    over,
    pending_round,
    play_match_sending_parts,
    play_out,
    private_table,
    rematch,
    serve,
    two_at_a_private_table,
)

# ---------------------------------------------------------------------------------------
# 1. seat parts: the server cannot choose the deck


@pytest.mark.parametrize("window", [0.0, 8.0])
def test_server_parts_are_derived_and_the_commitment_always_comes_first(
        tmp_path: Path, window: float) -> None:
    """Whatever the seed window, every round's commitment reaches the player in an earlier
    message than its cards; the bot's part is the one derived from the committed server
    seed; the player's part is the one it sent for that round (a fresh one each round),
    and with a window the round starts as soon as the part arrives."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        parts: dict[int, str] = {}
        try:
            started = time.monotonic()
            final = await play_match_sending_parts(amira, parts)
            elapsed = time.monotonic() - started
        finally:
            await amira.close()
        rounds = len(final["view"]["results"])
        assert rounds >= 2
        if window:  # every round started on the part, not at the window's end
            assert elapsed < window * rounds / 2, elapsed
        states = amira.seen
        revealed = {r["round"]: r for r in final["table"]["fairness"]["revealed"]}
        assert sorted(revealed) == list(range(1, rounds + 1))
        for number, entry in revealed.items():
            first_cards = next(i for i, m in enumerate(states)
                               if m["view"]["round"] == number)
            seen = [i for i, m in enumerate(states[:first_cards])
                    if (m["table"]["fairness"]["current"] or {}).get("commitment")
                    == entry["commitment"]]
            assert seen, f"round {number}: cards before the commitment"
            assert commitment(entry["server_seed"]) == entry["commitment"]
            mine, bots = entry["client_seed"].split("|")
            assert bots == seat_part(entry["server_seed"], number, 1)
            if window:
                assert mine == parts[number]
            else:  # with no window the round may start before a part arrives
                assert mine in (parts.get(number),
                                seat_part(entry["server_seed"], number, 0))
        assert len(set(parts.values())) == len(parts)
        record = (await http.get(f"{base}/api/tables/{final['table']['id']}/record")).json()
        assert verify(parse_record(record)).ok

    serve(tmp_path, scenario, seed_window_seconds=window)


def test_a_part_is_for_its_round_only_and_never_reused(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        try:
            state = await amira.until(lambda s: pending_round(s) == 1)
            assert state["view"]["hand"] == []
            for message, code in [
                    ({"type": "seed", "round": 2, "client_seed": "ahead"}, "seed/wrong_round"),
                    ({"type": "seed", "round": 1, "client_seed": ""}, "seed/bad"),
                    ({"type": "seed", "round": 1, "client_seed": "a|b"}, "seed/bad"),
                    ({"type": "seed", "round": 1, "client_seed": "x" * 61}, "seed/bad"),
                    ({"type": "seed", "client_seed": "no round"}, "protocol/bad_message")]:
                await amira.send(message)
                await amira.ping()
                assert amira.errors[-1]["code"] == code, (message, amira.errors[-1])
            assert amira.state["view"]["hand"] == []  # none of that started the round
            await amira.send({"type": "seed", "round": 1, "client_seed": "first"})
            await amira.until(lambda s: s["view"]["round"] == 1)
            await amira.send({"type": "seed", "round": 1, "client_seed": "late"})
            await amira.ping()
            assert amira.errors[-1]["code"] == "seed/round_started"
            # to the end of round 1, then round 2 refuses round 1's part
            sent = -1
            while pending_round(amira.state) != 2:
                s = await amira.until(lambda s, last=sent: pending_round(s) == 2
                                      or (amira.my_turn(s) and s["version"] > last))
                if pending_round(s) == 2:
                    break
                sent = s["version"]
                await amira.play_first_legal()
            await amira.send({"type": "seed", "round": 2, "client_seed": "first"})
            await amira.ping()
            assert amira.errors[-1]["code"] == "seed/reused"
            await amira.send({"type": "seed", "round": 2, "client_seed": "second"})
            state = await amira.until(lambda s: s["view"]["round"] == 2)
            assert state["table"]["fairness"]["current"]["client_seed"].startswith(
                "second|")
        finally:
            await amira.close()

    serve(tmp_path, scenario, seed_window_seconds=30.0)


# ---------------------------------------------------------------------------------------
# 2. a socket that stops reading (serving.RawSocket: the handshake, then never a byte read,
# the same client as benchmarks/abuse.py's stalled sockets)


async def timed_match(guest: Guest, matches: int = 1) -> list[float]:
    """Play whole matches (first legal play, rematch after each) and return, per play, the
    milliseconds from sending it to the state that shows it."""
    times: list[float] = []
    for _ in range(matches):
        sent = -1
        while True:
            state = await guest.until(lambda s, last=sent: over(s)
                                      or (guest.my_turn(s) and s["version"] > last))
            if over(state):
                break
            sent = state["version"]
            start = time.monotonic()
            await guest.play_first_legal()
            await guest.until(lambda s, last=sent: s["version"] > last)
            times.append((time.monotonic() - start) * 1000)
    return times


SLOW_MS = 1000
"""A bound that tells a table slowed by its stalled or flooding neighbours (frozen, or
seconds a play, before this was built) from one that is not, with room for a loaded 2-core
machine where client and server share a process; the figure itself (a p99 under 100 ms,
single milliseconds measured) is benchmarks/abuse.py's (docs/BENCHMARKS.md)."""


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


def test_a_socket_that_never_reads_does_not_slow_the_table_and_is_closed(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        stalled = [RawSocket(base, f"/ws/tables/{table_id}") for _ in range(9)]
        try:
            started = time.monotonic()
            times = await timed_match(amira)
            # Thousands of broadcasts went out (each of the 9 stalled sockets and
            # Amira got one per change), and the table never waited on the stalled.
            broadcasts = len(changes(amira.log)) * 10
            assert broadcasts > 1000, broadcasts
            assert p99(times) < SLOW_MS, (p99(times), max(times))
            # Without reading a byte of theirs, the stalled are let go within 30 s:
            # only Amira's socket is left, and each stalled one finds itself closed.
            while time.monotonic() - started < 30:
                health = (await http.get(f"{base}/health")).json()
                if health["memory"]["sockets"] == 1:
                    break
                await asyncio.sleep(0.2)
            assert health["memory"]["sockets"] == 1, health
            gone_after = time.monotonic() - started
            for raw in stalled:
                assert raw.closed_by_server(10), gone_after
        finally:
            for raw in stalled:
                raw.close()
            await amira.close()

    # A small send buffer: a whole match of basra-ws/2 messages (a few kilobytes a
    # round) must fill it, so that the stalled are let go by their writers' stall limit.
    serve(tmp_path, scenario, stall_seconds=2.0, socket_send_buffer=8 * 1024)


# ---------------------------------------------------------------------------------------
# 3. limits


def test_a_flood_from_a_spectator_leaves_the_seated_player_unharmed(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        ws = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        sent = 0
        closes: list[int | None] = []

        async def flood() -> None:
            """60,000 messages as fast as they go; a closed socket is opened again."""
            nonlocal sent
            frame = json.dumps({"type": "ping"})
            while sent < 60_000:
                async with connect(ws, max_queue=None) as spectator:
                    try:
                        while sent < 60_000:
                            await spectator.send(frame)
                            sent += 1
                            if sent % 100 == 0:
                                await asyncio.sleep(0)
                    except ConnectionClosed as exc:
                        closes.append(exc.rcvd.code if exc.rcvd else None)

        try:
            flooding = asyncio.create_task(flood())
            times = await timed_match(amira)
            await flooding
            assert sent == 60_000
            # closed for flooding (1008), or for not reading its answers fast enough
            assert closes and set(closes) <= {1008, 1013} and 1008 in closes, closes
            assert p99(times) < SLOW_MS, (p99(times), max(times))
        finally:
            await amira.close()

    # Amira plays at machine speed, so her own rate is wide; the flooder's 30k a second is
    # far past it all the same.
    limits = Limits(messages_per_second=300, message_burst=300, sockets_per_address=1000)
    serve(tmp_path, scenario, limits=limits)


def test_the_rate_limit_answers_with_a_code_and_drops_the_message(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        await amira.until(lambda s: True)
        for _ in range(15):  # burst 10: five over the limit, each dropped
            await amira.send({"type": "ping"})
        await asyncio.sleep(1.2)  # refilled
        await amira.send({"type": "ping"})
        deadline = time.monotonic() + 10
        while len([m for m in amira.log if m["type"] == "pong"]) < 11:
            await amira.receive(max(0.1, deadline - time.monotonic()))
        await asyncio.sleep(0.3)
        _, _ = await amira.ping()
        pongs = [m for m in amira.log if m["type"] == "pong"]
        codes = [e["code"] for e in amira.errors]
        assert codes.count("protocol/rate_limited") == 1, codes  # one warning a second
        assert len(pongs) == 12, len(pongs)  # ten of fifteen, the late one and this one
        await amira.close()

    limits = Limits(messages_per_second=5, message_burst=10)
    serve(tmp_path, scenario, limits=limits)


def test_per_address_limits_answer_429_with_retry_after(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        answers = [await http.post(f"{base}/api/guests", json={"nickname": f"g{i}"})
                   for i in range(8)]
        assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
        refused = answers[-1]
        assert refused.json()["error"]["code"] == "rate/limited"
        assert int(refused.headers["Retry-After"]) >= 1
        # X-Forwarded-For from a client that is no trusted proxy changes nothing
        spoofed = await http.post(f"{base}/api/guests", json={"nickname": "spoof"},
                                  headers={"X-Forwarded-For": "203.0.113.9"})
        assert spoofed.status_code == 429
        token = answers[0].json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        tables = [await http.post(f"{base}/api/tables/bot", headers=auth,
                                  json={"bot_level": "random"}) for _ in range(5)]
        assert [t.status_code for t in tables] == [201] * 3 + [429] * 2
        assert tables[-1].json()["error"]["code"] == "rate/limited"
        # bodies over the bound are refused before they are parsed
        big = await http.post(f"{base}/api/guests", content=b"{" + b" " * 20_000 + b"}",
                              headers={"content-type": "application/json"})
        assert big.status_code == 413
        assert big.json()["error"]["code"] == "request/too_large"
        # a body with no Content-Length is refused as it streams in
        assert await refused_when_streamed(base, 40_000) == 413
        # an 8 MB body is refused on its Content-Length, before a byte of it is read
        assert await refused_on_length(base, 8_000_000) == 413
        # open sockets per address
        ws = base.replace("http://", "ws://") + f"/ws/tables/{tables[0].json()['table']['id']}"
        held = [await connect(ws) for _ in range(4)]
        with pytest.raises(InvalidStatus) as refused_socket:
            await connect(ws)
        assert refused_socket.value.response.status_code == 429
        await held.pop().close()
        await asyncio.sleep(0.2)
        held.append(await connect(ws))  # one was freed
        for h in held:
            await h.close()

    limits = Limits(guest_burst=5, guests_per_minute=1, table_burst=3, tables_per_minute=1,
                    sockets_per_address=4)
    serve(tmp_path, scenario, limits=limits)


async def refused_on_length(base: str, length: int) -> int:
    """The status a POST announcing ``length`` body bytes gets before sending any."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"POST /api/guests HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                 f"application/json\r\nContent-Length: {length}\r\n\r\n".encode())
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    return int(status.split()[1])


async def refused_when_streamed(base: str, length: int) -> int:
    """The status a chunked POST of ``length`` bytes (no Content-Length) gets."""
    host, port = base.removeprefix("http://").split(":")

    def post() -> int:
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(f"POST /api/guests HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                         "application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
            chunk = b" " * 1000
            try:
                for _ in range(length // len(chunk)):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sock.sendall(b"0\r\n\r\n")
            except OSError:
                pass  # refused part way: the answer is already there to read
            return int(sock.recv(100).split()[1])

    return await asyncio.to_thread(post)


def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for client in ("198.51.100.1", "198.51.100.2"):
            codes = [(await http.post(f"{base}/api/guests", json={"nickname": "nn"},
                                      headers={"X-Forwarded-For": f"{client}"}))
                     .status_code for _ in range(3)]
            assert codes == [201, 201, 429], (client, codes)
        # the proxy appends the address it saw: a forged first entry does not help
        forged = await http.post(f"{base}/api/guests", json={"nickname": "nn"},
                                 headers={"X-Forwarded-For": "10.9.9.9, 198.51.100.1"})
        assert forged.status_code == 429

    limits = Limits(guest_burst=2, guests_per_minute=1, trusted_proxies=("127.0.0.1",))
    serve(tmp_path, scenario, limits=limits)


# ---------------------------------------------------------------------------------------
# 4. quick match without ghosts


QUICK = {"ticket_lapse_seconds": 1.0, "arrival_seconds": 1.0,
         "quick_match_bot_offer_seconds": 20.0}


def test_a_ticket_lapses_when_its_owner_goes_away(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        ghost = await new_guest(base, http, "Ghost")
        real = await new_guest(base, http, "Real")
        r = await http.post(f"{base}/api/quick-match", headers=ghost.headers, json={})
        assert r.json()["status"] == "waiting"
        ticket = r.json()["ticket"]
        # a long poll that the client gives up on does not keep the ticket alive
        with pytest.raises(httpx.ReadTimeout):
            await http.get(f"{base}/api/quick-match/{ticket}?wait=25",
                           headers=ghost.headers, timeout=0.3)
        await asyncio.sleep(2.5)
        r = await http.post(f"{base}/api/quick-match", headers=real.headers, json={})
        assert r.json()["status"] == "waiting", "paired with a ghost"
        gone = await http.get(f"{base}/api/quick-match/{ticket}", headers=ghost.headers)
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "queue/not_found"
        health = (await http.get(f"{base}/health")).json()
        assert health["memory"]["tickets"] == 1

    serve(backend, scenario, **QUICK)


def test_a_matched_player_who_never_connects_is_dropped_from_the_start(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        ghost = await new_guest(base, http, "Ghost")
        omar = await new_guest(base, http, "Omar")
        first = (await http.post(f"{base}/api/quick-match", headers=ghost.headers,
                                 json={})).json()
        poll = asyncio.create_task(http.get(
            f"{base}/api/quick-match/{first['ticket']}?wait=10", headers=ghost.headers))
        await asyncio.sleep(0.1)
        matched = (await http.post(f"{base}/api/quick-match", headers=amira.headers,
                                   json={})).json()
        matched = (await http.get(f"{base}/api/quick-match/{matched['ticket']}?wait=5",
                                  headers=amira.headers)).json()
        assert matched["status"] == "matched"
        await poll  # the ghost was matched, and never opens the table
        await amira.connect(matched["table"])
        try:
            started = time.monotonic()
            state = await amira.until(lambda s: s["table"]["status"] == "abandoned", 10)
            assert state["view"]["hand"] == []  # no card was dealt, no clock ran
            assert time.monotonic() - started < 5
            requeued = await next_message(amira, "requeued")
            assert requeued["bot_offer"] is True
            ticket = requeued["ticket"]
            r = (await http.get(f"{base}/api/quick-match/{ticket}",
                                headers=amira.headers)).json()
            assert r["status"] == "waiting" and r["bot_offer"] is True
            # the next player is matched with Amira at the next pairing
            third = (await http.post(f"{base}/api/quick-match", headers=omar.headers,
                                     json={})).json()
            third = (await http.get(f"{base}/api/quick-match/{third['ticket']}?wait=5",
                                    headers=omar.headers)).json()
            assert third["status"] == "matched"
            again = (await http.get(f"{base}/api/quick-match/{ticket}",
                                    headers=amira.headers)).json()
            assert again["table"] == third["table"]
        finally:
            await amira.close()

    serve(backend, scenario, **QUICK)


def test_a_player_who_joins_but_never_connects_is_played_by_the_bot(tmp_path: Path) -> None:
    """At a private table, the one who opened the invite but never the table is dropped
    from the start: after the grace period a bot plays the seat; nobody waits 30 s."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        ghost = await new_guest(base, http, "Ghost")
        table_id, code = await private_table(base, http, amira, bot_level="random")
        await amira.connect(table_id)
        await join(base, http, ghost, code)
        try:
            started = time.monotonic()
            sent = -1
            while len(amira.state.get("view", {}).get("plays", [])) < 4:
                state = await amira.until(
                    lambda s, last=sent: len(s["view"]["plays"]) >= 4
                    or (amira.my_turn(s) and s["version"] > last), 15)
                if amira.my_turn(state) and state["version"] > sent:
                    sent = state["version"]
                    await amira.play_first_legal()
            assert time.monotonic() - started < 10
            assert amira.state["table"]["players"][1]["bot_playing"] is True
        finally:
            await amira.close()

    serve(tmp_path, scenario, grace_seconds=0.5, arrival_seconds=1.0)


# ---------------------------------------------------------------------------------------
# 5. finished tables leave memory


def test_finished_tables_leave_memory_and_are_served_from_the_store(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        watcher = Guest(base, "Watcher")
        await watcher.connect(table_id)
        try:
            await play_out(amira)
            rematch_id = await rematch(amira)
            closed = await next_message(amira, "closed", timeout=10)
            assert closed["reason"] == "finished"
            await next_message(watcher, "closed", timeout=10)
            with pytest.raises(ConnectionClosed):
                await amira.receive(5)
        finally:
            await amira.close()
            await watcher.close()
        health = (await http.get(f"{base}/health")).json()["memory"]
        assert health["evicted"] >= 1
        assert health["tables"] <= 1  # at most the rematch
        info = (await http.get(f"{base}/api/tables/{table_id}",
                               headers=amira.headers)).json()
        assert info["table"]["status"] == "finished"
        assert info["table"]["rematch_table"] == rematch_id
        assert info["seat"] == 0
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        assert verify(parse_record(record)).ok
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        assert history["matches"][0]["table"] == table_id
        # a socket to the evicted table: its last state, then closed
        late = Guest(base, "Late")
        await late.connect(table_id)
        final = await late.until(over)
        assert final["view"]["winner"] is not None
        assert (await next_message(late, "closed"))["reason"] == "finished"
        with pytest.raises(ConnectionClosed):
            await late.receive(5)
        await late.close()

    serve(backend, scenario, rematch_window_seconds=0.5, sweep_seconds=0.1)


# ---------------------------------------------------------------------------------------
# 6. the invite link and text that is not text


def test_the_invite_link_goes_only_to_the_seated(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        stranger = await new_guest(base, http, "Stranger")
        created = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={})).json()
        table_id = created["table"]["id"]
        assert created["invite_link"].startswith("/join/")
        for headers in ({}, stranger.headers, {"Authorization": "Bearer nonsense"}):
            public = (await http.get(f"{base}/api/tables/{table_id}",
                                     headers=headers)).json()
            assert "invite_link" not in public and "invite_code" not in public["table"]
            assert public["seat"] is None
        mine = (await http.get(f"{base}/api/tables/{table_id}",
                               headers=amira.headers)).json()
        assert mine["invite_link"] == created["invite_link"] and mine["seat"] == 0

    serve(tmp_path, scenario)


def test_text_that_is_not_valid_gets_a_code_never_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for raw in ('{"nickname": "\\u0301\\u0301\\u0301"}',  # combining marks only
                    '{"nickname": "\\ud800abc"}',  # a lone surrogate
                    '{"nickname": "\\u3164\\u3164"}',  # Hangul fillers: nothing visible
                    '{"nickname": "__--"}'):
            r = await http.post(f"{base}/api/guests", content=raw,
                                headers={"content-type": "application/json"})
            assert r.status_code == 422, (raw, r.text)
            assert r.json()["error"]["code"] in ("guest/bad_nickname", "request/invalid",
                                                 "guest/nickname_invisible")
        amira = await at_a_bot_table(base, http)
        await amira.until(lambda s: pending_round(s) == 1)
        for part in ('"\\ud800"', '"abc\\udfffdef"', '"tab\\there"', '"nul\\u0000"'):
            await amira.send_raw('{"type": "seed", "round": 1, "client_seed": ' + part + "}")
            await amira.ping()
            assert amira.errors[-1]["code"] == "seed/bad", part
        for raw in ('{"type": "\\ud800"}', '{"type": "play", "version": 1, '
                    '"card": "\\ud800", "take": []}'):
            await amira.send_raw(raw)
            await amira.ping()
            assert re.match(r"protocol/", amira.errors[-1]["code"]), raw
        await amira.send({"type": "seed", "round": 1, "client_seed": "ok"})
        await amira.until(lambda s: s["view"]["round"] == 1)  # the socket lives on
        await amira.close()

    serve(tmp_path, scenario, seed_window_seconds=30.0)
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


def test_a_long_poll_ends_when_the_bot_offer_falls_due(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        ticket = (await http.post(f"{base}/api/quick-match", headers=amira.headers,
                                  json={})).json()
        assert ticket["bot_offer"] is False
        started = time.monotonic()
        r = await http.get(f"{base}/api/quick-match/{ticket['ticket']}?wait=25",
                           headers=amira.headers, timeout=30)
        assert r.json()["bot_offer"] is True and r.json()["status"] == "waiting"
        assert time.monotonic() - started < 5

    serve(tmp_path, scenario, quick_match_bot_offer_seconds=1.0)


def test_a_flood_spaced_out_to_slip_between_refills_is_closed_too(tmp_path: Path) -> None:
    """Twice the allowed rate, evenly spaced: every other message passes, yet the drops
    add up and the socket is closed (a count of drops in a row would never close it)."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        ws = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            async with connect(ws, max_queue=None) as spectator:
                for _ in range(400):  # 4 s at 100 a second, against a limit of 50
                    await spectator.send(json.dumps({"type": "ping"}))
                    await asyncio.sleep(0.01)
                pytest.fail("400 messages at twice the rate, and still open")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert time.monotonic() - started < 4

    limits = Limits(messages_per_second=50, message_burst=5, flood_close=30)
    serve(tmp_path, scenario, limits=limits)


def test_a_seat_holds_a_few_sockets_and_repeats_change_nothing(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        tabs = [Guest(base, "Amira", token=amira.token) for _ in range(5)]
        for tab in tabs[:4]:
            await tab.connect(table_id)
            await tab.until(lambda s: True)
        await tabs[4].connect(table_id)
        await tabs[4].until(lambda s: True)
        closed = await next_message(tabs[0], "closed")  # the oldest tab gave way
        assert closed["reason"] == "replaced"
        for tab in tabs:
            await tab.close()
        # an invite code that is not text is no code, never a traceback
        r = await http.post(f"{base}/api/tables/join", headers=amira.headers,
                            content='{"invite_code": "\\ud800"}')
        assert r.status_code in (404, 422), r.text
        assert r.json()["error"]["code"] in ("table/not_found", "request/invalid")

    serve(tmp_path, scenario)


def test_asking_for_a_rematch_twice_sends_nothing_new(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        _, amira, omar = await two_at_a_private_table(base, http)
        try:
            await play_out(amira, omar)
            await amira.send({"type": "rematch"})
            state = await amira.until(lambda s: s["table"]["players"][0]["rematch"])
            version = state["version"]
            for _ in range(5):
                await amira.send({"type": "rematch"})
            pong, before = await amira.ping()
            assert pong == version and not changes(before)
        finally:
            await amira.close()
            await omar.close()

    serve(tmp_path, scenario)
