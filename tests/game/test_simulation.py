"""One generic random-simulation test that every variant and seating must pass (OpenSpiel's
habit): random matches played through the public API, with the invariants of RULES.md checked
after every play, at every round's end and after every round's scoring.

The expectations are computed here from the rule book (card points, majority, carry, winning,
Serbian sets, the leftover, basras via tests/oracle.py), never read back from the engine.
"""

from __future__ import annotations

import random
import zlib

import pytest

import oracle
from basra.game.captures import takes
from basra.game.cards import NAMES
from basra.game.engine import Play, legal_plays, new_match, play, play_unchecked, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import shuffled_deck
from conftest import ALL_SEATINGS, card_points, names, seating_id

FULL = (1 << 52) - 1
TOTAL_CARD_POINTS = {"egyptian": 13, "arabic101": 13, "lebanese": 13, "serbian": 3}
TARGET = {"egyptian": 121, "arabic101": 101, "lebanese": 100, "serbian": 101}
MAJORITY = {"egyptian": ("27-of-52", 30), "arabic101": ("27-of-52", 30),
            "lebanese": ("most-cards", 3), "serbian": ("27-of-52", 30)}
ROUND_CAP = 400


class Simulation:
    """Plays random matches of one variant and seating, checking everything as it goes."""

    def __init__(self, variant: str, seats: int, teams: bool, seed: int) -> None:
        self.variant = variant
        self.rules = find_variant(variant)
        self.seats = seats
        self.teams = teams
        self.sides = 2 if teams else seats
        self.rng = random.Random(seed)
        self.rounds = 0
        self.stats = {"basras": 0, "ties": 0, "carry_landed": 0, "sets": 0, "matches": 0,
                      "oracle_checks": 0, "leftover_to_dealer": 0}

    def side(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    # --------------------------------------------------------------- a deck

    def deck(self) -> list[int]:
        if self.rng.random() < 0.1:  # now and then through the fair shuffle
            seed = self.rng.randbytes(32).hex()
            return list(shuffled_deck(seed, f"sim|{self.rounds}", self.rounds + 1))
        deck = list(range(52))
        self.rng.shuffle(deck)
        return deck

    def choose(self, plays: list[Play], greedy: bool) -> Play:
        if greedy and self.rng.random() < 0.7:
            best = max(p.take.bit_count() for p in plays)
            plays = [p for p in plays if p.take.bit_count() == best]
        return self.rng.choice(plays)

    # ------------------------------------------------------------ a match

    def play_match(self, max_rounds: int) -> None:
        match = new_match(self.rules, self.seats, self.teams)
        rounds_in_match = 0
        while not match.over:
            assert rounds_in_match < ROUND_CAP, "the match does not end"
            assert match.round is None or match.round.finished
            totals_before, carry_before, sets_before = match.totals, match.carry, match.sets
            match = start_round(match, self.deck())
            assert match.round.dealer == rounds_in_match % self.seats  # round r: seat r mod n
            match = self.play_round(match)
            rounds_in_match += 1
            self.rounds += 1
            self.check_settlement(match, totals_before, carry_before, sets_before)
            if self.rounds >= max_rounds and not match.over:
                return  # enough rounds: the match is left unfinished
        self.stats["matches"] += 1

    # ------------------------------------------------------------ a round

    def play_round(self, match):
        rnd = match.round
        n, dealer = self.seats, rnd.dealer
        stock = list(rnd.setup.stock)
        dealt = 0
        last_taker = -1
        greedy = self.rng.random() < 0.5
        assert rnd.turn == (dealer + 1) % n
        assert [h.bit_count() for h in rnd.hands] == [4] * n
        assert rnd.floor.bit_count() == 4
        assert not rnd.floor & self.rules.opening_forbidden
        self.check_accounting(rnd, stock[dealt:])
        for number in range(48):
            assert not rnd.finished
            seat = rnd.turn
            assert seat == (dealer + 1 + number) % n
            plays = legal_plays(rnd)
            self.check_legal_plays(rnd, plays)
            move = self.choose(plays, greedy)
            before = rnd
            if self.rng.random() < 0.05:  # the unchecked hot path gives the same state
                assert play_unchecked(before, move.card, move.take) == \
                    play(match, move, seat=seat).round
            match = play(match, move, seat=seat)
            rnd = match.round
            last = number == 47
            side = self.side(seat)
            card, take = move
            # the play's card leaves the hand; the floor and piles change as section 3 says
            assert rnd.played == before.played + 1
            logged = rnd.plays()[-1]
            assert (logged.seat, logged.card, logged.take) == (seat, card, take)
            floor = before.floor & ~take if take else before.floor | 1 << card
            piles = list(before.piles)
            if take:
                piles[side] |= take | 1 << card
                last_taker = side
            expected_basra = oracle.basra(self.variant, card, take, before.floor, last)
            assert rnd.plays()[-1].basra == expected_basra, (
                f"{NAMES[card]} took [{names(take)}] of [{names(before.floor)}]")
            bonus = list(before.bonus)
            bonus[side] += expected_basra
            assert list(rnd.bonus) == bonus
            self.stats["basras"] += bool(expected_basra)
            if last:
                receiver = last_taker if last_taker >= 0 else self.side(dealer)
                self.stats["leftover_to_dealer"] += last_taker < 0
                assert rnd.leftover == floor
                piles[receiver] |= floor
                assert rnd.floor == 0
            else:
                assert rnd.floor == floor
            assert list(rnd.piles) == piles
            for old, new in zip(before.piles, rnd.piles, strict=True):
                assert old & new == old, "a pile shrank"
            # the hands: the card left, and a new deal when every hand is empty
            hands = list(before.hands)
            hands[seat] &= ~(1 << card)
            if not any(hands) and not last:
                top = stock[dealt:dealt + 4 * n]
                dealt += 4 * n
                for k in range(n):
                    for i in range(4):
                        hands[(dealer + 1 + k) % n] |= 1 << top[k + n * i]
            assert list(rnd.hands) == hands
            assert rnd.turn == (seat + 1) % n
            self.check_accounting(rnd, stock[dealt:])
        assert rnd.finished
        assert dealt == len(stock)
        assert legal_plays(rnd) == []
        self.check_round_end(rnd)
        return match

    def check_accounting(self, rnd, undealt: list[int]) -> None:
        """52 cards accounted for, none in two places."""
        parts = [*rnd.hands, rnd.floor, *rnd.piles]
        stock = 0
        for c in undealt:
            stock |= 1 << c
        parts.append(stock)
        assert len(set(undealt)) == len(undealt)
        union = 0
        for part in parts:
            assert not union & part, f"cards in two places: {names(union & part)}"
            union |= part
        assert union == FULL
        assert sum(p.bit_count() for p in parts) == 52

    def check_legal_plays(self, rnd, plays: list[Play]) -> None:
        assert plays
        assert len(plays) == len(set(plays)), "a play listed twice"
        hand = rnd.hand(rnd.turn)
        expected = {Play(c, t) for c in range(52) if hand >> c & 1
                    for t in takes(self.rules, c, rnd.floor)}
        assert set(plays) == expected
        if rnd.floor.bit_count() <= 7 and self.rng.random() < 0.25:
            self.stats["oracle_checks"] += 1
            by_oracle = {Play(c, t) for c in range(52) if hand >> c & 1
                         for t in oracle.legal_takes(self.variant, c, rnd.floor)}
            assert set(plays) == by_oracle, f"floor [{names(rnd.floor)}]"

    def check_round_end(self, rnd) -> None:
        piles = rnd.piles
        assert sum(p.bit_count() for p in piles) == 52
        assert not any(rnd.hands) and rnd.floor == 0
        points = [card_points(self.variant, p) for p in piles]
        assert sum(points) == TOTAL_CARD_POINTS[self.variant] == sum(self.rules.card_points)

    # --------------------------------------------------------- the scoring

    def check_settlement(self, match, totals_before, carry_before, sets_before) -> None:
        rnd = match.round
        result = match.results[-1]
        kind, majority_points = MAJORITY[self.variant]
        counts = [p.bit_count() for p in rnd.piles]
        assert list(result.cards) == counts
        # majority and carry (RULES.md 5)
        carry_out = 0
        majority = [0] * self.sides
        landed = [0] * self.sides
        if kind == "27-of-52":
            assert self.sides == 2
            if max(counts) >= 27:
                winner = counts.index(max(counts))
                majority[winner] = majority_points
                landed[winner] = carry_before
                self.stats["carry_landed"] += bool(carry_before)
            else:
                carry_out = carry_before + majority_points
                self.stats["ties"] += 1
        else:
            top = max(counts)
            majority = [majority_points if c == top else 0 for c in counts]
        for s, score in enumerate(result.scores):
            assert score.majority == majority[s]
            assert score.carry == landed[s]
            assert score.card_points == card_points(self.variant, rnd.piles[s])
            assert score.basras == rnd.basras[s]
            assert score.basra_points == rnd.bonus[s]
            assert score.points == (score.majority + score.carry + score.card_points
                                    + score.basra_points)
        totals = tuple(t + p for t, p in zip(totals_before, result.points, strict=True))
        assert result.totals == totals
        # winning (6.2) and Serbian sets (6.4)
        serbian = self.variant == "serbian"
        target = 162 if serbian and sets_before == (2, 2) else TARGET[self.variant]
        best = max(totals)
        race_won = best >= target and totals.count(best) == 1
        if not race_won:
            assert match.winner is None
            assert result.set_winner is None
            assert match.totals == totals
            assert match.carry == result.carry == carry_out
            assert match.sets == sets_before
            return
        race_winner = totals.index(best)
        assert match.carry == result.carry == 0  # cleared when the match or set ends
        if not serbian:
            assert match.winner == race_winner
            assert match.sets == sets_before
            return
        self.stats["sets"] += 1
        sets = tuple(n + (s == race_winner) for s, n in enumerate(sets_before))
        assert result.set_winner == race_winner
        assert match.sets == sets
        assert match.totals == (0, 0)  # totals start from 0 in each set
        assert match.winner == (race_winner if sets[race_winner] == 3 else None)


def run(variant: str, seats: int, teams: bool, rounds: int, seed: int) -> Simulation:
    sim = Simulation(variant, seats, teams, seed)
    while sim.rounds < rounds:
        sim.play_match(rounds)
    return sim


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_random_matches_keep_every_invariant(seating):
    variant, seats, teams = seating
    sim = run(variant, seats, teams, rounds=300, seed=zlib.crc32(seating_id(seating).encode()))
    assert sim.rounds >= 300
    assert sim.stats["matches"] >= 1
    assert sim.stats["basras"] > 0
    assert sim.stats["oracle_checks"] > 0
    if variant == "serbian":
        assert sim.stats["sets"] >= 3


@pytest.mark.slow
@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_many_random_matches_keep_every_invariant(seating):
    variant, seats, teams = seating
    sim = run(variant, seats, teams, rounds=800, seed=12345 + seats)
    assert sim.stats["matches"] >= 10
