"""Bots from beginner to expert. Each sees only its seat's view.

>>> bot = make_bot("medium", seed=1)
>>> bot.name
'bot:medium'
"""

from __future__ import annotations

from basra.bots.base import Bot
from basra.bots.easy import EasyBot
from basra.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP, HardBot
from basra.bots.medium import MediumBot
from basra.bots.random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}


def make_bot(level: str, seed: int | str | None = None, *, iterations: int | None = None,
             time_cap: float | None = None) -> Bot:
    """A bot of ``level`` (random, easy, medium, hard). ``iterations`` and ``time_cap``
    (seconds; 0 for none) set the hard bot's budget; other levels answer at once."""
    cls = LEVELS.get(level)
    if cls is None:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    if cls is HardBot:
        return HardBot(
            seed,
            iterations=DEFAULT_ITERATIONS if iterations is None else iterations,
            time_cap=DEFAULT_TIME_CAP if time_cap is None else (time_cap or None),
        )
    return cls(seed)


__all__ = ["LEVELS", "Bot", "make_bot"]
