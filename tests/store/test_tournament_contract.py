"""The tournament store's contract: the same scenarios on the in-memory store
(:class:`~basra.store.memory_tournaments.MemoryTournamentStore`), SQLite and PostgreSQL.

Each test is one rule of :class:`~basra.store.ports.TournamentStore`, run on all three (as
``test_table_contract.py`` does for tables; its ``kind`` and ``store_url`` fixtures are these
tests' too). What must hold between nodes (one tournament a schedule key, one pairing an
entrant a round, one result a pairing) is also tried with two stores writing at once on the
databases, and on PostgreSQL with a writer that holds its transaction open.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import insert

from basra.store import open_store
from basra.store.base import (
    DuplicatePairing,
    EntrantRow,
    PairingRow,
    StoreError,
    TournamentRow,
)
from basra.store.memory import MemoryTableStore
from basra.store.memory_tournaments import MemoryTournamentStore
from basra.store.ports import Store, TableStore, TournamentStore
from basra.store.schema import tournament_pairings, tournament_seats
from basra.store.sql import SqlTournaments
from store.test_store import T0, seat, sql_store, table
from store.test_table_contract import kind, url  # noqa: F401  (memory, SQLite, PostgreSQL)

# ---------------------------------------------------------------------------------------
# the three stores


@pytest.fixture
def store_url(url: str | None) -> str | None:  # noqa: F811
    """The store under test: None for the memory store, else a fresh database's URL."""
    return url


@dataclass
class Events:
    """A tournament store under test, the table store beside it, and how to make players
    (an account when a username is given)."""

    store: TournamentStore
    tables: TableStore
    add_player: Callable[..., Awaitable[None]]


Scenario = Callable[[Events], Awaitable[Any]]


@asynccontextmanager
async def opened(store_url: str | None) -> AsyncIterator[Events]:
    if store_url is None:
        tables = MemoryTableStore()

        async def remember(player_id: str, nickname: str, username: str | None = None) -> None:
            tables.add_player(player_id, nickname, username)

        yield Events(MemoryTournamentStore(tables), tables, remember)
        return
    store: Store = open_store(store_url)
    await store.open()

    async def create(player_id: str, nickname: str, username: str | None = None) -> None:
        await store.create_player(player_id, nickname, f"hash-{player_id}")
        if username is not None:
            await store.claim_account(player_id, username, None)

    try:
        yield Events(store, store, create)
    finally:
        await store.close()


def run(store_url: str | None, scenario: Scenario) -> None:
    async def main() -> None:
        async with opened(store_url) as events:
            await events.add_player("p1", "Amal", "amal")
            await events.add_player("p2", "Badr")
            await events.add_player("p3", "Camil", "camil")
            await events.add_player("p4", "Dina")
            await scenario(events)

    asyncio.run(main())


# ---------------------------------------------------------------------------------------
# rows


def tournament(tournament_id: str = "e1", **changes: Any) -> TournamentRow:
    row = TournamentRow(id=tournament_id, name="Hourly arena", variant="egyptian",
                        format="arena", status="upcoming", starts_at=T0 + timedelta(hours=1),
                        created_at=T0, minutes=60)
    return replace(row, **changes)


def entrant(entrant_id: str, tournament_id: str = "e1", **changes: Any) -> EntrantRow:
    """A solo entrant: player ``entrant_id``, joined that many seconds after T0."""
    row = EntrantRow(tournament_id=tournament_id, id=entrant_id, players=(entrant_id,),
                     name=entrant_id.upper(), rating=1500.0, status="active",
                     joined_at=T0 + timedelta(seconds=int(entrant_id[1:])))
    return replace(row, **changes)


def pairing(pairing_id: str, *entrants: str, round: int = 1, table_id: str | None = None,
            tournament_id: str = "e1", **changes: Any) -> PairingRow:
    row = PairingRow(tournament_id=tournament_id, id=pairing_id, round=round,
                     entrants=entrants, table_id=table_id, created_at=T0)
    return replace(row, **changes)


async def four_entrants(events: Events, tournament_id: str = "e1", **changes: Any) -> None:
    """Tournament ``tournament_id`` with players p1..p4 joined, each as themselves."""
    assert await events.store.create_tournament(tournament(tournament_id, **changes))
    for player in ("p1", "p2", "p3", "p4"):
        await events.store.add_entrant(entrant(player, tournament_id))


@pytest.mark.parametrize("implementation", [MemoryTournamentStore, SqlTournaments])
def test_both_stores_have_the_ports_methods(implementation: type) -> None:
    """Every method of the port, with its parameters (names, kinds, defaults, types), on
    each store (mypy checks the SQL store against :class:`~basra.store.ports.Store`; this
    checks the memory store too)."""
    port = {name for name in vars(TournamentStore) if not name.startswith("_")}
    for name in port:
        assert inspect.signature(getattr(implementation, name)) == inspect.signature(
            getattr(TournamentStore, name)), name


# ---------------------------------------------------------------------------------------
# tournaments


def test_a_tournament_comes_back_whole(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        cairo = timezone(timedelta(hours=2))
        made = tournament("e1", name="Friday Swiss", variant="serbian", format="swiss",
                          status="running", starts_at=(T0 + timedelta(hours=2)).astimezone(cairo),
                          minutes=None, rounds=7, round=2, rated=True, length="full",
                          clock_seconds=20.0, min_rating=1400, max_rating=1900, private=True,
                          password_hash="$argon2id$hash", created_by="p1",
                          schedule_key=None, started_at=T0 + timedelta(hours=2))
        assert await store.create_tournament(made)
        stored = await store.tournament("e1")
        assert stored == made and stored.starts_at.tzinfo == UTC
        assert await store.create_tournament(tournament("e2"))  # the defaults
        assert await store.tournament("e2") == tournament("e2")
        assert await store.tournament("e9") is None
        for refused in (tournament("e1"), tournament("e3", created_by="nobody"),
                        tournament("e3", format="knockout"), tournament("e3", status="paused"),
                        tournament("e3", length="long")):
            with pytest.raises(StoreError, match="cannot create tournament"):
                await store.create_tournament(refused)
        with pytest.raises(StoreError, match="no timezone"):
            await store.create_tournament(tournament("e3", starts_at=datetime(2025, 3, 1)))
        assert await store.tournament("e3") is None

    run(store_url, scenario)


def test_a_schedule_key_makes_one_tournament(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        key = "hourly-arena-egyptian@2025-03-01T13:00Z"
        assert await store.create_tournament(tournament("e1", schedule_key=key))
        assert not await store.create_tournament(tournament("e2", schedule_key=key))
        assert not await store.create_tournament(tournament("e1", schedule_key=key))
        assert await store.tournament("e2") is None
        made = await asyncio.gather(*(store.create_tournament(
            tournament(f"e{n}", schedule_key="daily-swiss@2025-03-02")) for n in range(3, 7)))
        assert sorted(made) == [False, False, False, True]
        assert await store.create_tournament(tournament("e7"))  # no key: no limit
        assert await store.create_tournament(tournament("e8"))

    run(store_url, scenario)


def test_two_nodes_scheduling_at_once_make_one_tournament(store_url: str | None) -> None:
    if store_url is None:
        pytest.skip("one memory store is one node")

    async def main() -> None:
        nodes = [open_store(store_url) for _ in range(2)]
        await asyncio.gather(*(node.open() for node in nodes))
        try:
            for attempt in range(5):
                key = f"weekly@{attempt}"
                made = await asyncio.gather(*(node.create_tournament(
                    tournament(f"e{attempt}-{n}", schedule_key=key))
                    for n, node in enumerate(nodes)))
                assert sorted(made) == [False, True]
        finally:
            for node in nodes:
                await node.close()

    asyncio.run(main())


def test_listing_orders_by_time_and_hides_private_ones(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        hour = timedelta(hours=1)
        for row in (tournament("soon", starts_at=T0 + hour),
                    tournament("later", starts_at=T0 + 3 * hour),
                    tournament("now", status="running", starts_at=T0 - hour),
                    tournament("hidden", starts_at=T0 + 2 * hour, private=True),
                    tournament("old", status="finished", starts_at=T0 - 9 * hour,
                               finished_at=T0 - 8 * hour),
                    tournament("recent", status="finished", starts_at=T0 - 5 * hour,
                               finished_at=T0 - 4 * hour),
                    tournament("called-off", status="cancelled", starts_at=T0 - 7 * hour)):
            assert await store.create_tournament(row)

        async def ids(*statuses: Any, **options: Any) -> list[str]:
            return [row.id for row in await store.tournaments(statuses, **options)]

        assert await ids("upcoming", "running") == ["now", "soon", "later"]
        assert await ids("upcoming", listed_only=False) == ["soon", "hidden", "later"]
        assert await ids("finished") == ["recent", "old"]
        assert await ids("finished", "cancelled") == ["recent", "old", "called-off"]
        assert await ids("running", "finished") == ["now", "recent", "old"]
        assert await ids("upcoming", "running", limit=2) == ["now", "soon"]
        assert await ids() == []

    run(store_url, scenario)


def test_an_update_changes_only_what_is_given(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        assert await store.create_tournament(tournament("e1"))
        started = T0 + timedelta(hours=1, seconds=3)
        await store.update_tournament("e1", status="running", started_at=started)
        await store.update_tournament("e1", round=4)
        await store.update_tournament("e1")  # nothing to change
        assert await store.tournament("e1") == tournament(
            "e1", status="running", started_at=started, round=4)
        await store.update_tournament("e1", status="finished", round=0,
                                      finished_at=started + timedelta(hours=1))
        ended = await store.tournament("e1")
        assert ended is not None and ended.round == 0 and ended.started_at == started
        assert ended.finished_at == started + timedelta(hours=1)
        for change in ({}, {"status": "running"}):
            with pytest.raises(StoreError, match="no tournament e9"):
                await store.update_tournament("e9", **change)
        with pytest.raises(StoreError, match="cannot update tournament e1"):
            await store.update_tournament("e1", status="paused")  # type: ignore[arg-type]
        with pytest.raises(StoreError, match="no timezone"):
            await store.update_tournament("e1", finished_at=datetime(2025, 3, 1))
        assert await store.tournament("e1") == ended

    run(store_url, scenario)


# ---------------------------------------------------------------------------------------
# entrants


def test_entrants_join_once_in_the_order_they_came(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        assert await store.create_tournament(tournament("e1"))
        assert await store.create_tournament(tournament("e2"))
        late = entrant("p1", joined_at=T0 + timedelta(minutes=5), rating=1712.5)
        joined = await store.add_entrant(late)
        assert joined == replace(late, usernames=("amal",))
        assert (await store.add_entrant(entrant("p2"))).usernames == (None,)  # a guest
        await store.add_entrant(entrant("p3", joined_at=T0 + timedelta(minutes=5)))
        again = await store.add_entrant(entrant("p1", name="Other", status="withdrawn"))
        assert again == joined  # joining again changes nothing
        assert [e.id for e in await store.entrants("e1")] == ["p2", "p1", "p3"]
        assert await store.entrants("e2") == []
        # a player is in one entrant of a tournament; in any number of tournaments
        for refused in (entrant("p4", players=("p4", "p1")), entrant("p4", players=()),
                        entrant("p4", players=("nobody",)), entrant("p4", status="gone"),
                        entrant("p4", tournament_id="e9")):
            with pytest.raises(StoreError, match="cannot add entrant p4"):
                await store.add_entrant(refused)
        with pytest.raises(StoreError, match="no timezone"):
            await store.add_entrant(entrant("p4", joined_at=datetime(2025, 3, 1)))
        assert await store.entrant_of("e1", "p4") is None
        pair = entrant("p4", "e2", players=("p4", "p1"), name="DINA & AMAL", rating=1600.0)
        assert (await store.add_entrant(pair)).usernames == (None, "amal")
        found = await store.entrant_of("e2", "p1")
        assert found is not None and found.id == "p4" and found.players == ("p4", "p1")
        found = await store.entrant_of("e1", "p1")
        assert found is not None and found == joined
        assert await store.entrant_of("e1", "nobody") is None

    run(store_url, scenario)


def test_an_entrant_pauses_withdraws_and_misses_rounds(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        await four_entrants(events)
        await store.set_entrant("e1", "p2", status="paused")
        await store.set_entrant("e1", "p2", absences=2)
        await store.set_entrant("e1", "p3", status="withdrawn", absences=1)
        await store.set_entrant("e1", "p4")  # nothing to change
        assert [(e.id, e.status, e.absences) for e in await store.entrants("e1")] == [
            ("p1", "active", 0), ("p2", "paused", 2), ("p3", "withdrawn", 1),
            ("p4", "active", 0)]
        for change in ({}, {"status": "active"}):
            with pytest.raises(StoreError, match="no entrant p9 in tournament e1"):
                await store.set_entrant("e1", "p9", **change)
        with pytest.raises(StoreError):
            await store.set_entrant("e1", "p1", status="asleep")  # type: ignore[arg-type]
        assert (await store.entrants("e1"))[0].status == "active"

    run(store_url, scenario)


def test_places_make_trophies(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        hour = timedelta(hours=1)
        for number in (1, 2, 3):
            await four_entrants(events, f"e{number}", status="finished",
                                finished_at=T0 + number * hour)
        await four_entrants(events, "e4", status="running")
        await store.set_places("e1", {"p1": 1, "p2": 2, "p3": 3, "p4": 4})
        await store.set_places("e2", {"p1": 4, "p2": 3, "p3": 1, "p4": 2})
        await store.set_places("e3", {"p1": 2})
        await store.set_places("e4", {"p1": 1})  # not finished: no trophy yet
        await store.set_places("e4", {})
        assert [(e.id, e.place) for e in await store.entrants("e2")] == [
            ("p1", 4), ("p2", 3), ("p3", 1), ("p4", 2)]
        trophies = await store.trophies("p1")
        assert [(row.id, place) for row, place in trophies] == [("e3", 2), ("e1", 1)]
        assert trophies[1][0] == await store.tournament("e1")
        assert [(row.id, place) for row, place in await store.trophies("p1", limit=1)] == [
            ("e3", 2)]
        assert [(row.id, place) for row, place in await store.trophies("p4")] == [("e2", 2)]
        assert await store.trophies("nobody") == []
        with pytest.raises(StoreError, match="no entrant p9 in tournament e3"):
            await store.set_places("e3", {"p2": 1, "p9": 2})
        assert [e.place for e in await store.entrants("e3")] == [2, None, None, None]

    run(store_url, scenario)


# ---------------------------------------------------------------------------------------
# pairings


def test_pairings_come_back_in_the_order_stored(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        await four_entrants(events, format="swiss", rounds=3)
        first_round = [pairing("r1-2", "p3", "p2", table_id="t2", ratings=(1510, 1490.5),
                               absent=("p2",)),
                       pairing("r1-1", "p1", "p4", table_id="t1")]
        await store.add_pairings("e1", first_round, round=1)
        got = await store.tournament("e1")
        assert got is not None and got.round == 1
        assert await store.pairings("e1") == first_round
        # round 2: the same entrants again; made earlier (by the clock) but stored later
        earlier = T0 - timedelta(seconds=1)
        bye = pairing("r2-0", "p4", round=2, decided_at=earlier, points=(1,),
                      created_at=earlier)
        await store.add_pairings("e1", [pairing("r2-1", "p2", "p1", round=2, table_id="t3",
                                                created_at=earlier), bye], round=2)
        assert [p.id for p in await store.pairings("e1")] == ["r1-2", "r1-1", "r2-1", "r2-0"]
        assert await store.pairings("e1", round=2) == [
            pairing("r2-1", "p2", "p1", round=2, table_id="t3", created_at=earlier), bye]
        assert [p.id for p in await store.pairings("e1", round=1)] == ["r1-2", "r1-1"]
        assert await store.pairings("e1", round=3) == []
        assert await store.pairings("e9") == []
        got = await store.tournament("e1")
        assert got is not None and got.round == 2

    run(store_url, scenario)


def test_an_entrant_is_paired_once_a_round(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        await four_entrants(events)
        await store.add_pairings("e1", [pairing("a", "p1", "p2")], round=1)
        before = await store.pairings("e1")
        with pytest.raises(DuplicatePairing, match="entrant p2 is paired already in round 1"):
            await store.add_pairings("e1", [pairing("b", "p3", "p4"), pairing("c", "p2")],
                                     round=5)
        with pytest.raises(DuplicatePairing, match="entrant p3"):  # twice in one list
            await store.add_pairings("e1", [pairing("b", "p3", "p4"), pairing("c", "p3")])
        with pytest.raises(DuplicatePairing, match="entrant p4"):  # twice in one pairing
            await store.add_pairings("e1", [pairing("b", "p4", "p4")])
        assert await store.pairings("e1") == before  # all or none
        got = await store.tournament("e1")
        assert got is not None and got.round == 1  # the round with them
        await store.add_pairings("e1", [pairing("b", "p3", "p4")])

    run(store_url, scenario)


def test_pairings_that_cannot_be_stored_leave_nothing(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        await four_entrants(events)
        await store.add_pairings("e1", [pairing("a", "p1", "p2")])
        for refused in ([pairing("b", "p3", "nobody")], [pairing("a", "p3", "p4")],
                        [pairing("b", "p3", tournament_id="e2")], [pairing("b")],
                        [pairing("b", "p3", points=(1.0,))],
                        [pairing("b", "p3", "p4", ratings=(1500.0,))],
                        [pairing("b", "p3", "p4", absent=("p1",))],
                        [pairing("b", "p3", "p4", decided_at=T0, points=(1.0,))],
                        [pairing("b", "p3", "p4", created_at=datetime(2025, 3, 1))]):
            with pytest.raises(StoreError) as error:
                await store.add_pairings("e1", refused, round=3)
            assert not isinstance(error.value, DuplicatePairing)
        with pytest.raises(StoreError):
            await store.add_pairings("e9", [pairing("a", "p1", tournament_id="e9")])
        with pytest.raises(StoreError, match="no tournament e9"):
            await store.add_pairings("e9", [], round=1)
        assert [p.id for p in await store.pairings("e1")] == ["a"]
        got = await store.tournament("e1")
        assert got is not None and got.round == 0
        await store.add_pairings("e1", [], round=1)  # nothing to pair: the round moves
        got = await store.tournament("e1")
        assert got is not None and got.round == 1

    run(store_url, scenario)


def test_pairing_an_entrant_at_once_twice_makes_one_pairing(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        await four_entrants(events)
        results = await asyncio.gather(
            store.add_pairings("e1", [pairing("a", "p1", "p2")], round=1),
            store.add_pairings("e1", [pairing("b", "p3", "p1")], round=1),
            store.add_pairings("e1", [pairing("c", "p4")], round=1),
            return_exceptions=True)
        assert [type(result).__name__ for result in results] == [
            "NoneType", "DuplicatePairing", "NoneType"]
        assert [p.id for p in await store.pairings("e1")] == ["a", "c"]

    run(store_url, scenario)


def test_two_nodes_pairing_at_once_make_each_pairing_once(store_url: str | None) -> None:
    if store_url is None:
        pytest.skip("one memory store is one node")

    async def main() -> None:
        nodes = [open_store(store_url) for _ in range(2)]
        await asyncio.gather(*(node.open() for node in nodes))
        try:
            events = Events(nodes[0], nodes[0], nodes[0].create_player)
            for player in ("p1", "p2", "p3", "p4"):
                await nodes[0].create_player(player, player.upper(), f"hash-{player}")
            await four_entrants(events)
            for wave in range(1, 6):
                results = await asyncio.gather(*(
                    node.add_pairings("e1", [pairing(f"w{wave}-{n}", "p1", f"p{n + 2}",
                                                     round=wave)], round=wave)
                    for n, node in enumerate(nodes)), return_exceptions=True)
                assert sorted(type(result).__name__ for result in results) == [
                    "DuplicatePairing", "NoneType"]
                assert len(await nodes[1].pairings("e1", round=wave)) == 1
        finally:
            for node in nodes:
                await node.close()

    asyncio.run(main())


def test_postgresql_refuses_a_pairing_another_writer_holds(store_url: str | None) -> None:
    """The unique key, not the read before the write, keeps a pairing once: a writer that
    has not committed yet is not seen by the read, and the key makes the second writer wait
    for it, then refuses it."""
    if store_url is None or not store_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: nobody writes while a pairing is read")

    async def main() -> None:
        nodes = [open_store(store_url) for _ in range(2)]
        await asyncio.gather(*(node.open() for node in nodes))
        try:
            for player in ("p1", "p2"):
                await nodes[0].create_player(player, player.upper(), f"hash-{player}")
            assert await nodes[0].create_tournament(tournament())
            for player in ("p1", "p2"):
                await nodes[0].add_entrant(entrant(player))
            async with sql_store(nodes[0]).engine.connect() as held:
                await held.begin()
                await held.execute(insert(tournament_pairings).values(
                    tournament_id="e1", id="first", round=1, number=1, table_id=None,
                    created_at=T0, decided_at=None))
                await held.execute(insert(tournament_seats).values(
                    tournament_id="e1", pairing_id="first", seat=0, round=1, entrant_id="p1",
                    absent=False, points=None, rating=None))
                second = asyncio.create_task(nodes[1].add_pairings(
                    "e1", [pairing("second", "p2", "p1")], round=1))
                await asyncio.sleep(0.5)
                assert not second.done()  # waiting on the key
                await held.commit()
            with pytest.raises(DuplicatePairing, match="entrant p1"):
                await second
            assert [p.id for p in await nodes[1].pairings("e1")] == ["first"]
            got = await nodes[1].tournament("e1")
            assert got is not None and got.round == 0
        finally:
            for node in nodes:
                await node.close()

    asyncio.run(main())


# ---------------------------------------------------------------------------------------
# results


def test_undecided_pairings_whose_table_ended_or_is_missing_come_with_their_tables(
        store_url: str | None) -> None:
    """A pairing is asked about once its table ended (with the table and its result) or
    if its table is missing; one whose table is still played, or that is decided, is
    not."""
    async def scenario(events: Events) -> None:
        store, tables = events.store, events.tables
        await four_entrants(events)
        await tables.create_table(table("t1", kind="tournament", status="playing",
                                        tournament_id="e1", length="short"),
                                  [seat(0, player="p1"), seat(1, player="p2")])
        await tables.create_table(table("t3", kind="tournament", tournament_id="e1"),
                                  [seat(0, player="p3")])
        await store.add_pairings("e1", [
            pairing("a", "p1", "p2", table_id="t1"),
            pairing("b", "p3", "p4", table_id="t2"),  # its node died before the table
            pairing("c", "p4", round=2, points=(1.0,), decided_at=T0)])  # a bye
        await tables.finish_table("t1", {"winner": 1, "totals": [40, 61]})
        (a, first), (b, second) = await store.undecided("e1")
        assert (a.id, b.id, second) == ("a", "b", None)
        assert first is not None and first.status == "finished"
        assert first.result == {"winner": 1, "totals": [40, 61]}
        assert (first.length, first.tournament_id, first.kind) == ("short", "e1", "tournament")
        assert await store.decide("e1", "a", (0.0, 1.0))
        assert [(p.id, t) for p, t in await store.undecided("e1")] == [("b", None)]
        await store.add_pairings("e1", [pairing("d", "p1", "p3", round=2, table_id="t3")])
        assert [(p.id, t) for p, t in await store.undecided("e1")] == [("b", None)]
        await tables.set_status("t3", "abandoned")
        assert [(p.id, t.id if t else None) for p, t in await store.undecided("e1")] == [
            ("b", None), ("d", "t3")]
        assert await store.undecided("e9") == []

    run(store_url, scenario)


def test_a_result_is_decided_once(store_url: str | None) -> None:
    async def scenario(events: Events) -> None:
        store = events.store
        await four_entrants(events)
        await store.add_pairings("e1", [pairing("a", "p1", "p2", table_id="t1"),
                                        pairing("b", "p3", "p4", table_id="t2")])
        assert await store.decide("e1", "a", [0.5, 0.5], {"p2", "p1"})
        assert not await store.decide("e1", "a", [1, 0])  # counted once
        decided = (await store.pairings("e1"))[0]
        assert decided.points == (0.5, 0.5) and decided.absent == ("p1", "p2")
        assert decided.decided_at is not None and decided.decided_at.tzinfo == UTC
        for points, absent in (((1.0,), ()), ((1.0, 0.0), ("p1",))):
            with pytest.raises(StoreError, match="cannot decide pairing b"):
                await store.decide("e1", "b", points, absent)
        with pytest.raises(StoreError, match="cannot decide pairing z"):
            await store.decide("e1", "z", (1.0, 0.0))
        at_once = await asyncio.gather(*(store.decide("e1", "b", (1.0 - n, float(n)))
                                         for n in (0, 1, 0, 1)))
        assert sorted(at_once) == [False, False, False, True]
        (kept,) = [p for p in await store.pairings("e1") if p.id == "b"]
        assert kept.points in ((1.0, 0.0), (0.0, 1.0)) and kept.absent == ()

    run(store_url, scenario)
