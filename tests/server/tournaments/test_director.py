"""The director on the in-memory stores, without a server: it starts an event when due,
pairs the free and present, counts each ended table once (its absent paused), stops
pairing before an arena's end, plays a Swiss round by round, ends the event with its
places, and a director that died is replaced by one that reloads the event and makes the
table a pairing was stored without."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from basra.server.tournaments import views
from basra.server.tournaments.audience import LocalAudience, News, Watcher
from basra.server.tournaments.director import READ_FRESH, Director
from basra.store.base import EntrantRow, PairingRow, SeatRow, TableRow, TournamentRow
from basra.store.memory import MemoryTableStore
from basra.store.memory_tournaments import MemoryTournamentStore

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


class Room(LocalAudience):
    """An audience whose present players a test names, and which keeps what it was told:
    (None, message) for every page (a page of the standings too: a test's field has one
    page unless it says), (player, message) for one player's, and each batch of news."""

    def __init__(self) -> None:
        super().__init__()
        self.here: set[str] = set()
        self.said: list[tuple[str | None, dict[str, Any]]] = []
        self.batches: list[News] = []

    async def present(self, tournament_id: str) -> set[str]:
        return set(self.here)

    async def publish(self, tournament_id: str, text: str) -> None:
        self.said.append((None, json.loads(text)))

    async def tell(self, tournament_id: str, player_id: str, text: str) -> None:
        self.said.append((player_id, json.loads(text)))

    async def news(self, tournament_id: str, news: News) -> None:
        self.batches.append(news)
        for text in [*news.everyone, *news.pages.values()]:
            self.said.append((None, json.loads(text)))
        for player, text in news.players.items():
            self.said.append((player, json.loads(text)))


class Box:
    """An outbox that keeps what it is given."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def put(self, text: str) -> None:
        self.texts.append(text)


class Tables:
    """The lobby as the director sees it: a pairing's table made in the table store."""

    def __init__(self, store: MemoryTableStore) -> None:
        self.store = store
        self.made: list[str] = []

    async def __call__(self, row: TournamentRow, pairing: PairingRow,
                       entrants: list[EntrantRow]) -> None:
        assert pairing.table_id is not None
        if await self.store.table(pairing.table_id) is not None:
            return
        self.made.append(pairing.table_id)
        seats = [SeatRow(i, e.players[0], None, "") for i, e in enumerate(entrants)]
        await self.store.create_table(TableRow(
            pairing.table_id, "tournament", row.variant, 2, False, 30.0, "medium", "playing",
            T0, length=row.length, tournament_id=row.id), seats)

    async def end(self, boss: Director, table_id: str, winner: int | None,
                  absent: list[int] | None = None) -> None:
        """The table's match ends; the director hears it as the lobby's hook tells it."""
        result: dict[str, Any] = {"winner": winner, "totals": [61, 20]}
        if absent:
            result["absent"] = absent
        await self.store.finish_table(table_id, result)
        row = await self.store.table(table_id)
        assert row is not None
        boss.ended(row)


def event(fmt: str = "arena", **changes: Any) -> TournamentRow:
    row = TournamentRow(id="ev", name="Cup", variant="egyptian", format=fmt,  # type: ignore[arg-type]
                        status="upcoming", starts_at=T0, created_at=T0 - timedelta(hours=1),
                        minutes=30 if fmt == "arena" else None,
                        rounds=3 if fmt == "swiss" else None)
    return TournamentRow(**{**{f: getattr(row, f) for f in row.__slots__}, **changes})


async def a_field(count: int, fmt: str = "arena", **changes: Any
                  ) -> tuple[MemoryTournamentStore, Tables, Room, list[str]]:
    tables = MemoryTableStore()
    store = MemoryTournamentStore(tables)
    players = [tables.add_player(f"p{n}", f"Player {n}").id for n in range(count)]
    await store.create_tournament(event(fmt, **changes))
    for n, player in enumerate(players):
        await store.add_entrant(EntrantRow("ev", player, (player,), f"Player {n}",
                                           1500.0 + 10 * n, "active", T0))
    room = Room()
    room.here = set(players)
    return store, Tables(tables), room, players


def director(store: MemoryTournamentStore, tables: Tables, room: Room,
             news_seconds: float = 0.0) -> Director:
    return Director(event(), store, room, tables, last_pairing_seconds=120,
                    news_seconds=news_seconds)


def test_an_arena_starts_pairs_counts_and_pairs_again() -> None:
    async def scenario() -> None:
        store, tables, room, players = await a_field(5)
        room.here.discard("p4")  # not on the page: not paired
        boss = director(store, tables, room)
        await boss.load()
        assert not await boss.tick(T0 - timedelta(seconds=1))
        assert (await store.tournament("ev")).status == "upcoming"  # type: ignore[union-attr]
        await boss.tick(T0)
        assert boss.row.status == "running"
        first = await store.pairings("ev")
        assert len(first) == 2 and len(tables.made) == 2
        assert not any("p4" in p.entrants for p in first)
        told = {who for who, m in room.said if m["type"] == "paired"}
        assert told == set(players) - {"p4"}

        # One table ends: its two are counted and paired again (with each other only if
        # nobody else is free: here p4 comes to the page).
        room.here.add("p4")
        await tables.end(boss, first[0].table_id or "", 0)
        await boss.tick(T0 + timedelta(seconds=5))
        decided = [p for p in await store.pairings("ev") if p.points is not None]
        assert [p.points for p in decided] == [(1.0, 0.0)]
        standings = {row["entrant"]: row for row in boss.standings}
        assert standings[first[0].entrants[0]]["score"] == 2
        news = [m for who, m in room.said if who is None and m["type"] == "standings"]
        winner = next(row for row in news[-1]["rows"] if row["entrant"] == first[0].entrants[0])
        assert winner["score"] == 2 and winner["sheet"] == [2]
        later = await store.pairings("ev", round=2)
        assert len(later) == 1
        assert set(later[0].entrants) < set(first[0].entrants) | {"p4"}

        # A table nobody came to: both absent, nothing scored, both paused.
        await tables.end(boss, first[1].table_id or "", None, absent=[0, 1])
        await boss.tick(T0 + timedelta(seconds=6))
        for entrant in first[1].entrants:
            assert boss.entrants[entrant].status == "paused"
            assert (await store.entrant_of("ev", entrant)).status == "paused"  # type: ignore[union-attr]
        assert all(row["score"] == 0 for row in boss.standings
                   if row["entrant"] in first[1].entrants)

    asyncio.run(scenario())


def test_an_arena_pairs_nobody_near_its_end_and_ends_after_its_last_match() -> None:
    async def scenario() -> None:
        store, tables, room, _ = await a_field(4)
        boss = director(store, tables, room)
        await boss.load()
        await boss.tick(T0)
        first = await store.pairings("ev")
        end = T0 + timedelta(minutes=30)
        await tables.end(boss, first[0].table_id or "", 1)
        await boss.tick(end - timedelta(seconds=60))  # in the last 120 s: no pairing
        assert len(await store.pairings("ev")) == 2
        assert not await boss.tick(end + timedelta(seconds=1))  # a match still on
        await tables.end(boss, first[1].table_id or "", None)
        assert await boss.tick(end + timedelta(seconds=2))
        row = await store.tournament("ev")
        assert row is not None and row.status == "finished"
        # The watchers got the last match's rows before the end.
        kinds = [(m["type"], m.get("event", {}).get("status")) for _, m in room.said]
        last_rows = max(i for i, m in enumerate(room.said) if m[1]["type"] == "standings")
        assert kinds.index(("event", "finished")) > last_rows
        assert {r["entrant"] for r in room.said[last_rows][1]["rows"]} >= set(
            first[1].entrants)
        assert boss.standings[0]["score"] == 2
        places = {e.id: e.place for e in await store.entrants("ev")}
        assert sorted(places.values()) == [1, 2, 3, 4]  # type: ignore[type-var]

    asyncio.run(scenario())


def test_a_swiss_pairs_round_by_round_with_a_bye_and_the_absent_left_out() -> None:
    async def scenario() -> None:
        store, tables, room, _ = await a_field(6, "swiss")
        room.here.discard("p5")
        boss = Director(event("swiss"), store, room, tables)
        await boss.load()
        for number in (1, 2, 3):
            await boss.tick(T0 + timedelta(minutes=number))
            pairings = await store.pairings("ev", round=number)
            assert boss.row.round == number
            byes = [p for p in pairings if p.table_id is None]
            assert len(byes) == 1 and byes[0].points == (1.0,)
            assert not any("p5" in p.entrants for p in pairings)
            await boss.tick(T0 + timedelta(minutes=number, seconds=1))  # nothing ended
            assert len(await store.pairings("ev", round=number + 1)) == 0
            for pairing in pairings:
                if pairing.table_id is not None:
                    await tables.end(boss, pairing.table_id, 0)
        assert await boss.tick(T0 + timedelta(minutes=4))
        assert (await store.entrant_of("ev", "p5")).status == "withdrawn"  # type: ignore[union-attr]
        met = [frozenset(p.entrants) for p in await store.pairings("ev") if len(p.entrants) == 2]
        assert len(met) == len(set(met))
        assert boss.row.status == "finished"

    asyncio.run(scenario())


def test_a_director_that_died_is_replaced_and_makes_the_missing_table() -> None:
    async def scenario() -> None:
        store, tables, room, _ = await a_field(2)
        await store.update_tournament("ev", status="running", started_at=T0)
        # A pairing stored, its table never made (the director died between the two).
        await store.add_pairings("ev", [PairingRow("ev", "pr1", 1, ("p0", "p1"), "tb1", T0,
                                                   ratings=(1500.0, 1510.0))], round=1)
        again = director(store, tables, room)
        await again.load()
        await again.tick(T0 + timedelta(seconds=1))
        assert tables.made == ["tb1"]
        assert len(await store.pairings("ev")) == 1  # nobody paired twice
        await tables.end(again, "tb1", 0)
        await again.tick(T0 + timedelta(seconds=2))
        # A second director of the same event (one about to lose its lease) cannot count
        # the result again, nor pair the same wave again.
        other = director(store, tables, room)
        await other.load()
        assert not await store.decide("ev", "pr1", (0.0, 1.0))
        await other.tick(T0 + timedelta(seconds=3))
        waves = [p.round for p in await store.pairings("ev")]
        assert waves.count(2) <= 1

    asyncio.run(scenario())


def test_the_pages_hear_the_news_together_at_most_once_a_second() -> None:
    """What changes within ``news_seconds`` goes out in one batch at the end of the wait
    (not at the next tick): the matches shown, the changed page of the standings, each
    changed player's own row; the players are told of their tables at once."""
    async def scenario() -> None:
        store, tables, room, _ = await a_field(6)
        boss = director(store, tables, room, news_seconds=0.3)
        await boss.load()
        await boss.tick(T0)  # the first wave's news goes out at once
        first = await store.pairings("ev")
        assert len(first) == 3

        def news(kind: str) -> list[dict[str, Any]]:
            return [m for who, m in room.said if who is None and m["type"] == kind]

        playing = news("playing")
        assert len(playing) == 1 and playing[0]["live"] == 3
        assert {m["id"] for m in playing[0]["matches"]} == {p.id for p in first}
        assert all(len(m["names"]) == 2 and all(m["names"]) for m in playing[0]["matches"])
        batches = len(room.batches)
        before = len(room.said)
        for number, pairing in enumerate(first[:2]):  # two matches end one after the other
            await tables.end(boss, pairing.table_id or "", 0)
            await boss.tick(T0 + timedelta(seconds=1 + number))
        assert len(room.said) - before == sum(  # only the players were told, at once
            1 for who, m in room.said[before:] if who is not None and m["type"] == "paired")
        await asyncio.sleep(0.45)
        assert len(room.batches) == batches + 1
        batch = room.batches[-1]
        shown = json.loads(batch.everyone[0])
        assert shown["type"] == "playing"
        assert not {m["id"] for m in shown["matches"]} & {p.id for p in first[:2]}
        page = json.loads(batch.pages[1])
        winners = {p.entrants[0] for p in first[:2]}
        rows = {row["entrant"]: row for row in page["rows"]}
        assert all(rows[w]["score"] == 2 for w in winners)
        assert page["v"] > playing[0]["v"]
        # Each winner's player hears their own row.
        for winner in winners:
            mine = json.loads(batch.players[winner])
            assert mine["type"] == "mine" and mine["row"]["score"] == 2
        boss.close()

    asyncio.run(scenario())


def test_a_page_that_saw_a_row_the_others_did_not_hears_it_again() -> None:
    """A page that opens between two pieces of news sees the standings as they are; a row
    that changes back before the news (paused, then active again) is still sent with the
    next news (its whole page), or that page would keep the row it saw; the same for a
    player's own row."""
    async def scenario() -> None:
        store, tables, room, players = await a_field(2)
        boss = director(store, tables, room, news_seconds=0.2)
        await boss.load()
        await boss.tick(T0 - timedelta(minutes=5))
        entrant = boss.entrants[players[0]]
        boss.entrant_changed(replace(entrant, status="paused"))
        boss.counted_at -= READ_FRESH  # a second later
        seen = json.loads(boss.snapshot())  # a page opens: it sees the pause
        assert {row["entrant"]: row["status"] for row in seen["standings"]}[players[0]] \
            == "paused"
        assert json.loads(boss.mine(players[0]) or "")["row"]["status"] == "paused"
        boss.entrant_changed(replace(entrant, status="active"))  # back before any news
        await boss.tick(T0 - timedelta(minutes=5))
        await asyncio.sleep(0.3)
        news = [m for who, m in room.said if who is None and m["type"] == "standings"]
        assert news and news[-1]["page"] == 1
        assert {row["entrant"]: row["status"] for row in news[-1]["rows"]}[players[0]] \
            == "active"
        assert news[-1]["v"] > seen["v"]
        mine = [m for who, m in room.said if who == players[0] and m["type"] == "mine"]
        assert mine and mine[-1]["row"]["status"] == "active"
        # Nothing changed since: no news at all.
        heard = len(room.said)
        await boss.tick(T0 - timedelta(minutes=4))
        await asyncio.sleep(0.3)
        assert room.said[heard:] == []
        boss.close()

    asyncio.run(scenario())


def test_the_standings_go_out_by_page_and_each_player_hears_their_own_row() -> None:
    """At 45 entrants (three pages of 20), a result sends the pages whose rows moved, whole,
    and no other; each page opens on the player's own; a join that lands on the last page
    sends that page, and the new count to every page."""
    async def scenario() -> None:
        store, tables, room, _ = await a_field(45)
        boss = director(store, tables, room, news_seconds=0.0)
        await boss.load()
        await boss.tick(T0)
        assert boss.pages == 3
        assert len(await store.pairings("ev")) == 22
        # The strongest (rated highest) are first before any result: the page of each.
        assert boss.page_of("p44") == 1 and boss.page_of("p0") == 3
        assert boss.page_of("nobody") == 1
        opened = json.loads(boss.snapshot(boss.page_of("p0")))
        assert (opened["page"], opened["pages"], opened["count"]) == (3, 3, 45)
        assert "p0" in {row["entrant"] for row in opened["standings"]}
        assert len(opened["playing"]) == views.PLAYING_SHOWN and opened["live"] == 22
        mine = boss.mine("p0")
        assert mine is not None and json.loads(mine)["row"]["entrant"] == "p0"
        assert boss.mine("nobody") is None

        # p44 beats p43 (both on the first page): the pages whose rows moved go out,
        # whole, and no other.
        def pages() -> list[list[dict[str, Any]]]:
            rows = boss.standings
            return [rows[i:i + views.PAGE_ROWS] for i in range(0, len(rows), views.PAGE_ROWS)]

        was = pages()
        pairing = next(p for p in await store.pairings("ev") if "p44" in p.entrants)
        await tables.end(boss, pairing.table_id or "", pairing.entrants.index("p44"))
        batches = len(room.batches)
        await boss.tick(T0 + timedelta(seconds=5))
        moved = {n + 1 for n, (old, new) in enumerate(zip(was, pages(), strict=True))
                 if old != new}
        assert 1 in moved and moved != {1, 2, 3}
        changed = [b for b in room.batches[batches:] if b.pages]
        assert [set(b.pages) for b in changed] == [moved]
        page = json.loads(changed[0].pages[1])
        assert len(page["rows"]) == views.PAGE_ROWS and page["rows"][0]["entrant"] == "p44"
        assert [row["rank"] for row in page["rows"]] == list(range(1, 21))
        assert set(changed[0].players) >= set(pairing.entrants)
        # A watcher hears its own page only.
        outboxes = {n: Box() for n in (1, 2, 3)}
        local = LocalAudience()
        for n, box in outboxes.items():
            local.watch(Watcher("ev", None, box, page=n))  # type: ignore[arg-type]
        local.deliver_news("ev", changed[0])
        assert {n for n, box in outboxes.items()
                if any(json.loads(t)["type"] == "standings" for t in box.texts)} == moved

        # A newcomer, rated lowest: the last page, and the counts to everyone.
        store.tables.add_player("p45", "Player 45")
        newcomer = EntrantRow("ev", "p45", ("p45",), "Player 45", 1000.0, "active", T0)
        await store.add_entrant(newcomer)
        boss.entrant_changed(newcomer)
        batches = len(room.batches)
        await boss.tick(T0 + timedelta(seconds=6))
        (batch,) = [b for b in room.batches[batches:] if b.pages]
        assert sorted(batch.pages) == [3]
        assert json.loads(batch.pages[3])["count"] == 46
        counts = [json.loads(t) for t in batch.everyone if '"counts"' in t]
        assert [(c["count"], c["pages"]) for c in counts] == [(46, 3)]
        boss.close()

    asyncio.run(scenario())


def test_a_new_director_tells_the_pages_everything_and_leaves_live_tables_alone() -> None:
    """A director that takes an event over (its leader died) does not know what the pages
    heard: its first news sends every page and every own row; the matches being played are
    not made again nor their players told again to sit down."""
    async def scenario() -> None:
        store, tables, room, _ = await a_field(4)
        first = director(store, tables, room)
        await first.load()
        await first.tick(T0)
        assert len(tables.made) == 2
        first.close()
        heard = len(room.said)
        again = director(store, tables, room)
        await again.load()
        await again.tick(T0 + timedelta(seconds=2))
        assert len(tables.made) == 2  # nothing made twice
        said = room.said[heard:]
        assert not [m for _, m in said if m["type"] == "paired"]
        pages = [m for who, m in said if who is None and m["type"] == "standings"]
        assert [p["page"] for p in pages] == [1] and len(pages[0]["rows"]) == 4
        assert {who for who, m in said if m["type"] == "mine"} == {"p0", "p1", "p2", "p3"}
        again.close()

    asyncio.run(scenario())


def test_a_pause_that_cannot_be_written_leaves_no_match_undecided() -> None:
    """Two matches end together, both sides of one absent: if pausing them fails, both
    results are still counted and nobody stays at a decided match (the event goes on)."""
    async def scenario() -> None:
        store, tables, room, _ = await a_field(4)
        boss = director(store, tables, room)
        await boss.load()
        await boss.tick(T0)
        first, second = await store.pairings("ev")

        async def refused(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("the store is away")

        store.set_entrant = refused  # type: ignore[method-assign]
        await tables.end(boss, first.table_id or "", None, absent=[0, 1])
        await tables.end(boss, second.table_id or "", 0)
        await boss.tick(T0 + timedelta(seconds=3))
        decided = {p.id for p in await store.pairings("ev") if p.points is not None}
        assert {first.id, second.id} <= decided
        # Everyone is free or at a new match (the absent, not paused, are paired again).
        assert all(p not in (first.id, second.id) and boss.pairings[p].points is None
                   for p in boss.busy.values())
        boss.close()

    asyncio.run(scenario())


def test_the_absent_of_a_wave_are_paused_together() -> None:
    """Every player of a start's wave who never came is paused in one go (the writes in
    flight together, as the results are): one after another, hundreds of them held the
    tick, and the standings' news, for seconds."""
    async def scenario() -> None:
        store, tables, room, _ = await a_field(8)
        boss = director(store, tables, room)
        await boss.load()
        await boss.tick(T0)
        pairings = await store.pairings("ev")
        assert len(pairings) == 4
        written = store.set_entrant
        in_flight = most = 0

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal in_flight, most
            in_flight += 1
            most = max(most, in_flight)
            await asyncio.sleep(0.01)
            in_flight -= 1
            return await written(*args, **kwargs)

        store.set_entrant = counted  # type: ignore[method-assign]
        for pairing in pairings:
            await tables.end(boss, pairing.table_id or "", None, absent=[0, 1])
        await boss.tick(T0 + timedelta(seconds=3))
        assert most == 8
        assert {e.status for e in await store.entrants("ev")} == {"paused"}
        assert not boss.busy
        boss.close()

    asyncio.run(scenario())
