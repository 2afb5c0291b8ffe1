"""What a bot is: something that, given its seat's view, chooses one of the legal plays.

Bots get a :class:`~basra.game.views.SeatView`, never the state: they see exactly what a person
in the seat would see. Every bot is deterministic given its seed (the hard bot given its
iteration budget; a time cap, when set, can cut a search short).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from basra.game.engine import Play
from basra.game.views import SeatView


class Bot(ABC):
    """A player that chooses plays from views."""

    level: str = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return f"bot:{self.level}"

    def choose(self, view: SeatView) -> Play:
        """One of ``view.legal``; raises ``ValueError`` when it is not the seat's turn."""
        if not view.legal:
            raise ValueError("no legal play: it is not this seat's turn")
        if len(view.legal) == 1:
            return view.legal[0]
        return self.decide(view)

    @abstractmethod
    def decide(self, view: SeatView) -> Play:
        """Choose among two or more legal plays."""


class SearchBot(Bot):
    """A bot that searches: it thinks for ``iterations`` steps, or until ``time_cap``
    seconds have passed (``None``: no cap, deterministic given the seed). The server sends
    its decisions to the bot workers, never thinking in its event loop."""

    def __init__(self, seed: int | str | None = None, iterations: int = 1,
                 time_cap: float | None = None) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.time_cap = time_cap
