"""The match-aware value: what a round's result is worth in the match, the chance of winning
it, rather than the round's point margin.

**The model.** A round's outcome for a side is its points without the majority (card points
and basra points), another side's, and who took the majority (this side, the other, both on
a tie under ``most-cards``, or neither: a 26-26 tie carries it). Their distribution is
fitted on self-play: rounds played out by the greedy playout policy of the searches
(:func:`basra.bots.rollout.greedy_playout`) from fixed decks, both sides' points counted.
From it a dynamic program over the two race totals and the carry outstanding gives the
chance of reaching the target first (totals in steps of :data:`STEP` points, read between
steps linearly; the carry in whole majorities, as it is: it goes to whoever next takes the
majority). In Serbian (sets), a set won is worth the chance of the match from the sets it
leaves, every fresh set even.

With three or four solo players the race is read as this side against each other side in
turn, and the chances averaged: an approximation (who else takes the majority is
ignored). The value of a finished round is that chance, plus :data:`MARGIN_WEIGHT` of the
round margin so that plays the match does not tell apart are told apart by the points.

>>> from basra.game.rules import find_variant
>>> odds = race_odds(find_variant("egyptian"), 2, False)
>>> round(odds.chance(0, 0, 0), 2)
0.5
>>> odds.chance(120, 0, 0) > 0.95 > 0.05 > odds.chance(0, 120, 0)
True
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from basra.bots.endgame import Utility
from basra.bots.rollout import greedy_playout
from basra.game.engine import deal_round, side_count
from basra.game.rules import VARIANTS, Rules, check_length, find_variant

STEP = 5
"""Points per step of the race table."""
SELF_PLAY_ROUNDS = 2000
MAX_CARRY = 3
"""Carries of more majorities than this are read as this many."""
MARGIN_WEIGHT = 1e-4
LOWEST = -4
"""The lowest race total in the table, in steps (Serbian's penalty cards can take a total
below zero)."""
SWEEPS = 30
_ME, _OTHER, _NOBODY, _BOTH = range(4)


@dataclass(frozen=True, slots=True)
class RaceOdds:
    """The chance that a side reaches ``target`` first, by totals and carry."""

    target: int
    majority_points: int
    table: dict[tuple[int, int, int], float]
    """(my steps, other steps, carried majorities) -> chance, below the target."""

    def chance(self, mine: int, other: int, carry: int) -> float:
        """The chance of winning the race from ``mine`` against ``other``, ``carry``
        points carried (RULES.md 5)."""
        decided = _decided(mine, other, self.target)
        if decided is not None:
            return decided
        c = min(MAX_CARRY, carry // self.majority_points) if self.majority_points else 0
        x, y = max(mine / STEP, LOWEST), max(other / STEP, LOWEST)
        i, j = math.floor(x), math.floor(y)
        fx, fy = x - i, y - j
        v00 = self._at(i, j, c)
        v10 = self._at(i + 1, j, c)
        v01 = self._at(i, j + 1, c)
        v11 = self._at(i + 1, j + 1, c)
        return (v00 * (1 - fx) * (1 - fy) + v10 * fx * (1 - fy) + v01 * (1 - fx) * fy
                + v11 * fx * fy)

    def _at(self, i: int, j: int, c: int) -> float:
        got = self.table.get((i, j, c))
        if got is not None:
            return got
        decided = _decided(i * STEP, j * STEP, self.target)
        return 0.5 if decided is None else decided


def _decided(mine: int, other: int, target: int) -> float | None:
    if max(mine, other) < target or mine == other:
        return None
    return 1.0 if mine > other else 0.0


def _outcomes(rules: Rules, seats: int, teams: bool) -> dict[tuple[int, int, int], float]:
    """The fitted distribution of a round's outcome, in steps: (my base, other's base, who
    took the majority) -> probability."""
    rng = random.Random(20261201)
    sides = side_count(seats, teams)
    counts: dict[tuple[int, int, int], int] = {}
    total = 0
    per_card = rules.majority_points * 0.1
    for n in range(SELF_PLAY_ROUNDS):
        deck = list(range(52))
        rng.shuffle(deck)
        rnd = greedy_playout(deal_round(rules, seats, n % seats, deck, teams), rng.random,
                             0.1, per_card, 3.0)
        base = list(rnd.bonus)
        cards = []
        for s in range(sides):
            pile = rnd.pile(s)
            cards.append(pile.bit_count())
            base[s] += sum(rules.card_points[c] for c in range(52) if pile >> c & 1)
        if rules.majority == "most-cards":
            top = max(cards)
            takers = {s for s in range(sides) if cards[s] == top}
        else:
            takers = {s for s in range(sides) if cards[s] >= 27}
        for me in range(sides):
            for other in range(sides):
                if other == me:
                    continue
                if me in takers and other in takers:
                    who = _BOTH
                elif me in takers:
                    who = _ME
                elif other in takers:
                    who = _OTHER
                else:
                    who = _NOBODY
                key = (round(base[me] / STEP), round(base[other] / STEP), who)
                counts[key] = counts.get(key, 0) + 1
                total += 1
    return {k: v / total for k, v in counts.items()}


TABLES = "match_odds.json"
"""The race tables of every variant and seating, computed by ``python -m
basra.bots.match_value`` (:func:`write_tables`) and shipped with the package, so that a bot
worker reads them at once instead of computing them (about a second each)."""
FORMAT = "basra-match-odds/1"


def table_key(rules: Rules, seats: int, teams: bool, target: int) -> str:
    return f"{rules.name}|{seats}|{'teams' if teams else 'solo'}|{target}"


@lru_cache(maxsize=1)
def _stored() -> dict[str, list[float]]:
    try:
        text = resources.files("basra.bots").joinpath(TABLES).read_text()
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    if data.get("format") != FORMAT or data.get("step") != STEP:
        return {}
    tables: dict[str, list[float]] = data["tables"]
    return tables


def _keys(rules: Rules, target: int) -> list[tuple[int, int, int]]:
    limit = -(-target // STEP)
    carries = MAX_CARRY + 1 if rules.majority == "27-of-52" else 1
    return sorted(((i, j, c) for i in range(LOWEST, limit) for j in range(LOWEST, limit)
                   for c in range(carries)), reverse=True)


@lru_cache(maxsize=32)
def race_odds(rules: Rules, seats: int, teams: bool, target: int | None = None) -> RaceOdds:
    """The race table of ``rules`` for this seating (its target unless ``target``): the
    shipped one, or fitted and computed once a process."""
    goal = rules.target if target is None else target
    stored = _stored().get(table_key(rules, seats, teams, goal))
    keys = _keys(rules, goal)
    if stored is not None and len(stored) == len(keys):
        return RaceOdds(goal, rules.majority_points, dict(zip(keys, stored, strict=True)))
    return compute_odds(rules, seats, teams, goal)


def compute_odds(rules: Rules, seats: int, teams: bool, goal: int) -> RaceOdds:
    """The race table fitted on self-play and computed (:func:`race_odds` without the
    shipped tables)."""
    outcomes = [(da, db, who, p) for (da, db, who), p in _outcomes(rules, seats, teams).items()]
    majority = rules.majority_points
    steps = [round(majority * (1 + c) / STEP) for c in range(MAX_CARRY + 1)]
    plain = round(majority / STEP)
    carries = MAX_CARRY + 1 if rules.majority == "27-of-52" else 1
    limit = -(-goal // STEP)
    order = _keys(rules, goal)
    table = dict.fromkeys(order, 0.5)
    get = table.get
    for _ in range(SWEEPS):
        change = 0.0
        for key in order:
            i, j, c = key
            expected = 0.0
            for da, db, who, p in outcomes:
                a = i + da
                b = j + db
                carry = c
                if who == _ME:
                    a += steps[c]
                    carry = 0
                elif who == _OTHER:
                    b += steps[c]
                    carry = 0
                elif who == _BOTH:
                    a += plain
                    b += plain
                elif carries > 1:
                    carry = min(MAX_CARRY, c + 1)
                if (a >= limit or b >= limit) and a != b:
                    expected += p if a > b else 0.0
                else:
                    got = get((max(LOWEST, min(a, limit - 1)), max(LOWEST, min(b, limit - 1)),
                               carry))
                    expected += p * (0.5 if got is None else got)
            change = max(change, abs(expected - table[key]))
            table[key] = expected
        if change < 1e-5:
            break
    return RaceOdds(goal, majority, table)


def _sets_chance(sets_mine: int, sets_other: int, need: int, fresh: float) -> float:
    """The chance of winning the match from these sets won, each fresh set won with chance
    ``fresh``."""
    if sets_mine >= need:
        return 1.0
    if sets_other >= need:
        return 0.0
    return (fresh * _sets_chance(sets_mine + 1, sets_other, need, fresh)
            + (1 - fresh) * _sets_chance(sets_mine, sets_other + 1, need, fresh))


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where the match stands for the searching side before the round ends."""

    variant: str
    seats: int
    teams: bool
    side: int
    totals: tuple[int, ...]
    sets: tuple[int, ...]
    length: str = "full"
    """The match's length (RULES.md 6.5): a short match races to its shorter target."""

    def utility(self) -> Utility:
        """The value of a finished round to ``side``: its chance of winning the match, plus a
        little of the round margin."""
        rules = find_variant(self.variant, check_length(self.length))
        sides = side_count(self.seats, self.teams)
        target = rules.set_target(self.sets)
        odds = race_odds(rules, self.seats, self.teams, target)
        side = self.side
        totals = self.totals
        sets = self.sets
        need = rules.sets_to_win
        fresh = 1.0 / sides

        def after_set(winner: int) -> float:
            if need <= 1:
                return 1.0 if winner == side else 0.0
            mine = sets[side] + (winner == side)
            other = max(sets[s] + (winner == s) for s in others)
            return _sets_chance(mine, other, need, fresh)

        others = [s for s in range(sides) if s != side]

        memo: dict[tuple[int, ...], float] = {}

        def value(points: list[int], carry_out: int) -> float:
            key = (*points, carry_out)
            got = memo.get(key)
            if got is None:
                got = memo[key] = worth(points, carry_out)
            return got

        def worth(points: list[int], carry_out: int) -> float:
            new = [t + p for t, p in zip(totals, points, strict=True)]
            leader = max(others, key=lambda s: new[s])
            margin = points[side] - max(points[s] for s in others)
            best = max(new)
            if best >= target and new.count(best) == 1:
                chance = after_set(new.index(best))
            else:
                race = sum(odds.chance(new[side], new[s], carry_out)
                           for s in others) / len(others)
                chance = race if need <= 1 else (
                    race * after_set(side) + (1 - race) * after_set(leader))
            return chance + MARGIN_WEIGHT * margin
        return value


def seatings_to_store() -> list[tuple[Rules, int, bool, int]]:
    """Every (rules, seats, teams, target) a match can race to (a shorter match's too)."""
    out: list[tuple[Rules, int, bool, int]] = []
    for rules in VARIANTS.values():
        targets = {rules.target, rules.short_target}
        if rules.deciding_set_target is not None:
            targets.add(rules.deciding_set_target)
        for seats, teams in sorted(rules.seatings):
            out.extend((rules, seats, teams, t) for t in sorted(targets))
    return out


def write_tables(path: Path) -> int:
    """Compute every race table and write them to ``path``; returns how many."""
    tables = {}
    for rules, seats, teams, target in seatings_to_store():
        odds = compute_odds(rules, seats, teams, target)
        tables[table_key(rules, seats, teams, target)] = [
            round(odds.table[k], 5) for k in _keys(rules, target)]
    data = {"format": FORMAT, "step": STEP, "self_play_rounds": SELF_PLAY_ROUNDS,
            "tables": tables}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    return len(tables)


if __name__ == "__main__":
    target_path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name(TABLES)
    print(f"{write_tables(target_path)} tables written to {target_path}")
