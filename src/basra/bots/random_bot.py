"""``random``: a uniformly random legal play."""

from __future__ import annotations

from basra.bots.base import Bot
from basra.game.engine import Play
from basra.game.views import SeatView


class RandomBot(Bot):
    level = "random"

    def decide(self, view: SeatView) -> Play:
        return view.legal[self.rng.randrange(len(view.legal))]
