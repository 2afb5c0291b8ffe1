"""Profiles and leaderboards end to end (``GET /api/players/{username}``,
``GET /api/leaderboard/{variant}``): a real server on SQLite and on PostgreSQL (the
``backend`` fixture of server_harness; the PostgreSQL runs fail, never skip, when it is
down).

Two accounts play a rated private match and one of them a bot; the profiles say what the
match records say (replayed here: rounds, basras and points of the player's side) and what
Glicko-2 says of the ratings (computed here with :func:`basra.ratings.rate_game`). The
leaderboard's filters (deviation under 75, a rated game in the last 30 days, accounts only,
the top 100) are checked on ratings written straight into the store with crafted values and
times, since real games would take weeks to make them."""

from __future__ import annotations

import asyncio
import unicodedata
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import insert

from basra.match.records import parse_record
from basra.match.replay import replay
from basra.ratings import Rating, rate_game
from basra.server.http.routes.players import Tally, side_of, won
from basra.store import SqlStore, Store, open_store
from basra.store.base import DELETED_NAME, HistoryRow
from basra.store.schema import ratings as ratings_table
from server.e2e.test_accounts import prove_by_password
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401  (the backend fixture)
    bot_table,
    join,
    new_guest,
    play_out,
    private_table,
    serve,
)

PASSWORD = "a long enough password"


async def claim(base: str, http: httpx.AsyncClient, guest: Guest, username: str) -> None:
    r = await http.post(f"{base}/api/account", headers=guest.headers,
                        json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    await prove_by_password(base, http, guest, PASSWORD)  # as the browser does


def path_of(username: str) -> str:
    return "/api/players/" + quote(username, safe="")


def error_of(r: httpx.Response) -> str:
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    code: str = body["error"]["code"]
    return code


async def figures_of(base: str, http: httpx.AsyncClient, table_id: str,
                     seat: int) -> tuple[int, int, int, int | None]:
    """From the match's record, replayed: its rounds, and the basras and points of the
    seat's side over them, and the winning side."""
    record = parse_record((await http.get(f"{base}/api/tables/{table_id}/record")).json())
    result = replay(record)
    side = seat % (2 if record.teams else len(record.players))
    return (len(result.results), sum(r.basras[side] for r in result.results),
            sum(r.points[side] for r in result.results), result.winner)


# ---------------------------------------------------------------------------------------
# profiles


def test_profiles_say_what_the_records_and_glicko_say(backend: Backend) -> None:
    """Zeïna (an odd username: a diacritic, a space, an apostrophe) beats or loses to
    أحمد_77 in a rated match, then plays a bot; both profiles and the leaderboard follow."""
    zeina_name, ahmed_name = "Zeïna O'Neil", "أحمد_77"

    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        zeina = await new_guest(base, http, "Zeina")
        ahmed = await new_guest(base, http, "Ahmed")
        await claim(base, http, zeina, zeina_name)
        await claim(base, http, ahmed, ahmed_name)

        # Before any match: a profile with nothing in it.
        r = await http.get(base + path_of(zeina_name))
        assert r.status_code == 200, r.text
        empty = r.json()
        assert empty["ratings"] == {} and empty["recent"] == []
        assert (empty["games"], empty["wins"], empty["draws"], empty["losses"]) == (0, 0, 0, 0)
        assert empty["rounds"] == 0
        assert empty["basras_per_round"] is None and empty["points_per_round"] is None

        rated_id, code = await private_table(base, http, zeina, variant="egyptian", rated=True)
        await join(base, http, ahmed, code)
        await zeina.connect(rated_id)
        await ahmed.connect(rated_id)
        final = await play_out(zeina, ahmed)
        await zeina.close()
        await ahmed.close()
        assert final["table"]["rated"] is True

        bot_id = await bot_table(base, http, zeina, variant="lebanese")
        await zeina.connect(bot_id)
        await play_out(zeina)
        await zeina.close()

        rated_rounds, rated_basras, rated_points, rated_winner = await figures_of(
            base, http, rated_id, 0)
        bot_rounds, bot_basras, bot_points, bot_winner = await figures_of(base, http, bot_id, 0)
        assert rated_winner is not None and bot_winner is not None

        # The username is matched whatever its case and Unicode form.
        odd = unicodedata.normalize("NFD", zeina_name.upper())
        r = await http.get(base + path_of(odd))
        assert r.status_code == 200, r.text
        profile = r.json()
        assert profile["username"] == zeina_name
        assert profile["nickname"] == "Zeina"
        assert datetime.fromisoformat(profile["joined"]) <= datetime.now(UTC)

        # Glicko-2, as computed here: two new players, one game.
        first_score = 1.0 if rated_winner == 0 else 0.0
        mine, theirs = rate_game(Rating(), Rating(), first_score)
        egyptian = profile["ratings"]["egyptian"]
        assert set(profile["ratings"]) == {"egyptian"}, "a bot match is never rated"
        assert egyptian["rating"] == round(mine.rating)
        assert egyptian["deviation"] == round(mine.deviation)
        assert egyptian["label"] == f"{round(mine.rating)}?" and egyptian["provisional"]
        assert egyptian["games"] == 1
        [point] = egyptian["history"]
        assert point["table"] == rated_id
        assert point["rating"] == round(mine.rating)
        assert point["change"] == round(mine.rating - 1500)
        assert datetime.fromisoformat(point["at"]) <= datetime.now(UTC)

        # Games and results; per-round figures from the records.
        wins = (rated_winner == 0) + (bot_winner == 0)
        assert profile["games"] == 2
        assert (profile["wins"], profile["draws"], profile["losses"]) == (wins, 0, 2 - wins)
        rounds = rated_rounds + bot_rounds
        assert profile["rounds"] == rounds
        assert profile["basras_per_round"] == round((rated_basras + bot_basras) / rounds, 2)
        assert profile["points_per_round"] == round((rated_points + bot_points) / rounds, 2)

        # Recent matches, newest first, with links to the records and to rival accounts.
        assert [m["table"] for m in profile["recent"]] == [bot_id, rated_id]
        bot_match, rated_match = profile["recent"]
        assert bot_match["players"] == ["Zeina", "bot:random"]
        assert bot_match["usernames"] == [zeina_name, None]
        assert bot_match["rated"] is False and bot_match["change"] is None
        assert bot_match["won"] is (bot_winner == 0)
        assert bot_match["variant"] == "lebanese" and bot_match["seat"] == 0
        assert rated_match["players"] == ["Zeina", "Ahmed"]
        assert rated_match["usernames"] == [zeina_name, ahmed_name]
        assert rated_match["rated"] is True
        assert rated_match["change"] == round(mine.rating - 1500)
        assert rated_match["winner"] == rated_winner
        for m in profile["recent"]:
            assert m["record"] == f"/api/tables/{m['table']}/record"
            assert (await http.get(base + m["record"])).status_code == 200

        # The other side of the same match.
        other = (await http.get(base + path_of(ahmed_name))).json()
        assert other["ratings"]["egyptian"]["rating"] == round(theirs.rating)
        assert other["ratings"]["egyptian"]["history"][0]["change"] == round(
            theirs.rating - 1500)
        assert (other["games"], other["wins"], other["losses"]) == (
            1, int(rated_winner == 1), int(rated_winner == 0))
        assert other["recent"][0]["seat"] == 1
        assert other["recent"][0]["won"] is (rated_winner == 1)

        # One game each: far from established, so nobody is on the leaderboard yet.
        board = (await http.get(f"{base}/api/leaderboard/egyptian")).json()
        assert board["variant"] == "egyptian" and board["players"] == []
        # ... but a young site shows them beneath, provisional (issue 28)
        unsure = board["provisional"]
        assert len(unsure) == 2 and all(p["provisional"] and p["rank"] is None for p in unsure)
        assert unsure[0]["rating"] >= unsure[1]["rating"]

        # A deleted account has no profile; its matches stay, under "deleted player".
        r = await http.request("DELETE", f"{base}/api/account", headers=ahmed.headers,
                               json={"confirm": ahmed_name})
        assert r.status_code == 200, r.text
        r = await http.get(base + path_of(ahmed_name))
        assert (r.status_code, error_of(r)) == (404, "player/not_found")
        after = (await http.get(base + path_of(zeina_name))).json()
        rated_match = after["recent"][1]
        assert rated_match["players"] == ["Zeina", DELETED_NAME]
        assert rated_match["usernames"] == [zeina_name, None]

    serve(backend, scenario)


def test_unknown_players_and_variants_are_404(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        for name in ("nobody", "Amira", guest.player_id, "x" * 300, "%00"):
            r = await http.get(base + path_of(name))
            assert (r.status_code, error_of(r)) == (404, "player/not_found"), name
        r = await http.get(f"{base}/api/leaderboard/chess")
        assert (r.status_code, error_of(r)) == (404, "variant/unknown")
        # A variant's name in any case (or an alias) is the variant.
        r = await http.get(f"{base}/api/leaderboard/EGYPTIAN")
        assert r.status_code == 200, r.text
        assert r.json()["variant"] == "egyptian"

    serve(backend, scenario)


# ---------------------------------------------------------------------------------------
# leaderboards


async def seed_store(store: Store, now: datetime) -> dict[str, str]:
    """Accounts with ratings written straight into the store: a few that test each filter
    and, in arabic101, 103 established ones (only the best 100 are listed). The ids by
    username."""
    assert isinstance(store, SqlStore)
    ids: dict[str, str] = {}

    async def account(username: str) -> str:
        player_id = f"p{len(ids):03d}"
        await store.create_player(player_id, f"nick {username}", f"token {player_id}")
        await store.claim_account(player_id, username, None)
        ids[username] = player_id
        return player_id

    rows: list[dict[str, Any]] = []

    def rating(player_id: str, variant: str, value: float, deviation: float, games: int,
               days_ago: float) -> None:
        rows.append({"player_id": player_id, "variant": variant, "rating": value,
                     "deviation": deviation, "volatility": 0.06, "games": games,
                     "rated_at": now - timedelta(days=days_ago)})

    rating(await account("Leila"), "egyptian", 1700.4, 60, 40, 1)
    rating(await account("Karim"), "egyptian", 1650, 74.9, 30, 29.5)
    rating(await account("Nour"), "egyptian", 1800, 75.0, 50, 1)     # not under 75
    rating(await account("Sami"), "egyptian", 1900, 50, 80, 30.5)    # not this month
    yara = await account("Yara")
    rating(yara, "lebanese", 1600, 50, 20, 0)                      # another variant
    rating(yara, "egyptian", 1550, 120, 3, 0)                      # provisional here
    rating(await account("Tarek"), "egyptian", 2000, 50, 90, 1)      # deleted below
    await store.create_player("guest1", "Guest", "token guest1")     # never an account
    rating("guest1", "egyptian", 2100, 50, 90, 1)
    for i in range(103):
        rating(await account(f"player{i:03d}"), "arabic101", 1400 + i, 50, 10 + i, 2)
    async with store.engine.begin() as connection:
        await connection.execute(insert(ratings_table), rows)
    await store.delete_account(ids["Tarek"])
    return ids


def test_the_leaderboard_lists_established_recent_accounts(backend: Backend,
                                                           tmp_path: Path) -> None:
    now = datetime.now(UTC)

    async def seed() -> None:
        store = open_store(backend.db_url, backend.data_dir)
        await store.open()
        try:
            await seed_store(store, now)
        finally:
            await store.close()

    asyncio.run(seed())

    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.get(f"{base}/api/leaderboard/egyptian")
        assert r.status_code == 200, r.text
        board = r.json()
        assert board["variant"] == "egyptian"
        since = datetime.fromisoformat(board["since"])
        assert abs((now - timedelta(days=30) - since).total_seconds()) < 120
        assert board["players"] == [
            {"rank": 1, "username": "Leila", "nickname": "nick Leila", "rating": 1700,
             "deviation": 60, "games": 40, "rated_at": board["players"][0]["rated_at"],
             "provisional": False},
            {"rank": 2, "username": "Karim", "nickname": "nick Karim", "rating": 1650,
             "deviation": 75, "games": 30, "rated_at": board["players"][1]["rated_at"],
             "provisional": False},
        ]
        # Yara's egyptian rating is provisional: beneath, unranked
        assert "Yara" in [p["username"] for p in board["provisional"]]
        assert all(p["rank"] is None for p in board["provisional"])
        leila_at = datetime.fromisoformat(board["players"][0]["rated_at"])
        assert abs((leila_at - (now - timedelta(days=1))).total_seconds()) < 1

        lebanese = (await http.get(f"{base}/api/leaderboard/lebanese")).json()
        assert [p["username"] for p in lebanese["players"]] == ["Yara"]

        top = (await http.get(f"{base}/api/leaderboard/arabic101")).json()["players"]
        assert len(top) == 100
        assert [p["rank"] for p in top] == list(range(1, 101))
        assert [p["username"] for p in top] == [f"player{i:03d}" for i in range(102, 2, -1)]
        assert [p["rating"] for p in top] == sorted((p["rating"] for p in top), reverse=True)

        assert (await http.get(f"{base}/api/leaderboard/serbian")).json()["players"] == []

        # A profile of an established rating: no question mark.
        leila = (await http.get(f"{base}/api/players/leila")).json()
        assert leila["ratings"]["egyptian"] == {
            "rating": 1700, "deviation": 60, "label": "1700", "provisional": False,
            "games": 40, "history": []}
        yara = (await http.get(f"{base}/api/players/YARA")).json()
        assert yara["ratings"]["egyptian"]["label"] == "1550?"
        assert yara["ratings"]["lebanese"]["label"] == "1600"
        r = await http.get(f"{base}/api/players/Tarek")
        assert (r.status_code, error_of(r)) == (404, "player/not_found")

    serve(backend, scenario)


# ---------------------------------------------------------------------------------------
# the figures, from history rows


def row(seat: int, winner: int | None, result: dict[str, Any], *, players: int = 2,
        teams: bool = False) -> HistoryRow:
    return HistoryRow(table_id="t", variant="lebanese", seat=seat,
                      players=tuple(f"p{i}" for i in range(players)), teams=teams,
                      winner=winner, totals=(0,) * (2 if teams else players),
                      finished_at=datetime(2025, 3, 1, tzinfo=UTC), result=result)


def test_sides_wins_and_draws() -> None:
    assert side_of(row(3, 1, {}, players=4, teams=True)) == 1
    assert side_of(row(2, 1, {}, players=3)) == 2
    assert won(row(3, 1, {}, players=4, teams=True)) is True
    assert won(row(0, 1, {})) is False
    assert won(row(0, None, {})) is None


def test_per_round_figures_count_only_the_matches_that_kept_them() -> None:
    rows = [
        row(0, 0, {"winner": 0, "rounds": 4, "basras": [3, 1], "points": [90, 40]}),
        row(1, None, {"winner": None, "rounds": 6, "basras": [2, 4], "points": [60, 61]}),
        row(0, 1, {"winner": 1}),                          # finished before issue 12
        row(3, 1, {"winner": 1, "rounds": 2, "basras": [0, 5], "points": [10, 44]},
            players=4, teams=True),
        row(0, 0, {"winner": 0, "rounds": 0, "basras": [], "points": []}),
    ]
    tally = Tally.of(rows)
    assert (tally.games, tally.wins, tally.draws, tally.losses) == (5, 3, 1, 1)
    assert tally.rounds == 4 + 6 + 2
    assert tally.per_round(tally.basras) == round((3 + 4 + 5) / 12, 2)
    assert tally.per_round(tally.points) == round((90 + 61 + 44) / 12, 2)
    assert Tally.of([row(0, 0, {"winner": 0})]).per_round(0) is None


@pytest.mark.parametrize("value", [None, "x", [1], {"a": 1}])
def test_odd_stored_figures_are_left_out(value: object) -> None:
    tally = Tally.of([row(1, 0, {"rounds": 3, "basras": value, "points": value})])
    assert (tally.games, tally.losses, tally.rounds) == (1, 1, 0)
