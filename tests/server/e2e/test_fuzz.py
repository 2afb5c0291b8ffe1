"""Fuzz: hundreds of malformed, oversized, binary, deeply nested, wrongly typed, out-of-turn,
stale and illegal messages (a seeded random mix) from several clients at three tables at
once, and random garbage to the HTTP API.

Every refused message gets exactly one coded error and changes nothing: while the tables
wait for a person to play, not one state is broadcast and the version stays put. No socket
is closed by the server (but for a frame beyond the transport's 16 KiB limit, closed with
1009), no traceback is logged, and afterwards every table plays on to the end, with noise
still coming, and its record holds exactly the plays that were accepted."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import string
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosedError

from basra.match.records import parse_record
from basra.match.replay import verify
from server_harness import (
    ERROR_CODES,
    Guest,
    PlayLog,
    changes,
    comparable,
    database,
    new_guest,
    over,
    record_plays,
    run,
    running_server,
)

Expected = frozenset[str] | None
"""The error codes one of which a message must get, or None: no error (no reply at all),
or PONG: the message is a ping (with extra fields), answered with a pong."""
PONG = frozenset({"pong"})

ILLEGAL = frozenset({"play/not_in_hand", "play/bad_take", "play/must_take"})
CARDS = [f"{r}{s}" for s in "CDHS" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]


def one(*codes: str) -> frozenset[str]:
    return frozenset(codes)


# ---------------------------------------------------------------------------------------
# the noise: each generator gives a raw message and what the server must answer


def play(version: Any, card: Any, take: Any) -> str:
    return json.dumps({"type": "play", "version": version, "card": card, "take": take})


def play_codes(state: dict[str, Any], refused: frozenset[str]) -> frozenset[str]:
    """A well-formed play: a spectator is told it is not seated before anything else."""
    return one("play/not_seated") if state["you"] is None else refused


def garbage(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    choices = ["", "{", "}", "nul", "[1, 2", "{'type': 'ping'}", '{"type": "ping"',
               "null", "[]", "42", '"play"', "true", "[{}]", '{"type": "ping"}}']
    text = rng.choice(choices) if rng.random() < 0.5 else "".join(
        rng.choice(string.printable) for _ in range(rng.randrange(1, 300)))
    try:
        if isinstance(json.loads(text), dict):
            text = "{" + text
    except ValueError:
        pass
    return text, one("protocol/bad_json")


def binary(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    if rng.random() < 0.5:  # not UTF-8
        return b"\xff" + rng.randbytes(rng.randrange(0, 200)), one("protocol/bad_json")
    # a binary frame of JSON is read as the same message in a text frame
    stale = play(state["version"] - 1, rng.choice(CARDS), []).encode()
    return stale, play_codes(state, one("play/stale"))


def too_large(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    if rng.random() < 0.5:
        return "x" * rng.randrange(4097, 16000), one("protocol/too_large")
    # fewer than 4,096 characters, but more than 4,096 bytes
    padding = "é" * rng.randrange(2100, 4000)
    return json.dumps({"type": "ping", "pad": padding}, ensure_ascii=False), one(
        "protocol/too_large")


def nested(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    depth = rng.randrange(1100, 2040)
    if rng.random() < 0.5:
        return "[" * depth + "]" * depth, one("protocol/bad_json")
    take = "[" * depth + "]" * depth
    return ('{"type": "play", "version": 1, "card": "5H", "take": ' + take[:4000] + "}",
            one("protocol/bad_json"))


def unknown(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    kind = rng.choice(["dance", "", "PLAY", "Ping", 5, None, [], {}, [1], {"a": 1}, True,
                       1.5, "play " * 3, "missing"])
    message: dict[str, Any] = {"version": state["version"], "card": "5H", "take": []}
    if kind != "missing":
        message["type"] = kind
    return json.dumps(message), one("protocol/unknown_type")


def bad_message(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    v = state["version"]
    cases = [
        {"type": "play", "version": "1", "card": "5H", "take": []},
        {"type": "play", "version": 1.0, "card": "5H", "take": []},
        {"type": "play", "version": True, "card": "5H", "take": []},
        {"type": "play", "version": None, "card": "5H", "take": []},
        {"type": "play", "card": "5H", "take": []},
        {"type": "play", "version": v, "card": 5, "take": []},
        {"type": "play", "version": v, "card": ["5H"], "take": []},
        {"type": "play", "version": v, "card": None, "take": []},
        {"type": "play", "version": v, "take": []},
        {"type": "play", "version": v, "card": "5H"},
        {"type": "play", "version": v, "card": "5H", "take": "4C"},
        {"type": "play", "version": v, "card": "5H", "take": {"4C": 1}},
        {"type": "play", "version": v, "card": "5H", "take": [4]},
        {"type": "play", "version": v, "card": "5H", "take": ["4C", None]},
        {"type": "play", "version": v, "card": "5H", "take": ["4C"] * 53},
        {"type": "play", "version": v, "card": "5H", "take": ["4C", "4c"]},
        {"type": "seed", "client_seed": 7},
        {"type": "seed", "client_seed": None},
        {"type": "seed"},
    ]
    return json.dumps(rng.choice(cases)), one("protocol/bad_message")


def bad_card(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    bad = rng.choice(["ZZ", "1H", "", "10X", "11C", "A", "5HH", "♥5", "QQ", "0C", "T5"])
    if rng.random() < 0.5:
        return play(state["version"], bad, []), one("protocol/bad_card")
    return play(state["version"], "5H", ["4C", bad]), one("protocol/bad_card")


def seed(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    roll = rng.random()
    number = state["view"]["round"]

    def part(text: str) -> str:
        return json.dumps({"type": "seed", "round": number, "client_seed": text})

    if roll < 0.2:
        return part("a|b"), one("seed/bad")
    if roll < 0.35:
        return part("s" * rng.randrange(61, 500)), one("seed/bad")
    if roll < 0.5:
        return part(rng.choice(["", "tab\there", "\x00", "\ud800", "x\udfff"])), one("seed/bad")
    if state["you"] is None:
        return part("mine"), one("seed/not_seated")
    if roll < 0.6:
        return json.dumps({"type": "seed", "round": number + rng.choice([1, 5, -1]),
                           "client_seed": "elsewhere"}), one("seed/wrong_round")
    return part("late"), one("seed/round_started")


def stale(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    version = state["version"] + rng.choice([-1, -2, 1, 5, -10**6, 10**30])
    legal = state["view"]["legal"]
    if legal:
        chosen = rng.choice(legal)
        card, take = chosen["card"], chosen["take"]
    else:
        card, take = rng.choice(CARDS), []
    return play(version, card, take), play_codes(state, one("play/stale"))


def out_of_turn_or_illegal(rng: random.Random, state: dict[str, Any]
                           ) -> tuple[str | bytes, Expected]:
    view = state["view"]
    v = state["version"]
    if state["you"] is None:
        return play(v, rng.choice(CARDS), []), one("play/not_seated")
    if not view["legal"]:  # not this seat's turn: whatever it plays
        card = rng.choice(view["hand"] or CARDS)
        return play(v, card, []), one("play/not_your_turn")
    legal = {(p["card"], tuple(sorted(p["take"]))) for p in view["legal"]}
    while True:
        if rng.random() < 0.3:
            card = rng.choice([c for c in CARDS if c not in view["hand"]])
        else:
            card = rng.choice(view["hand"])
        take = sorted(rng.sample(view["floor"], rng.randrange(0, min(3, len(view["floor"])) + 1)))
        if rng.random() < 0.1:
            take.append(rng.choice([c for c in CARDS if c not in view["floor"]]))
        if (card, tuple(sorted(take))) not in legal:
            return play(v, card, take), ILLEGAL


def simple(rng: random.Random, state: dict[str, Any]) -> tuple[str | bytes, Expected]:
    kind = rng.choice(["ready", "rematch", "ping-extra"])
    seated = state["you"] is not None
    if kind == "ready":
        return json.dumps({"type": "ready"}), None if seated else one("ready/not_seated")
    if kind == "rematch":
        return json.dumps({"type": "rematch", "x": [1]}), one(
            "rematch/not_over" if seated else "rematch/not_seated")
    return json.dumps({"type": "ping", "extra": {"a": [1, 2]}}), PONG


NOISE = [garbage, binary, too_large, nested, unknown, bad_message, bad_card, seed, stale,
         out_of_turn_or_illegal, out_of_turn_or_illegal, simple]


async def noise_round(guest: Guest, rng: random.Random, quiet: bool) -> None:
    """One noise message and a ping: exactly the expected error (or none) comes back
    before the pong. ``quiet``: the table is waiting, so no state may arrive either."""
    state = guest.state
    raw, expected = rng.choice(NOISE)(rng, state)
    await guest.send_raw(raw)
    version, before = await guest.ping()
    if expected == PONG:  # the first pong answered the noise itself
        version, more = await guest.ping_answer()
        before += more
    errors = [m for m in before if m["type"] == "error"]
    shown = raw[:60]
    if expected is None or expected == PONG:
        assert errors == [], (shown, errors)
    else:
        assert len(errors) == 1 and errors[0]["code"] in expected, (shown, expected, errors)
        assert errors[0]["code"] in ERROR_CODES
        assert isinstance(errors[0]["message"], str) and "\n" not in errors[0]["message"]
    if quiet:
        assert [m for m in before if m["type"] != "error"] == [], shown
        assert version == state["version"], shown


# ---------------------------------------------------------------------------------------
# HTTP garbage


CODE = re.compile(r"[a-z_]+/[a-z_0-9]+")


def http_cases(rng: random.Random, base: str, tokens: dict[str, str],
               tables: dict[str, str], invite: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, url, httpx keyword arguments): bad bodies, tokens, tables and routes."""
    auth = {"Authorization": f"Bearer {tokens['Dina']}"}
    stranger = {"Authorization": f"Bearer {tokens['Amira']}"}
    json_header = {"content-type": "application/json"}
    bodies: list[dict[str, Any]] = [
        {"content": b"{", "headers": json_header},
        {"content": b"\xff\xfe", "headers": json_header},
        {"content": b"[" * 5000 + b"]" * 5000, "headers": json_header},
        {"content": b'{"nickname": "Amira"}', "headers": {"content-type": "text/plain"}},
        {"content": b""},
        {"json": []},
        {"json": "Amira"},
        {"json": {"nickname": 5}},  # (no nickname, or null, is a generated name)
        {"json": {"nickname": ["Amira"]}},
        {"json": {"nickname": "x" * rng.choice([21, 201, 10_000, 1_000_000])}},
        {"json": {"nickname": "<script>alert(1)</script>"}},
        {"json": {"nickname": "bot:hard"}},
        {"json": {"nickname": " "}},
        {"json": {"nickname": "a\u0000b"}},
        {"json": {"nickname": "Ami\nra"}},
    ]
    cases: list[tuple[str, str, dict[str, Any]]] = []
    for body in bodies:
        cases.append(("POST", f"{base}/api/guests", body))
    bad_tokens = [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"},
                  {"Authorization": "Bearer " + "t" * 10_000}, {"Authorization": "Bearer"},
                  {"Authorization": ""}]
    for headers in bad_tokens:
        cases.append(("GET", f"{base}/api/me", {"headers": headers}))
        cases.append(("GET", f"{base}/api/history", {"headers": headers}))
        cases.append(("POST", f"{base}/api/tables/bot", {"headers": headers, "json": {}}))
    for options in [{"variant": "chess"}, {"players": 7}, {"players": "two"},
                    {"teams": "yes"}, {"bot_level": "god"}, {"clock_seconds": -1},
                    {"clock_seconds": 1e9}, {"variant": "arabic101", "players": 3},
                    {"variant": "x" * 500}, {"players": 3, "teams": True}, []]:
        cases.append(("POST", f"{base}/api/tables/bot", {"headers": auth, "json": options}))
        cases.append(("POST", f"{base}/api/tables/private", {"headers": auth,
                                                              "json": options}))
    for raw in [b'{"clock_seconds": NaN}', b'{"clock_seconds": Infinity}',
                b'{"players": 1e400}']:
        cases.append(("POST", f"{base}/api/tables/bot",
                      {"headers": {**auth, **json_header}, "content": raw}))
    for code in ["", "NOPE1234", "x" * 41, invite.lower() + "x", 5, None]:
        cases.append(("POST", f"{base}/api/tables/join", {"headers": auth,
                                                          "json": {"invite_code": code}}))
    # a started table: too late to join, or to add bots (owner or not)
    cases.append(("POST", f"{base}/api/tables/join", {"headers": stranger,
                                                      "json": {"invite_code": invite}}))
    for table_id in (*tables.values(), "nope", "x" * 300):
        for body in [{"level": "random"}, {"seat": 9}, {"level": "god"}, {"seat": "a"}]:
            for headers in (auth, stranger):
                cases.append(("POST", f"{base}/api/tables/{table_id}/bots",
                              {"headers": headers, "json": body}))
    for path in ["/api/tables/nope", "/api/tables/nope/record", "/api/tables/%00",
                 "/api/quick-match/nope", "/api/quick-match/nope?wait=abc",
                 "/api/nothing", "/ws/tables/nope", "/api/tables/" + "x" * 3000]:
        cases.append(("GET", base + path, {"headers": auth}))
    cases += [
        ("POST", f"{base}/api/quick-match", {"headers": auth, "json": {"variant": "chess"}}),
        ("POST", f"{base}/api/quick-match", {"headers": auth, "json": {"variant": 5}}),
        ("POST", f"{base}/api/quick-match/nope/bot", {"headers": auth, "json": {}}),
        ("DELETE", f"{base}/api/quick-match/nope", {"headers": auth}),
        ("PUT", f"{base}/api/guests", {"json": {"nickname": "Amira"}}),
        ("DELETE", f"{base}/api/tables/{tables['T1']}", {"headers": auth}),
        ("PATCH", f"{base}/health", {}),
    ]
    rng.shuffle(cases)
    return cases


async def http_fuzz(http: httpx.AsyncClient, cases: list[tuple[str, str, dict[str, Any]]]
                    ) -> int:
    refused = 0
    for method, url, kwargs in cases:
        r = await http.request(method, url, **kwargs)
        assert r.status_code < 500, (method, url[:80], r.status_code, r.text[:200])
        if r.status_code >= 400:
            refused += 1
            error = r.json()["error"]
            assert CODE.fullmatch(error["code"]), (method, url[:80], r.text[:200])
            assert isinstance(error["message"], str), r.text[:200]
    return refused


# ---------------------------------------------------------------------------------------
# the test


async def human_turn(guest: Guest) -> None:
    """Wait until the table waits for a person (its bots have played up to one)."""
    def waiting(s: dict[str, Any]) -> bool:
        turn = s["view"]["turn"]
        return turn is not None and s["table"]["players"][turn]["kind"] == "human"
    await guest.until(waiting)


async def play_with_noise(guest: Guest, rng: random.Random) -> None:
    """Play to the end; on some turns, first a refused message on the same version."""
    sent = -1
    while True:
        state = await guest.until(
            lambda s, last=sent: over(s) or (guest.my_turn(s) and s["version"] > last), 120)
        if over(state):
            return
        if rng.random() < 0.3:
            raw, expected = rng.choice(NOISE)(rng, state)
            errors_before = len(guest.errors)
            await guest.send_raw(raw)
            version, before = await guest.ping()
            if expected == PONG:
                version, more = await guest.ping_answer()
                before += more
            assert version == state["version"]
            got = guest.errors[errors_before:]
            if expected is None or expected == PONG:
                assert got == []
            else:
                assert len(got) == 1 and got[0]["code"] in expected, (raw[:60], got)
            assert not any(m["version"] != version for m in changes(before))
        sent = state["version"]
        legal = state["view"]["legal"]
        await guest.play_legal(rng.randrange(len(legal)))


async def watch_with_noise(guest: Guest, rng: random.Random) -> None:
    while not (guest.state and over(guest.state)):
        await noise_round(guest, rng, quiet=False)
        await asyncio.sleep(0.01)


def test_fuzzed_tables_refuse_everything_and_still_play_to_the_end(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random("fuzz-1")

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient(timeout=60) as http:
            names = ["Amira", "Badr", "Camila", "Dina", "Emad"]
            people = {n: await new_guest(base, http, n) for n in names}
            amira, badr, camila, dina, emad = people.values()
            tables: dict[str, str] = {}
            r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                                json={"bot_level": "random"})
            tables["T1"] = r.json()["table"]["id"]
            created = (await http.post(f"{base}/api/tables/private", headers=badr.headers,
                                       json={})).json()
            tables["T2"] = created["table"]["id"]
            await http.post(f"{base}/api/tables/join", headers=camila.headers,
                            json={"invite_code": created["table"]["invite_code"]})
            created = (await http.post(f"{base}/api/tables/private", headers=dina.headers,
                                       json={"players": 4, "teams": True})).json()
            tables["T3"] = created["table"]["id"]
            invite = created["table"]["invite_code"]
            for seat in (1, 3):
                await http.post(f"{base}/api/tables/{tables['T3']}/bots",
                                headers=dina.headers, json={"seat": seat, "level": "random"})
            await http.post(f"{base}/api/tables/join", headers=emad.headers,
                            json={"invite_code": invite})

            # Every table, its people, a spectator, and someone seated elsewhere.
            seated = {"T1": [amira], "T2": [badr, camila], "T3": [dina, emad]}
            watchers = {"T1": [Guest(base, "W1"), Guest(base, "O1", token=badr.token)],
                        "T2": [Guest(base, "W2")],
                        "T3": [Guest(base, "W3"), Guest(base, "O3", token=amira.token)]}
            everyone = [g for t in tables for g in (*seated[t], *watchers[t])]
            passing: list[Guest] = []  # short visits, closed at the end whatever happens
            try:
                for t, table_id in tables.items():
                    for guest in (*seated[t], *watchers[t]):
                        await guest.connect(table_id)
                for guest in everyone:
                    await human_turn(guest)
                for guest in everyone:  # everything sent so far is read
                    await guest.ping()
                before = {t: comparable(watchers[t][0].state) for t in tables}

                # Phase 1: the tables wait for a person; noise from everyone at once, and
                # garbage to the HTTP API (joining again, too late, adding bots to a started
                # table...). Not one state may move.
                async def noisy(guest: Guest, seed: int) -> None:
                    mine = random.Random(f"fuzz-{seed}")
                    for _ in range(30):
                        await noise_round(guest, mine, quiet=True)

                cases = http_cases(rng, base, {n: g.token for n, g in people.items()}, tables,
                                   invite)
                again = http.post(f"{base}/api/tables/join", headers=emad.headers,
                                  json={"invite_code": invite})
                results = await asyncio.gather(http_fuzz(http, cases), again,
                                               *(noisy(g, i) for i, g in enumerate(everyone)))
                assert results[0] >= len(cases) - 2
                assert results[1].status_code == 200 and results[1].json()["seat"] == 2
                for t, table_id in tables.items():
                    late = Guest(base, f"Late{t}")
                    passing.append(late)
                    await late.connect(table_id)
                    await late.until(lambda s: True)
                    assert comparable(late.state) == before[t]
                    await late.close()
                for guest in everyone:  # the newcomers' visits are broadcast: read them
                    await guest.ping()

                # A frame beyond the transport's limit closes that connection (1009) only.
                big = Guest(base, "Big")
                passing.append(big)
                await big.connect(tables["T1"])
                await big.until(lambda s: True)
                await big.send_raw("x" * 20_000)
                with pytest.raises(ConnectionClosedError) as closed:
                    while True:
                        await big.receive(10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
                await big.close()

                # Phase 2: every table plays to the end while the noise goes on.
                players = [play_with_noise(g, random.Random(f"play-{i}"))
                           for i, g in enumerate(g for t in tables for g in seated[t])]
                watching = [watch_with_noise(g, random.Random(f"watch-{i}"))
                            for i, g in enumerate(g for t in tables for g in watchers[t])]
                await asyncio.gather(*players, *watching)
                for guest in everyone:  # still connected, and nothing left unexplained
                    await guest.ping()
                    assert over(guest.state)
                    await guest.close()

                for t, table_id in tables.items():
                    doc = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
                    record = parse_record(json.dumps(doc))
                    assert verify(record).ok, verify(record).failure
                    seen = PlayLog()
                    for guest in (*seated[t], *watchers[t]):
                        seen.see_all(guest.seen)
                    assert record_plays(record) == seen.rounds
            finally:
                for guest in (*everyone, *passing):
                    await guest.close()

    caplog.set_level(logging.WARNING)
    with database("sqlite", tmp_path) as store, running_server(
            store.settings(clock_seconds=600, grace_seconds=60)) as base:
        run(scenario(base))
    trouble = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not trouble, [f"{r.name}: {r.getMessage()}" for r in trouble]
