"""The events the server makes by itself, from one file (``schedule.toml`` beside this
module by default; ``basra serve --tournament-schedule FILE``).

Each entry is made at each of its times, ``ahead`` minutes before it starts, with a
``schedule_key`` naming the entry and the start: the store makes one event per key, so every
node of a cluster may make the same schedule and only one event comes of it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from basra.server.tournaments.spec import EventSpec, TournamentError, check, new_event
from basra.store.base import TournamentRow

DEFAULT_FILE = Path(__file__).with_name("schedule.toml")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
PERIODS = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}


@dataclass(frozen=True, slots=True)
class Entry:
    """One scheduled event: what it is, how often, when, and how far ahead it is listed."""

    key: str
    spec: EventSpec
    every: str
    offset: timedelta
    """From the start of its period (the hour, the day, Monday 00:00)."""
    ahead: timedelta

    def starts(self, now: datetime) -> list[datetime]:
        """Its starts from ``now`` to ``now + ahead``."""
        period = PERIODS[self.every]
        if self.every == "hour":
            base = now.replace(minute=0, second=0, microsecond=0)
        else:
            base = now.replace(hour=0, minute=0, second=0, microsecond=0)
            if self.every == "week":
                base -= timedelta(days=base.weekday())
        start = base + self.offset
        while start < now:
            start += period
        out = []
        while start <= now + self.ahead:
            out.append(start)
            start += period
        return out


def _offset(every: str, at: str) -> timedelta:
    try:
        if every == "hour":
            minute = int(at)
            if not 0 <= minute < 60:
                raise ValueError
            return timedelta(minutes=minute)
        day = 0
        if every == "week":
            name, at = at.split()
            day = DAYS.index(name.lower())
        hours, minutes = (int(part) for part in at.split(":"))
        if not (0 <= hours < 24 and 0 <= minutes < 60):
            raise ValueError
        return timedelta(days=day, hours=hours, minutes=minutes)
    except ValueError:
        raise TournamentError(f"schedule: {at!r} is not a time for every={every!r}",
                              "tournament/bad_schedule") from None


class Schedule:
    """The scheduled events of one file."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries

    @classmethod
    def load(cls, path: Path = DEFAULT_FILE, now: datetime | None = None) -> Schedule:
        """The file's entries, each checked as a player's event would be (a wrong one is a
        one-line error naming it)."""
        with path.open("rb") as source:
            data = tomllib.load(source)
        return cls([_entry(raw, now or datetime.now(UTC)) for raw in data.get("event", [])])

    def due(self, now: datetime) -> list[TournamentRow]:
        """The events to make now (the store keeps one per schedule key)."""
        return [new_event(EventSpec(**{**_spec_fields(entry.spec), "starts_at": start}),
                          now - timedelta(minutes=1), created_by=None,
                          schedule_key=f"{entry.key}@{start.strftime('%Y-%m-%dT%H:%MZ')}")
                for entry in self.entries for start in entry.starts(now)]


def _spec_fields(spec: EventSpec) -> dict[str, Any]:
    return {name: getattr(spec, name) for name in EventSpec.__slots__}


def _entry(raw: dict[str, Any], now: datetime) -> Entry:
    key = raw.get("key")
    every = raw.get("every")
    if not isinstance(key, str) or not key or every not in PERIODS:
        raise TournamentError("schedule: every event needs a key and every = hour, day "
                              "or week", "tournament/bad_schedule")
    options = {k: v for k, v in raw.items() if k not in ("key", "every", "at", "ahead")}
    try:
        spec = check(EventSpec(**options, starts_at=now + timedelta(minutes=1)), now)
    except TypeError as exc:
        raise TournamentError(f"schedule: {key}: {exc}", "tournament/bad_schedule") from None
    except TournamentError as exc:
        raise TournamentError(f"schedule: {key}: {exc.message}",
                              "tournament/bad_schedule") from None
    return Entry(key, spec, every, _offset(every, str(raw.get("at", "00"))),
                 timedelta(minutes=int(raw.get("ahead", 60))))
