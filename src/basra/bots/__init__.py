"""Bots from beginner to expert. Each sees only its seat's view.

>>> bot = make_bot("medium", seed=1)
>>> bot.name
'bot:medium'
"""

from __future__ import annotations

from basra.bots.base import Bot, SearchBot
from basra.bots.easy import EasyBot
from basra.bots.expert import DEFAULT_ITERATIONS as EXPERT_ITERATIONS
from basra.bots.expert import DEFAULT_TIME_CAP as EXPERT_TIME_CAP
from basra.bots.expert import ExpertBot
from basra.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP, HardBot
from basra.bots.medium import MediumBot
from basra.bots.random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
}


def make_bot(level: str, seed: int | str | None = None, *, iterations: int | None = None,
             time_cap: float | None = None) -> Bot:
    """A bot of ``level`` (random, easy, medium, hard, expert). ``iterations`` and
    ``time_cap`` (seconds; 0 for none) set a searching bot's budget (hard, expert; each has
    its own default time cap); other levels answer at once."""
    cls = LEVELS.get(level)
    if cls is None:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    if cls is HardBot:
        return HardBot(
            seed,
            iterations=DEFAULT_ITERATIONS if iterations is None else iterations,
            time_cap=DEFAULT_TIME_CAP if time_cap is None else (time_cap or None),
        )
    if cls is ExpertBot:
        return ExpertBot(
            seed,
            iterations=EXPERT_ITERATIONS if iterations is None else iterations,
            time_cap=EXPERT_TIME_CAP if time_cap is None else (time_cap or None),
        )
    return cls(seed)


__all__ = ["LEVELS", "Bot", "SearchBot", "make_bot"]
