"""Server settings: one frozen object handed to the app, the lobby and every table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str | None = None
    """None: SQLite in ``data_dir``; or a SQLAlchemy URL (``postgresql+asyncpg://...``)."""
    data_dir: Path | None = None
    clock_seconds: float = 30.0
    """Time for a turn; at zero the seat's bot plays."""
    grace_seconds: float = 10.0
    """How long a dropped player's seat waits before a bot plays it."""
    seed_window_seconds: float = 5.0
    """How long a pending round waits for client seeds (it starts sooner when every
    connected player is ready)."""
    bot_delay_seconds: float = 0.7
    """A bot's least time to play, so people can follow the table."""
    quick_match_bot_offer_seconds: float = 20.0
    """How long a quick-match player waits before being offered a bot."""
    default_bot_level: str = "medium"
    static_dir: Path | None = None
