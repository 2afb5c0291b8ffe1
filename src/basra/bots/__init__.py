"""Bots from beginner to expert. Each sees only its seat's view.

>>> bot = make_bot("medium", seed=1)
>>> bot.name
'bot:medium'
"""

from __future__ import annotations

import argparse

from basra.bots.base import Bot, SearchBot
from basra.bots.easy import EasyBot
from basra.bots.expert import DEFAULT_ITERATIONS as EXPERT_ITERATIONS
from basra.bots.expert import DEFAULT_TIME_CAP as EXPERT_TIME_CAP
from basra.bots.expert import ExpertBot
from basra.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP, HardBot
from basra.bots.medium import MediumBot
from basra.bots.oracle import ARENA_ONLY
from basra.bots.oracle import LEVEL as ORACLE
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
    if level == ORACLE:
        raise ValueError(ARENA_ONLY)
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


def refuse_level(level: str) -> str | None:
    """Why ``level`` cannot play here (a table, the engine, the terminal), or None when it
    is one of :data:`LEVELS`: the oracle is the arena's alone."""
    if level == ORACLE:
        return ARENA_ONLY
    if level not in LEVELS:
        return f"unknown bot level {level!r} (known: {', '.join(LEVELS)})"
    return None


def level_argument(text: str) -> str:
    """A command line's bot level (argparse's ``type``: its message is the refusal)."""
    refused = refuse_level(text)
    if refused is not None:
        raise argparse.ArgumentTypeError(refused)
    return text


__all__ = ["ARENA_ONLY", "LEVELS", "ORACLE", "Bot", "SearchBot", "level_argument", "make_bot",
           "refuse_level"]
