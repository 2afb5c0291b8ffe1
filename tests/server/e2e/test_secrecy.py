"""Secrecy, as a property of whole random matches: no message to a seat ever names a card
that seat may not know (another seat's hand, the stock), a spectator never sees a hand, and
no message carries a round's server seed before that round is over, while the round's
commitment is out no later than its first cards.

Each match is played to the end by two guests making random legal plays (bots at the other
seats) while a spectator watches; every message of the three connections is kept. The final
record gives every round's deck, so the whole truth at every moment is known: round r after
k plays is replayed through the engine, and a state showing round r with k plays is checked
against it. A ``played`` message (basra-ws/2) is checked as it came, and the state it makes
(applied to the one held) likewise: it names only the receiving seat's own hand (a
spectator's is empty), and legal plays only on that seat's turn."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx

from basra.game.cards import mask_of, parse_card
from basra.game.engine import Play, Round
from basra.game.shuffle import commitment
from basra.match.records import Fairness, MatchRecord, RecordBuilder, parse_record
from basra.match.replay import verify
from basra.server.wire.server_messages import apply_played
from basra.store import open_store
from server_harness import (
    Backend,
    Guest,
    card_names_in,
    database,
    hidden_from,
    new_guest,
    over,
    play_out,
    play_turns,
    round_states,
    run,
    running_server,
    strings_in,
)

# (variant, seats, teams, the people's seats (one: a bot table), rounds to play (0: the
# whole match), seed of the people's random choices)
MATCHES = [
    ("egyptian", 2, False, (0, 1), 0, 1),
    ("egyptian", 4, True, (0, 1), 0, 2),  # the two people are opponents
    ("egyptian", 4, True, (0, 2), 0, 3),  # partners
    ("lebanese", 3, False, (0, 2), 3, 4),  # long matches: three rounds are enough
    ("egyptian", 2, False, (0,), 0, 5),  # a bot table
]


async def seat_table(base: str, http: httpx.AsyncClient, variant: str, seats: int,
                     teams: bool, people: tuple[int, ...], n: int
                     ) -> tuple[str, list[Guest], Guest]:
    """The table, its people (connected before the first deal when they can be) and a
    spectator connected from the start."""
    owner = await new_guest(base, http, f"Owner{n}")
    options = {"variant": variant, "players": seats, "teams": teams, "bot_level": "random"}
    spectator = Guest(base, f"Watcher{n}")
    if len(people) == 1:
        created = (await http.post(f"{base}/api/tables/bot", headers=owner.headers,
                                   json=options)).json()
        table_id = created["table"]["id"]
        await spectator.connect(table_id)
        await owner.connect(table_id)
        return table_id, [owner], spectator
    created = (await http.post(f"{base}/api/tables/private", headers=owner.headers,
                               json=options)).json()
    table_id = created["table"]["id"]
    await owner.connect(table_id)
    await spectator.connect(table_id)
    for seat in range(1, seats):
        if seat not in people:
            r = await http.post(f"{base}/api/tables/{table_id}/bots", headers=owner.headers,
                                json={"seat": seat, "level": "random"})
            assert r.status_code == 200, r.text
    guest = await new_guest(base, http, f"Guest{n}")
    r = await http.post(f"{base}/api/tables/join", headers=guest.headers,
                        json={"invite_code": created["table"]["invite_code"]})
    assert r.json()["seat"] == people[1]
    await guest.connect(table_id)
    return table_id, [owner, guest], spectator


def check_connection(messages: list[dict[str, Any]], seat: int | None,
                     truth: MatchRecord) -> None:
    """Every message one connection received, against the match's whole truth."""
    states = round_states(truth)
    seeds = [r.fairness.server_seed for r in truth.rounds if r.fairness]
    commitments = [r.fairness.commitment for r in truth.rounds if r.fairness]
    assert len(seeds) == len(commitments) == len(truth.rounds) >= 2
    committed: set[str] = set()
    first_cards: set[int] = set()
    revealed: set[int] = set()
    states_seen = played_seen = over_already = 0
    held: dict[str, Any] = {}
    for index, message in enumerate(messages):
        where = f"seat {seat}, message {index}"
        if message["type"] == "welcome":
            assert message["seat"] == seat, where
            continue
        if message["type"] == "pong":
            continue
        if message["type"] == "played":
            played_seen += 1
            check_played(message, seat, held, states, where)
            held = apply_played(held, message)
        else:
            assert message["type"] == "state", (where, message)
            held = message
        states_seen += 1
        view, table = held["view"], held["table"]
        assert held["you"] == seat and view["seat"] == seat, where
        number, played = view["round"], len(view["plays"])
        fairness = table["fairness"]
        if fairness["current"] is not None:
            committed.add(fairness["current"]["commitment"])
        for entry in fairness["revealed"]:
            assert commitment(entry["server_seed"]) == entry["commitment"], where
            assert entry["server_seed"] == seeds[entry["round"] - 1], where
            revealed.add(entry["round"])
        # no server seed of a round that is not over, anywhere in the message
        over_already = number if number and states[number][played].finished else number - 1
        secret = seeds[max(0, over_already):]
        for text in strings_in(message) + strings_in(held):
            assert not any(s in text for s in secret), (where, "a server seed leaked")
        if seat is None:
            assert view["hand"] == [] and view["legal"] == [], where
            assert "invite_code" not in table, where
        if number == 0:
            assert not card_names_in(message), where
            continue
        if number not in first_cards:  # the round's first cards: its commitment is out
            first_cards.add(number)
            assert commitments[number - 1] in committed, (where, "no commitment before")
        truth_now = states[number][played]
        leaked = (card_names_in(message) | card_names_in(held)) & hidden_from(truth_now, seat)
        assert not leaked, (where, "hidden cards named", sorted(leaked))
        if seat is not None:
            hand = truth_now.hand(seat)
            assert sorted(card_names_in(view["hand"])) == [c for c in range(52)
                                                           if hand >> c & 1], where
    assert states_seen > 100
    assert played_seen > states_seen // 2, (played_seen, states_seen)
    # by the last message, every round that was over then had been revealed
    assert revealed == set(range(1, over_already + 1))


def check_played(message: dict[str, Any], seat: int | None, held: dict[str, Any],
                 states: dict[int, list[Round]], where: str) -> None:
    """A ``played`` message as it came: it follows the state held (no gap), and what it
    shows of hands is the receiving seat's own, at that moment of the round."""
    assert held and message["version"] == held["version"] + 1, (where, "a version gap")
    number = message["round"]
    assert number == held["view"]["round"], where
    truth_now = states[number][len(held["view"]["plays"]) + 1]
    assert message["hand_counts"] == [bin(h).count("1") for h in truth_now.hands], where
    assert message["turn"] == truth_now.turn, where
    if seat is None:
        assert message["hand"] == [] and message["legal"] == [], (where, "a spectator's hand")
        return
    hand = truth_now.hand(seat)
    assert sorted(card_names_in(message["hand"])) == [c for c in range(52) if hand >> c & 1]
    if truth_now.turn != seat:
        assert message["legal"] == [], (where, "legal plays off turn")
    else:
        assert {p["card"] for p in message["legal"]} <= set(message["hand"]), where


async def truth_of(backend: Backend, table_id: str) -> MatchRecord:
    """The whole truth of a table, from the server's store: every round's seeds (the one in
    play too) and every play."""
    store = open_store(backend.db_url, backend.data_dir)
    await store.open()
    try:
        log = await store.load(table_id)
    finally:
        await store.close()
    assert log is not None
    builder = RecordBuilder(log.table.variant, [f"p{s.seat}" for s in log.seats],
                            log.table.teams)
    for rnd in log.rounds:
        if rnd.client_seed is None:
            continue
        builder.start_round(fairness=Fairness.from_seeds(rnd.server_seed, rnd.client_seed,
                                                         rnd.number))
        for p in log.plays:
            if p.round_number == rnd.number:
                builder.add_play(Play(parse_card(p.card),
                                      mask_of(parse_card(t) for t in p.take)), p.seat)
    return builder.build()


async def read_until_pong(guest: Guest) -> None:
    """Read (and keep) every message up to the first pong. Stopped by a ping rather than
    cancelled: a cancelled read can hang in Python 3.11's ``asyncio.wait_for``."""
    while (await guest.receive(300))["type"] != "pong":
        pass


def test_no_message_names_a_card_or_seed_its_reader_may_not_know(tmp_path: Path) -> None:
    logs: dict[str, list[tuple[list[dict[str, Any]], int | None]]] = {}

    async def one_match(base: str, http: httpx.AsyncClient, spec: tuple[Any, ...]) -> None:
        variant, seats, teams, people, rounds, n = spec
        rng = random.Random(f"secrecy-{n}")
        table_id, guests, spectator = await seat_table(base, http, variant, seats, teams,
                                                       people, n)
        watching = asyncio.create_task(read_until_pong(spectator))
        try:
            if rounds:
                await play_turns(guests, lambda s: s["view"]["round"] > rounds, rng=rng)
            else:
                await play_out(*guests, rng=rng, timeout=200)
            await spectator.send({"type": "ping"})
            await watching  # every message sent to the spectator so far is read
            for g in guests:
                await g.ping()  # and to the people
        finally:
            for g in (*guests, spectator):
                await g.close()
            await asyncio.wait([watching], timeout=30)
            if watching.done() and not watching.cancelled():
                watching.exception()  # retrieved: a failure above says what went wrong
        if not rounds:
            doc = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
            assert verify(parse_record(json.dumps(doc))).ok
            for g in (*guests, spectator):
                assert over(g.state)
        logs[table_id] = [(g.log, seat) for g, seat in zip(guests, people, strict=True)]
        logs[table_id].append((spectator.log, None))

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            await asyncio.gather(*(one_match(base, http, spec) for spec in MATCHES))

    with database("sqlite", tmp_path) as store:
        with running_server(store.settings()) as base:
            run(scenario(base))
        for table_id, connections in logs.items():
            truth = run(truth_of(store, table_id))
            for messages, seat in connections:
                check_connection(messages, seat, truth)
