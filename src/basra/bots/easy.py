"""``easy``: plays like a beginner. It takes what it sees (the biggest capture, a basra
first), and when it cannot take, it lays a card without thinking about what that gives
away, though it will not throw a Jack or the 7D onto an empty floor while it holds another
card."""

from __future__ import annotations

from basra.bots.base import Bot
from basra.bots.evaluate import basra_of
from basra.game.cards import mask_of
from basra.game.engine import Play
from basra.game.rules import find_variant
from basra.game.views import SeatView


class EasyBot(Bot):
    level = "easy"

    def decide(self, view: SeatView) -> Play:
        rules = find_variant(view.variant)
        floor = mask_of(view.floor)
        captures = [p for p in view.legal if p.take]
        if captures:
            def size(p: Play) -> tuple[int, int, float]:
                return (basra_of(rules, view, p, floor), p.take.bit_count(), self.rng.random())
            return max(captures, key=size)
        lays = [p for p in view.legal if not rules.is_power(p.card)] or list(view.legal)
        return lays[self.rng.randrange(len(lays))]
