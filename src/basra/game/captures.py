"""Capture enumeration: which floor cards a played card takes (RULES.md 3).

Pure functions over card-set bit masks. Sum sets are found by subset growth, their
``max-cards`` unions by a small depth-first search, and both are memoised per (candidate
cards, value), since the same small floors recur constantly; the memos are bounded so a
long-running server cannot grow them without limit.
"""

from __future__ import annotations

from basra.game.cards import BELOW_VALUE, RANK, RANK_MASK, VALUES, Card, CardSet
from basra.game.rules import Rules

_memo_limit = [1 << 18]
"""Entries each memo keeps before it is emptied (one item: set by :func:`set_memo_limit`)."""
_one_set_memo: dict[int, tuple[CardSet, ...]] = {}
_max_cards_memo: dict[int, tuple[CardSet, ...]] = {}


def set_memo_limit(limit: int) -> None:
    """How many entries each memo keeps before it is emptied. The default, 1 << 18 (up to
    some 40 MB a memo), suits the bots, whose searches meet the same floors over and over;
    a server process only lists the legal plays of the positions its tables reach, and
    keeps its memory to a few MB with a few thousand (``basra serve`` sets 4,096)."""
    _memo_limit[0] = limit
    for memo in (_one_set_memo, _max_cards_memo):
        if len(memo) > limit:
            memo.clear()


def _remember(memo: dict[int, tuple[CardSet, ...]], key: int,
              found: tuple[CardSet, ...]) -> tuple[CardSet, ...]:
    """Keep ``found`` in ``memo`` at ``key`` (emptying a full memo first); returns it."""
    if len(memo) >= _memo_limit[0]:
        memo.clear()
    memo[key] = found
    return found


def _search_sum_sets(candidates: CardSet, value: int) -> tuple[CardSet, ...]:
    """Every subset of ``candidates`` (numerals below ``value``) whose values sum to ``value``.

    Grows the list of (sum, subset) pairs one card at a time, keeping only sums that can
    still reach ``value``; floors are small, so this stays a few dozen pairs.
    """
    partial: list[tuple[int, CardSet]] = [(0, 0)]
    m = candidates
    while m:
        low = m & -m
        v = VALUES[low.bit_length() - 1]
        m ^= low
        partial += [(s + v, k | low) for s, k in partial if s + v <= value]
    return tuple(sorted(k for s, k in partial if s == value))


def sum_sets(candidates: CardSet, value: int) -> tuple[CardSet, ...]:
    """Sum sets for a numeral of ``value``: sets of two or more numeral cards from
    ``candidates`` whose values add up to ``value``. Only cards of lower value can be in one,
    so callers pass ``floor & BELOW_VALUE[value]``."""
    key = candidates << 4 | value
    found = _one_set_memo.get(key)
    if found is None:
        found = _remember(_one_set_memo, key, _search_sum_sets(candidates, value))
    return found


def _search_max_unions(candidates: CardSet, value: int) -> tuple[CardSet, ...]:
    sets = sum_sets(candidates, value)
    if not sets:
        return ()
    unions: set[CardSet] = set()

    def walk(i: int, used: CardSet) -> None:
        unions.add(used)
        for j in range(i, len(sets)):
            s = sets[j]
            if not s & used:
                walk(j + 1, used | s)

    walk(0, 0)
    best = max(u.bit_count() for u in unions)
    return tuple(sorted(u for u in unions if u.bit_count() == best))


def max_card_unions(candidates: CardSet, value: int) -> tuple[CardSet, ...]:
    """The distinct unions of pairwise disjoint sum sets that take the most cards
    (``max-cards``); empty when there is no sum set."""
    key = candidates << 4 | value
    found = _max_cards_memo.get(key)
    if found is None:
        found = _remember(_max_cards_memo, key, _search_max_unions(candidates, value))
    return found


def takes(rules: Rules, card: Card, floor: CardSet) -> tuple[CardSet, ...]:
    """Every distinct legal take for ``card`` played on ``floor`` (``(0,)``: no capture).

    A card that can take must take, so ``0`` is listed only when the card has no capture.
    """
    if not floor:
        return (0,)
    if rules.power_cards >> card & 1:
        return (floor,)
    matches = floor & RANK_MASK[RANK[card]]
    value = VALUES[card]
    if value:
        candidates = floor & BELOW_VALUE[value]
        if candidates:
            if rules.sum_sets == "one-set":
                found = sum_sets(candidates, value)
            else:
                found = max_card_unions(candidates, value)
            if found:
                return tuple(matches | s for s in found)
    return (matches,)
