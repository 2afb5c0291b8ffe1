"""What makes an event: its options as a player or the schedule gives them, checked.

An event plays two-player tables of one variant (team events come with partners), each a
shorter match of RULES.md 6.5 by default (``length``) so that an arena holds several
matches per player.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from basra.errors import BasraError
from basra.game.rules import find_variant
from basra.server.ids import new_id
from basra.server.wire.errors import Refusal
from basra.store.base import TournamentFormat, TournamentRow

FORMATS = ("arena", "swiss")
LENGTHS = ("short", "full")
ARENA_MINUTES = (1, 720)
"""The shortest and the longest arena (the page offers 30, 60 and 90 minutes)."""
SWISS_ROUNDS = (3, 11)
NAME_LENGTH = (3, 60)
FURTHEST_START = timedelta(days=30)
"""How far ahead an event may be set to start."""
PASSWORD_LENGTH = 64


class TournamentError(Refusal):
    """A tournament request the server refuses (a stable code, a one-line message)."""

    code = "tournament/bad_options"


@dataclass(frozen=True, slots=True)
class EventSpec:
    """A new event's options."""

    name: str
    variant: str = "egyptian"
    format: TournamentFormat = "arena"
    starts_at: datetime | None = None
    """None: five minutes from now."""
    minutes: int | None = None
    """An arena's duration."""
    rounds: int | None = None
    """A Swiss's rounds."""
    rated: bool = True
    length: str = "short"
    clock_seconds: float | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    private: bool = False
    password: str | None = None


def clean_name(name: str) -> str:
    """An event's name: printable, spaces folded, 3 to 60 characters."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not NAME_LENGTH[0] <= len(text) <= NAME_LENGTH[1] or not all(
            ch.isprintable() for ch in text):
        raise TournamentError(f"a tournament's name is {NAME_LENGTH[0]} to {NAME_LENGTH[1]} "
                              "printable characters", "tournament/bad_options")
    return text


def check(spec: EventSpec, now: datetime) -> EventSpec:
    """The spec, its name and password cleaned, or a :class:`TournamentError` naming the
    first option that is wrong."""
    bad = "tournament/bad_options"
    try:
        rules = find_variant(spec.variant)
        rules.check_seating(2, False)
    except BasraError as exc:
        raise TournamentError(exc.message, bad) from None
    _check_format(spec)
    if spec.clock_seconds is not None and not 5 <= spec.clock_seconds <= 600:
        raise TournamentError("a turn clock is 5 to 600 seconds", bad)
    for bound in (spec.min_rating, spec.max_rating):
        if bound is not None and not 0 <= bound <= 4000:
            raise TournamentError("a rating bound is 0 to 4000", bad)
    if (spec.min_rating is not None and spec.max_rating is not None
            and spec.min_rating > spec.max_rating):
        raise TournamentError("the least rating is above the most", bad)
    starts_at = spec.starts_at or now + timedelta(minutes=5)
    if starts_at.tzinfo is None:
        raise TournamentError("a start time names its time zone (e.g. ...Z)", bad)
    if not now - timedelta(minutes=1) <= starts_at <= now + FURTHEST_START:
        raise TournamentError("a tournament starts within 30 days from now", bad)
    password = spec.password or None  # an empty password is none
    if password is not None:
        password = unicodedata.normalize("NFKC", password)
        if not 0 < len(password) <= PASSWORD_LENGTH:
            raise TournamentError(f"a tournament's password is 1 to {PASSWORD_LENGTH} "
                                  "characters", bad)
    return EventSpec(clean_name(spec.name), rules.name, spec.format, starts_at,
                     spec.minutes if spec.format == "arena" else None,
                     spec.rounds if spec.format == "swiss" else None, spec.rated,
                     spec.length, spec.clock_seconds, spec.min_rating, spec.max_rating,
                     spec.private, password or None)


def _check_format(spec: EventSpec) -> None:
    bad = "tournament/bad_options"
    if spec.format not in FORMATS:
        raise TournamentError(f"a tournament is an arena or a swiss, not {spec.format!r}", bad)
    if spec.length not in LENGTHS:
        raise TournamentError("a tournament's matches are short or full", bad)
    if spec.format == "arena":
        low, high = ARENA_MINUTES
        if spec.minutes is None or not low <= spec.minutes <= high:
            raise TournamentError(f"an arena lasts {low} to {high} minutes", bad)
    else:
        low, high = SWISS_ROUNDS
        if spec.rounds is None or not low <= spec.rounds <= high:
            raise TournamentError(f"a swiss has {low} to {high} rounds", bad)


def new_event(spec: EventSpec, now: datetime, *, created_by: str | None,
              password_hash: str | None = None, schedule_key: str | None = None
              ) -> TournamentRow:
    """A new event's row from a spec (checked here)."""
    spec = check(spec, now)
    assert spec.starts_at is not None
    return TournamentRow(
        id=new_id(), name=spec.name, variant=spec.variant, format=spec.format,
        status="upcoming", starts_at=spec.starts_at, created_at=now, minutes=spec.minutes,
        rounds=spec.rounds, rated=spec.rated, length=spec.length,
        clock_seconds=spec.clock_seconds, min_rating=spec.min_rating,
        max_rating=spec.max_rating, private=spec.private, password_hash=password_hash,
        created_by=created_by, schedule_key=schedule_key)
