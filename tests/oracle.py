"""A brute-force reference for RULES.md sections 3 and 6.1, written straight from the text.

Slow on purpose and simple on purpose: it enumerates every subset of the floor and keeps the
ones the rule book allows. It shares nothing with :mod:`basra.game.captures` except card numbering
(0..51, canonical order, card sets as bit masks), so the engine cannot agree with it by
sharing a bug. Variants are named, as in the rule book's table.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
SEVEN_D = 13 + 6  # the seven of diamonds

POWER = {  # RULES.md 6, "power cards"
    "egyptian": ("J", "7D"),
    "arabic101": ("J", "7D"),
    "lebanese": ("J",),
    "serbian": ("J", "7D"),
}
SUM_SETS = {  # RULES.md 6, "sum sets"
    "egyptian": "one-set",
    "arabic101": "one-set",
    "lebanese": "one-set",
    "serbian": "max-cards",
}


def rank(card: int) -> str:
    return RANKS[card % 13]


def name(card: int) -> str:
    return rank(card) + SUITS[card // 13]


def value(card: int) -> int:
    """A = 1, 2..10 face value; J, Q, K have none (None, never 0: they are not in sums)."""
    r = card % 13
    return r + 1 if r < 10 else 0


def is_numeral(card: int) -> bool:
    return rank(card) not in ("J", "Q", "K")


def is_face(card: int) -> bool:
    return not is_numeral(card)


def cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask(cs: list[int] | tuple[int, ...]) -> int:
    m = 0
    for c in cs:
        m |= 1 << c
    return m


def is_power(variant: str, card: int) -> bool:
    power = POWER[variant]
    return ("J" in power and rank(card) == "J") or ("7D" in power and card == SEVEN_D)


def subsets(floor: int) -> list[int]:
    """Every subset of the floor (2 ** len(floor) of them)."""
    cs = cards(floor)
    out = []
    for k in range(len(cs) + 1):
        for combo in combinations(cs, k):
            out.append(mask(combo))
    return out


def is_sum_set(s: int, target: int) -> bool:
    """RULES.md 3: two or more numeral floor cards whose values add up to ``target``."""
    cs = cards(s)
    return len(cs) >= 2 and all(is_numeral(c) for c in cs) and sum(map(value, cs)) == target


@cache
def is_disjoint_union_of_sum_sets(s: int, target: int) -> bool:
    """Whether ``s`` splits into pairwise disjoint sum sets (the empty set: zero of them)."""
    if s == 0:
        return True
    members = cards(s)
    if not all(is_numeral(c) for c in members) or sum(map(value, members)) % target:
        return False  # a shortcut only: such a set can never split into sums of target
    lowest = s & -s  # the lowest card must be in one of the sets: try each set holding it
    rest = s ^ lowest
    for part in subsets(rest):
        first = part | lowest
        if is_sum_set(first, target) and is_disjoint_union_of_sum_sets(s ^ first, target):
            return True
    return False


def is_legal_take(variant: str, card: int, floor: int, take: int,
                  sum_sets: str | None = None) -> bool:
    """Whether playing ``card`` on ``floor`` may take exactly ``take`` (RULES.md 3)."""
    mode = sum_sets or SUM_SETS[variant]
    if take & ~floor:
        return False
    if not floor:
        return take == 0  # laid down, power card or not
    if is_power(variant, card):
        return take == floor  # sweeps the whole floor, face cards included
    matches = mask([c for c in cards(floor) if rank(c) == rank(card)])
    if not is_numeral(card):  # Q or K: every card of the same rank, nothing else
        return take == matches
    if take & matches != matches:
        return False  # every match is always taken
    rest = take & ~matches
    target = value(card)
    others = floor & ~matches
    if mode == "one-set":
        if not any_sum_set(others, target):
            return rest == 0
        return is_sum_set(rest, target)
    # max-cards: the biggest collection of pairwise disjoint sum sets
    return (rest.bit_count() == most_cards_in_sum_sets(others, target)
            and is_disjoint_union_of_sum_sets(rest, target))


@cache
def any_sum_set(cards_left: int, target: int) -> bool:
    return any(is_sum_set(s, target) for s in subsets(cards_left))


@cache
def most_cards_in_sum_sets(cards_left: int, target: int) -> int:
    """How many cards the biggest collection of pairwise disjoint sum sets takes (0: none)."""
    for s in sorted(subsets(cards_left), key=int.bit_count, reverse=True):
        if is_disjoint_union_of_sum_sets(s, target):
            return s.bit_count()
    raise AssertionError("unreachable: the empty set is always a union of no sum sets")


def legal_takes(variant: str, card: int, floor: int, sum_sets: str | None = None) -> set[int]:
    """Every legal take: all subsets of the floor, filtered by :func:`is_legal_take`.

    A take of ``0`` is in the result only when the card captures nothing (who can take must
    take) -- that follows from the rules above, it is not special-cased."""
    return {t for t in subsets(floor) if is_legal_take(variant, card, floor, t, sum_sets)}


def basra(variant: str, card: int, take: int, floor: int, last: bool) -> int:
    """Basra points of a play (RULES.md 4 and 6.1); ``floor`` is the floor before the play."""
    if not take or take != floor:
        return 0
    taken = cards(take)
    r = rank(card)
    no_face = not any(is_face(c) for c in taken)
    total = sum(value(c) for c in taken)
    if variant == "egyptian":
        if r == "J":
            return 0
        if card == SEVEN_D:
            return 10 if no_face and total <= 10 else 0
        return 10
    if variant == "arabic101":
        if last:
            return 0
        if r == "J" and len(taken) == 1 and rank(taken[0]) == "J":
            return 0
        if card == SEVEN_D and len(taken) == 1 and rank(taken[0]) == "7":
            return 0
        return 10
    if variant == "lebanese":
        if r == "J":
            return 0
        return 10 if len(taken) in (1, 2) else 0
    if variant == "serbian":
        if r == "J":
            return 20 if len(taken) == 1 and rank(taken[0]) == "J" else 0
        if card == SEVEN_D:
            return 10 if no_face and total <= 9 else 0
        return 10
    raise ValueError(variant)
