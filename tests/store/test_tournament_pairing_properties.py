"""Properties of storing pairings, on the memory store, SQLite and PostgreSQL alike: lists of
pairings stored one after another are each kept whole or refused whole (a
:class:`~basra.store.base.DuplicatePairing` exactly when an entrant would be twice in a
round), and what is read back is what was kept, in the order kept."""

from __future__ import annotations

import asyncio
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.store.base import DuplicatePairing
from store.test_table_contract import kind, url  # noqa: F401  (memory, SQLite, PostgreSQL)
from store.test_tournament_contract import Events, entrant, opened, pairing, tournament

ENTRANTS = ("p1", "p2", "p3", "p4", "p5")

Batch = list[tuple[int, list[str]]]
"""Pairings stored at once: each a round and its entrants."""

batches = st.lists(st.lists(st.tuples(st.integers(1, 3), st.lists(
    st.sampled_from(ENTRANTS), min_size=1, max_size=2)), max_size=4), min_size=1, max_size=5)


async def store_batches(events: Events, tournament_id: str, batches: list[Batch]) -> None:
    """Store each batch in a new tournament, checking each outcome against the rule."""
    store = events.store
    assert await store.create_tournament(tournament(tournament_id))
    for player in ENTRANTS:
        await store.add_entrant(entrant(player, tournament_id))
    paired: set[tuple[int, str]] = set()
    kept: list[str] = []
    names = itertools.count()
    for batch in batches:
        rows = [pairing(f"x{next(names)}", *entrants, round=number,
                        tournament_id=tournament_id) for number, entrants in batch]
        asked = [(row.round, entrant_id) for row in rows for entrant_id in row.entrants]
        clash = len(set(asked)) < len(asked) or bool(paired & set(asked))
        try:
            await store.add_pairings(tournament_id, rows)
        except DuplicatePairing:
            assert clash
            continue
        assert not clash
        paired.update(asked)
        kept.extend(row.id for row in rows)
    assert [row.id for row in await store.pairings(tournament_id)] == kept


def test_pairings_are_kept_whole_or_refused_whole(url: str | None) -> None:  # noqa: F811
    loop = asyncio.new_event_loop()
    context = opened(url)
    events = loop.run_until_complete(context.__aenter__())
    try:
        for player in ENTRANTS:
            loop.run_until_complete(events.add_player(player, player.upper()))
        made = itertools.count()  # a new tournament each example (and each replay)

        @settings(max_examples=30, deadline=None)
        @given(batches)
        def check(tried: list[Batch]) -> None:
            loop.run_until_complete(store_batches(events, f"e{next(made)}", tried))

        check()
    finally:
        loop.run_until_complete(context.__aexit__(None, None, None))
        loop.close()
