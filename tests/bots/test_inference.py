"""The likelihood of the others' plays (issue 32, point 1): it reads a seat's view only."""

from __future__ import annotations

import random

from basra.bots import make_bot
from basra.bots.inference import Evidence
from basra.game.cards import cards_of, mask_of
from basra.game.engine import Match, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.views import view


def a_round(seed: int) -> list[Match]:
    """Every position of one medium self-play round."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    match = start_round(new_match(find_variant("egyptian"), 2), deck)
    bots = [make_bot("medium", seed), make_bot("medium", seed + 1)]
    out = []
    while match.in_round:
        assert match.round is not None
        out.append(match)
        seat = match.round.turn
        match = play(match, bots[seat].choose(view(match, seat)), seat)
    return out


def test_the_evidence_is_the_views_alone() -> None:
    """Two rounds alike in everything the seat sees, but with the hidden cards of the
    opponent's hand and the stock swapped, give the same evidence."""
    for match in a_round(3)[9:40:5]:
        rnd = match.round
        assert rnd is not None
        seat = rnd.turn
        seen = view(match, seat)
        evidence = Evidence.of(seen)
        opponent = rnd.hands[1 - seat]
        stock = list(rnd.setup.stock[rnd.dealt:])
        if not opponent or not stock:
            continue
        # the opponent's lowest card swapped with the stock's first card
        low = cards_of(opponent)[0]
        other = stock[0]
        hands = list(rnd.hands)
        hands[1 - seat] = opponent & ~(1 << low) | 1 << other
        assert view(match, seat) == seen
        assert Evidence.of(seen) == evidence
        assert evidence.log_weight(hands) <= 0.0


def test_the_true_hand_weighs_more_than_a_random_one_against_the_medium_bot() -> None:
    """Over a medium self-play round, the hand the opponent really holds is on average more
    likely under the evidence than a hand drawn at random from the unseen cards."""
    rng = random.Random(1)
    true_total = random_total = 0.0
    informed = 0
    for seed in (1, 2):
        for match in a_round(seed):
            rnd = match.round
            assert rnd is not None
            seat = rnd.turn
            seen = view(match, seat)
            evidence = Evidence.of(seen, beta=2.0)
            if evidence.empty or not 2 <= seen.deal_number <= 5:
                continue
            hands = list(rnd.hands)
            true_total += evidence.log_weight(hands)
            hands[1 - seat] = mask_of(rng.sample(cards_of(seen.unseen()),
                                                 rnd.hands[1 - seat].bit_count()))
            random_total += evidence.log_weight(hands)
            informed += 1
    assert informed >= 40
    assert true_total > random_total
