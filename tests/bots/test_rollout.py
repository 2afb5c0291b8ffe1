"""The playouts' one-play lookahead: the best reply is found without listing the replies,
and it is the same as the best of every legal reply's take value."""

from __future__ import annotations

import random

import pytest

from basra.bots.evaluate import card_count_value
from basra.bots.rollout import _best_reply, _take_value
from basra.game.engine import Play, collect_plays
from basra.game.rules import find_variant


@pytest.mark.parametrize("variant", ["egyptian", "arabic101", "lebanese", "serbian"])
def test_the_best_reply_is_the_best_legal_take(variant: str) -> None:
    rules = find_variant(variant)
    per_card = card_count_value(rules, 2)
    rng = random.Random(variant)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randint(1, 14))
        split = rng.randint(1, min(4, len(cards)))
        hand = sum(1 << c for c in cards[:split])
        floor = sum(1 << c for c in cards[split:])
        last = rng.random() < 0.1
        replies: list[Play] = []
        collect_plays(replies, rules, hand, floor)
        top = 0.0
        for card, take in replies:
            if take:
                top = max(top, _take_value(rules, rules.card_points, per_card, card, take,
                                           floor, last))
        assert _best_reply(rules, rules.card_points, per_card, hand, floor, last) == top
