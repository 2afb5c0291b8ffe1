"""The engine-assistance flag over a real store (each back end): twenty rated matches'
analyses summarised per person; a player who plays the expert's best on every clear
decision at a rating that predicts far less is reported to the moderators by the server
(no reporter, the statistic in plain words), once; an honest player is not; nothing is done
to either."""

from __future__ import annotations

from typing import Any

from basra.server.fairplay.service import FairPlay
from basra.store import Store
from store.test_social import accounts
from store.test_store import run, seat, table

GAMES = 20


def play(seat_number: int, number: int, cost: float, clear: bool) -> dict[str, Any]:
    """A decision early in the round whose best play lays a card down (the quiet plays,
    where the expert's edge is)."""
    best = 10.0
    return {"seat": seat_number, "number": number, "choices": 4, "cost": cost,
            "best_value": best, "value": best - cost, "best_take": [],
            "second_value": best - (5.0 if clear else 0.1)}


def document(game: int) -> dict[str, Any]:
    """Seat 0 plays the best on every clear decision; seat 1 gives points away on most."""
    plays = []
    for n in range(16):
        clear = n % 4 != 3
        plays.append(play(0, 2 * n + 1, 0.0 if clear else 0.05, clear))
        honest = 0.0 if (n + game) % 3 == 0 else 2.5
        plays.append(play(1, 2 * n + 2, honest if clear else 0.6, clear))
    return {"format": "basra-analysis/1", "variant": "egyptian", "iterations": 300,
            "seed": 0, "plays": plays}


async def nothing(*_: Any) -> None:
    return None


def test_an_implausible_record_is_reported_once_and_an_honest_one_is_not(url: str) -> None:
    async def scenario(store: Store) -> None:
        cheat, honest = await accounts(store, "Karim", "Hadi")
        fairplay = FairPlay(store, nothing, lambda: "Calm Heron 12")
        for game in range(GAMES):
            table_id = f"r{game}"
            await store.create_table(table(table_id, rated=True, status="playing"),
                                     [seat(0, cheat), seat(1, honest)])
            await store.finish_table(table_id, {
                "winner": 0, "ratings": [{"seat": 0, "before": 1450},
                                         {"seat": 1, "before": 1450}]})
            await fairplay.analysed(table_id, document(game))
        reports = await store.reports("open", 10)
        assert [(r.player_id, r.reporter_id, r.reason) for r in reports] == [
            (cheat, None, "cheating")]
        detail = reports[0].detail
        assert detail is not None and detail["flagged"] is True
        assert detail["games"] <= GAMES and "clear" in reports[0].note  # flagged when plain
        assert (await fairplay.assistance.assessment(honest) or {})["flagged"] is False
        # Once while it is open: another analysed match files nothing more.
        await fairplay.analysed("r0", document(0))
        assert len(await store.reports("open", 10)) == 1
        standing = await store.standing(cheat)
        assert not standing.rated_ban and not standing.muted  # never a punishment

    run(url, scenario)

