"""Making an event: a player's options checked (each wrong one named in one line), and the
server's own schedule (every entry made at each of its times, once per key and start)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from basra.server.tournaments.schedule import DEFAULT_FILE, Schedule
from basra.server.tournaments.spec import EventSpec, TournamentError, check, new_event
from basra.store.memory_tournaments import MemoryTournamentStore

NOW = datetime(2026, 12, 6, 12, 20, tzinfo=UTC)


def test_a_good_spec_is_cleaned_and_made_into_an_upcoming_event() -> None:
    spec = check(EventSpec("  Friday   Cup ", "EGYPTIAN", "swiss", rounds=5,
                           password="ﾊﾟｽ"), NOW)
    assert spec.name == "Friday Cup" and spec.variant == "egyptian"
    assert spec.starts_at == NOW + timedelta(minutes=5)
    assert spec.minutes is None and spec.password == "パス"
    row = new_event(EventSpec("Cup", minutes=45), NOW, created_by="p1")
    assert (row.status, row.format, row.length, row.rated) == ("upcoming", "arena", "short",
                                                               True)


@pytest.mark.parametrize(("changes", "words"), [
    ({"name": "ab"}, "3 to 60"),
    ({"variant": "chess"}, "chess"),
    ({"format": "knockout"}, "arena or a swiss"),
    ({"minutes": 0}, "1 to 720 minutes"),
    ({"minutes": None}, "1 to 720 minutes"),
    ({"format": "swiss", "rounds": 12}, "3 to 11 rounds"),
    ({"length": "long"}, "short or full"),
    ({"clock_seconds": 2}, "5 to 600"),
    ({"min_rating": 1800, "max_rating": 1600}, "above"),
    ({"starts_at": NOW + timedelta(days=31)}, "30 days"),
    ({"starts_at": datetime(2026, 12, 6, 13, 0)}, "time zone"),
    ({"password": ""}, None),
])
def test_a_wrong_option_is_named(changes: dict[str, object], words: str | None) -> None:
    spec = EventSpec(**{"name": "Cup", "minutes": 30, **changes})  # type: ignore[arg-type]
    if words is None:  # an empty password is no password
        assert check(spec, NOW).password is None
        return
    with pytest.raises(TournamentError) as error:
        check(spec, NOW)
    assert error.value.code == "tournament/bad_options"
    assert words in error.value.message and "\n" not in error.value.message


def test_the_default_schedule_makes_each_event_once_ahead_of_its_start() -> None:
    schedule = Schedule.load(DEFAULT_FILE, NOW)
    due = schedule.due(NOW)
    keys = {row.schedule_key for row in due}
    assert "hourly-arena-egyptian@2026-12-06T13:00Z" in keys
    assert "hourly-arena-arabic101@2026-12-06T12:30Z" in keys
    assert "daily-swiss-egyptian@2026-12-06T19:00Z" in keys
    assert all(row.created_by is None and row.status == "upcoming" for row in due)
    assert all(NOW <= row.starts_at <= NOW + timedelta(days=1) for row in due)

    async def made_twice() -> int:
        store = MemoryTournamentStore()
        made = 0
        for _ in range(2):  # two nodes, or two passes
            for row in Schedule.load(DEFAULT_FILE, NOW).due(NOW):
                made += await store.create_tournament(row)
        return made

    assert asyncio.run(made_twice()) == len(due)


def test_a_wrong_schedule_entry_is_named(tmp_path: Path) -> None:
    path = tmp_path / "schedule.toml"
    path.write_text('[[event]]\nkey = "x"\nname = "X Cup"\nformat = "arena"\nminutes = 30\n'
                    'every = "day"\nat = "25:00"\n')
    with pytest.raises(TournamentError) as error:
        Schedule.load(path, NOW)
    assert error.value.code == "tournament/bad_schedule" and "25:00" in error.value.message
    path.write_text('[[event]]\nkey = "x"\nname = "X Cup"\nformat = "swiss"\nrounds = 30\n'
                    'every = "week"\nat = "fri 18:00"\n')
    with pytest.raises(TournamentError) as error:
        Schedule.load(path, NOW)
    assert "x: a swiss has 3 to 11 rounds" in error.value.message
