#!/usr/bin/env python3
"""An outside Basra engine, independent of the ``basra`` package: its own rules engine, in
the standard library only, speaking basra-engine/1 (docs/ENGINE_PROTOCOL.md) on standard
input and output.

It stands for the outside engine our strength issue measures against:

- **card tracking**: the unseen cards are the deck less its hand, the opening floor and
  every card played this round (whatever was taken had been on the floor, so it is among
  those); the other hands and the stock are drawn from them;
- **the last deal** (two players, stock empty): the opponent's hand is exactly the unseen
  cards, so the rest of the round is solved exactly by alpha-beta over the real round
  scoring (leftover floor to the last capturer, the variant's basras, majority with its
  carry, card points);
- **the deal before** (two players, the stock holding exactly the last deal): worlds are
  sampled (the opponent's hand and both last hands from the unseen cards), each solved
  exactly by alpha-beta to the round's end, the values averaged per root play;
- **earlier, and with three or four players**: Monte Carlo over sampled worlds, each root
  play followed by a greedy playout to the round's end in which every player looks two
  plies ahead (its own take's value minus the best reply the next player could make);
- a time budget per play (option ``time_ms``, 160 by default) and a ``seed``.

The value of a play is the round's point margin: the own side's points minus the best other
side's, majority and carry included. The answer is always one of ``view.legal``.

    basra arena --a medium --b "cmd:python3 benchmarks/rival_bot.py" --rounds 40

Flags: ``--time-ms N`` and ``--seed S`` set the options' first values.
"""

from __future__ import annotations

import json
import random
import sys
import time

PROTOCOL = "basra-engine/1"
NAME = "rival_bot.py"
VERSION = "1"
MAX_LINE = 1_048_576
DEFAULT_TIME_MS = 160

# --------------------------------------------------------------------------- cards

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CDHS"
NAMES = tuple(r + s for s in SUITS for r in RANKS)
RANK = tuple(i % 13 for i in range(52))
VALUE = tuple(r + 1 if r < 10 else 0 for r in RANK)
FULL = (1 << 52) - 1
RANK_MASK = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
FACES = RANK_MASK[10] | RANK_MASK[11] | RANK_MASK[12]
JACKS = RANK_MASK[10]
BELOW = tuple(sum(RANK_MASK[r] for r in range(max(0, v - 1))) for v in range(11))
"""``BELOW[v]``: every numeral of value below ``v``."""


def card_index(name: str) -> int:
    return NAMES.index(name)


SEVEN_D = card_index("7D")
TEN_D = card_index("10D")
TWO_C = card_index("2C")
TWO_S = card_index("2S")
ACES = RANK_MASK[0]
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def parse_card(text: object) -> int:
    """A card's index from its notation (``10D``, ``TD``, ``10♦``, lower case); ValueError."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be text, not {text!r}")
    raw = text.strip().upper()
    if raw and raw[-1] in _SYMBOLS:
        raw = raw[:-1] + _SYMBOLS[raw[-1]]
    if raw.startswith("T"):
        raw = "10" + raw[1:]
    try:
        return NAMES.index(raw)
    except ValueError:
        raise ValueError(f"not a card: {text!r}") from None


def mask_of(cards: object) -> int:
    if not isinstance(cards, list):
        raise ValueError("a list of cards was expected")
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return m


def bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


# --------------------------------------------------------------------------- variants


class Variant:
    """One rule set (RULES.md 6): power cards, sum sets, basras, majority, card points."""

    def __init__(self, name: str, power: int, one_set: bool, most_cards: bool,
                 majority_points: int, point_classes: tuple[tuple[int, int], ...],
                 basra_rule: str) -> None:
        self.name = name
        self.power = power
        self.one_set = one_set
        self.most_cards = most_cards
        self.majority_points = majority_points
        self.point_classes = point_classes
        self.basra_rule = basra_rule
        self.points = tuple(sum(v for k, v in point_classes if k >> c & 1) for c in range(52))
        self.per_card = (0.07 * majority_points if not most_cards
                         else 0.12 * majority_points)
        self._takes: dict[int, tuple[int, ...]] = {}
        self._best: dict[int, float] = {}
        self._replies: dict[tuple[int, int], float] = {}

    # ---- points

    def card_points(self, m: int) -> int:
        total = 0
        for k, v in self.point_classes:
            total += v * (m & k).bit_count()
        return total

    # ---- captures (RULES.md 3)

    def takes(self, card: int, floor: int) -> tuple[int, ...]:
        """Every distinct legal take of ``card`` on ``floor``; ``(0,)`` when it takes nothing."""
        key = floor << 6 | card
        found = self._takes.get(key)
        if found is None:
            if len(self._takes) > 400_000:
                self._takes.clear()
                self._best.clear()
            found = self._find_takes(card, floor)
            self._takes[key] = found
        return found

    def _find_takes(self, card: int, floor: int) -> tuple[int, ...]:
        if not floor:
            return (0,)
        if self.power >> card & 1:
            return (floor,)
        matches = floor & RANK_MASK[RANK[card]]
        value = VALUE[card]
        if value:
            candidates = floor & BELOW[value]
            if candidates:
                sets = sum_sets(candidates, value)
                if sets:
                    if not self.one_set:
                        sets = max_unions(sets)
                    return tuple(sorted({matches | s for s in sets}))
        return (matches,)

    # ---- basras (RULES.md 4, 6.1)

    def basra(self, card: int, take: int, floor: int, last: bool) -> int:
        """Basra points of ``card`` taking ``take`` from ``floor`` (``last``: the round's
        last play)."""
        if not take or take != floor:
            return 0
        rule = self.basra_rule
        power = self.power >> card & 1
        if rule == "egyptian":
            if not power:
                return 10
            if card == SEVEN_D:
                return 10 if not take & FACES and _value_sum(take) <= 10 else 0
            return 0
        if rule == "arabic101":
            if last:
                return 0
            if power and take.bit_count() == 1 and RANK[take.bit_length() - 1] == RANK[card]:
                return 0
            return 10
        if rule == "lebanese":
            if power or floor.bit_count() > 2:
                return 0
            return 10
        # serbian
        if not power:
            return 10
        if card == SEVEN_D:
            return 10 if not take & FACES and _value_sum(take) <= 9 else 0
        if take.bit_count() == 1 and take & JACKS:
            return 20
        return 0

    # ---- values for the greedy policy

    def take_value(self, card: int, take: int, basra: int) -> float:
        got = take | 1 << card
        return self.card_points(got) + self.per_card * got.bit_count() + basra

    def best_capture(self, card: int, floor: int) -> float:
        """The most ``card`` can make on ``floor`` (0 when it takes nothing)."""
        key = floor << 6 | card
        found = self._best.get(key)
        if found is None:
            found = 0.0
            for t in self.takes(card, floor):
                if t:
                    v = self.take_value(card, t, self.basra(card, t, floor, False))
                    found = max(found, v)
            self._best[key] = found
        return found

    def best_reply(self, hand: int, floor: int) -> float:
        """The most a player holding ``hand`` can make on ``floor``."""
        key = (hand, floor)
        found = self._replies.get(key)
        if found is None:
            if len(self._replies) > 400_000:
                self._replies.clear()
            found = max(self.best_capture(c, floor) for c in bits(hand))
            self._replies[key] = found
        return found

    # ---- round scoring (RULES.md 5)

    def majority(self, counts: list[int], carry: int) -> list[int]:
        """Majority points per side for the final pile sizes ``counts``."""
        out = [0] * len(counts)
        if self.most_cards:
            top = max(counts)
            for i, n in enumerate(counts):
                if n == top:
                    out[i] = self.majority_points
        else:
            for i, n in enumerate(counts):
                if n >= 27:
                    out[i] = self.majority_points + carry
        return out


def _value_sum(m: int) -> int:
    return sum(VALUE[c] for c in bits(m))


_sum_memo: dict[int, tuple[int, ...]] = {}


def sum_sets(candidates: int, value: int) -> tuple[int, ...]:
    """Every subset of ``candidates`` (numerals below ``value``) adding up to ``value``: two
    cards or more, since each is worth less than ``value``."""
    key = candidates << 4 | value
    found = _sum_memo.get(key)
    if found is None:
        partial = [(0, 0)]
        for c in bits(candidates):
            v = VALUE[c]
            partial += [(s + v, m | 1 << c) for s, m in partial if s + v <= value]
        found = tuple(m for s, m in partial if s == value)
        if len(_sum_memo) > 200_000:
            _sum_memo.clear()
        _sum_memo[key] = found
    return found


def max_unions(sets: tuple[int, ...]) -> tuple[int, ...]:
    """The unions of pairwise disjoint sets from ``sets`` taking the most cards."""
    unions: set[int] = set()

    def walk(i: int, used: int) -> None:
        unions.add(used)
        for j in range(i, len(sets)):
            if not sets[j] & used:
                walk(j + 1, used | sets[j])

    walk(0, 0)
    best = max(u.bit_count() for u in unions)
    return tuple(u for u in unions if u.bit_count() == best)


def _classes(*pairs: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(pairs)


_CLASSIC = _classes((JACKS | ACES, 1), (1 << TWO_C, 2), (1 << TEN_D, 3))
VARIANTS = {
    "egyptian": lambda: Variant("egyptian", JACKS | 1 << SEVEN_D, True, False, 30, _CLASSIC,
                                "egyptian"),
    "arabic101": lambda: Variant("arabic101", JACKS | 1 << SEVEN_D, True, False, 30, _CLASSIC,
                                 "arabic101"),
    "lebanese": lambda: Variant("lebanese", JACKS, True, True, 3, _CLASSIC, "lebanese"),
    "serbian": lambda: Variant("serbian", JACKS | 1 << SEVEN_D, False, False, 30,
                               _classes((JACKS | ACES, 1), (1 << TWO_S, -2),
                                        (1 << TEN_D, -3)), "serbian"),
}
_variant_cache: dict[str, Variant] = {}


def variant_of(name: object) -> Variant:
    if not isinstance(name, str) or name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}")
    found = _variant_cache.get(name)
    if found is None:
        found = _variant_cache[name] = VARIANTS[name]()
    return found


# --------------------------------------------------------------------------- the view


class ViewError(ValueError):
    """The view does not parse or does not hold together."""


def _int(data: dict, field: str, low: int = 0) -> int:
    value = data.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ViewError(f"view field {field!r} must be a whole number from {low} up")
    return value


def _ints(data: dict, field: str, length: int) -> list[int]:
    value = data.get(field)
    if (not isinstance(value, list) or len(value) != length
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise ViewError(f"view field {field!r} must be a list of {length} integers")
    return value


class State:
    """What the seat knows, read from the view: the round in play and the legal plays."""

    def __init__(self, view: object) -> None:
        if not isinstance(view, dict):
            raise ViewError("the view must be an object")
        try:
            self.var = variant_of(view.get("variant"))
            self.seats = _int(view, "seats", 1)
            if self.seats > 4:
                raise ViewError("at most four seats")
            self.teams = bool(view.get("teams")) and self.seats == 4
            self.sides = 2 if self.teams else self.seats
            self.seat = _int(view, "seat")
            if self.seat >= self.seats:
                raise ViewError("the seat is not at the table")
            dealer = view.get("dealer")
            self.dealer = dealer if isinstance(dealer, int) and 0 <= dealer < self.seats else 0
            self.hand = mask_of(view.get("hand"))
            self.floor = mask_of(view.get("floor"))
            self.hand_counts = _ints(view, "hand_counts", self.seats)
            self.stock = _int(view, "stock_count")
            self.pile_counts = _ints(view, "pile_counts", self.sides)
            self.basra_points = _ints(view, "basra_points", self.sides)
            carry = view.get("carry", 0)
            self.carry = carry if isinstance(carry, int) and carry > 0 else 0
            last = view.get("last_taker")
            self.last_side = (self.side_of(last) if isinstance(last, int)
                              and not isinstance(last, bool) and 0 <= last < self.seats
                              else -1)
            seen = self.hand | mask_of(view.get("opening_floor", []))
            self.points = [0] * self.sides
            plays = view.get("plays", [])
            if not isinstance(plays, list):
                raise ViewError("view field 'plays' must be a list")
            for p in plays:
                if not isinstance(p, dict):
                    raise ViewError("a play must be an object")
                card = parse_card(p.get("card"))
                take = mask_of(p.get("take", []))
                seen |= 1 << card
                seat = p.get("seat")
                if take and isinstance(seat, int) and 0 <= seat < self.seats:
                    self.points[self.side_of(seat)] += self.var.card_points(take | 1 << card)
            for s in range(self.sides):
                self.points[s] += self.basra_points[s]
            self.unseen = FULL & ~seen & ~self.floor
            legal = view.get("legal")
            if not isinstance(legal, list):
                raise ViewError("view field 'legal' must be a list")
            self.legal: list[tuple[int, int, dict]] = []
            for entry in legal:
                if not isinstance(entry, dict):
                    raise ViewError("a legal play must be an object")
                self.legal.append((parse_card(entry.get("card")),
                                   mask_of(entry.get("take", [])), entry))
        except ViewError:
            raise
        except (ValueError, TypeError, AttributeError) as exc:
            raise ViewError(str(exc)) from None

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def my_side(self) -> int:
        return self.side_of(self.seat)

    def consistent(self) -> bool:
        """Whether the unseen cards are exactly the other hands and the stock."""
        others = sum(n for s, n in enumerate(self.hand_counts) if s != self.seat)
        return (self.unseen.bit_count() == others + self.stock
                and self.hand_counts[self.seat] == self.hand.bit_count()
                and self.stock % (4 * self.seats) == 0)


# --------------------------------------------------------------------------- exact search


INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfTime(Exception):
    pass


class Solver:
    """Alpha-beta over the rest of a two-player round with every hand known: the value is
    the round's remaining point margin, mine (side 0) minus the opponent's (side 1)."""

    def __init__(self, var: Variant, carry: int, dealer_rel: int, deadline: float) -> None:
        self.var = var
        self.carry = carry
        self.dealer_rel = dealer_rel
        self.deadline = deadline
        self.tt: dict[tuple, tuple[float, int]] = {}
        self.nodes = 0

    def terminal(self, floor: int, last: int, cm: int, co: int) -> float:
        var = self.var
        side = last if last >= 0 else self.dealer_rel
        v = 0.0
        if floor:
            lp = var.card_points(floor)
            n = floor.bit_count()
            if side == 0:
                v += lp
                cm += n
            else:
                v -= lp
                co += n
        if var.most_cards:
            if cm > co:
                v += var.majority_points
            elif co > cm:
                v -= var.majority_points
        elif cm >= 27:
            v += var.majority_points + self.carry
        elif co >= 27:
            v -= var.majority_points + self.carry
        return v

    def search(self, hm: int, ho: int, nm: int, no: int, floor: int, turn: int, last: int,
               cm: int, co: int, alpha: float, beta: float) -> float:
        """The remaining margin. ``hm``/``ho``: the hands now; ``nm``/``no``: the hands of the
        deal still to come (0 when none); ``turn`` 0 for me, 1 for the opponent; ``last``
        the side that captured last (-1: nobody)."""
        if not hm and not ho:
            if nm or no:
                return self.search(nm, no, 0, 0, floor, turn, last, cm, co, alpha, beta)
            return self.terminal(floor, last, cm, co)
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfTime
        key = (hm, ho, nm, no, floor, turn, last, cm)
        hit = self.tt.get(key)
        if hit is not None:
            value, flag = hit
            if flag == EXACT:
                return value
            if flag == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        a0, b0 = alpha, beta
        var = self.var
        is_last = not nm and not no and (hm | ho).bit_count() == 1
        hand = hm if turn == 0 else ho
        moves = []
        for c in bits(hand):
            cb = 1 << c
            for t in var.takes(c, floor):
                if t:
                    gain = var.card_points(t | cb) + var.basra(c, t, floor, is_last)
                    n = t.bit_count() + 1
                    moves.append((gain + 0.5 * n, c, t, gain, n))
                else:
                    moves.append((-0.2 * VALUE[c] - (2 if var.power & cb else 0), c, 0, 0, 0))
        moves.sort(reverse=True)
        if turn == 0:
            best = -INF
            for _, c, t, gain, n in moves:
                cb = 1 << c
                if t:
                    v = gain + self.search(hm ^ cb, ho, nm, no, floor & ~t, 1, 0,
                                           cm + n, co, alpha - gain, beta - gain)
                else:
                    v = self.search(hm ^ cb, ho, nm, no, floor | cb, 1, last, cm, co,
                                    alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for _, c, t, gain, n in moves:
                cb = 1 << c
                if t:
                    v = -gain + self.search(hm, ho ^ cb, nm, no, floor & ~t, 0, 1,
                                            cm, co + n, alpha + gain, beta + gain)
                else:
                    v = self.search(hm, ho ^ cb, nm, no, floor | cb, 0, last, cm, co,
                                    alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            self.tt[key] = (best, UPPER)
        elif best >= b0:
            self.tt[key] = (best, LOWER)
        else:
            self.tt[key] = (best, EXACT)
        return best

    def root_value(self, st: State, card: int, take: int, hm: int, ho: int, nm: int,
                   no: int, alpha: float = -INF) -> float:
        """My margin from now to the round's end after I play ``card`` taking ``take``
        (points won so far excluded)."""
        cb = 1 << card
        floor = st.floor
        me, op = st.my_side, 1 - st.my_side
        cm, co = st.pile_counts[me], st.pile_counts[op]
        last = -1 if st.last_side < 0 else (0 if st.last_side == me else 1)
        if take:
            is_last = not nm and not no and (hm | ho).bit_count() == 1
            gain = self.var.card_points(take | cb) + self.var.basra(card, take, floor, is_last)
            return gain + self.search(hm ^ cb, ho, nm, no, floor & ~take, 1, 0,
                                      cm + take.bit_count() + 1, co, alpha - gain, INF)
        return self.search(hm ^ cb, ho, nm, no, floor | cb, 1, last, cm, co, alpha, INF)


# --------------------------------------------------------------------------- playouts

SPEND_COST = 3.0
"""What spending a sweeper costs the greedy policy while deals remain, in points."""


def greedy_choice(var: Variant, hand: int, floor: int, reply_hand: int, last: bool,
                  spend_cost: float) -> tuple[int, int]:
    """The two-ply greedy play: the take's value minus the best reply of a player holding
    ``reply_hand`` on the floor it leaves (less ``spend_cost`` for a sweeper spent)."""
    best_score = -INF
    best = (0, 0)
    for c in bits(hand):
        cb = 1 << c
        for t in var.takes(c, floor):
            if t:
                score = var.take_value(c, t, var.basra(c, t, floor, last))
                after = floor & ~t
                if var.power & cb:
                    score -= spend_cost
            else:
                score = -0.05 * VALUE[c]
                after = floor | cb
            if after and reply_hand:
                score -= var.best_reply(reply_hand, after)
            if score > best_score:
                best_score = score
                best = (c, t)
    return best


def playout(var: Variant, st: State, hands: list[int], deals: list[list[int]], floor: int,
            turn: int, last: int, counts: list[int], points: list[float]) -> float:
    """Play the round out greedily from the given world; the margin of my side."""
    seats = st.seats
    side_of = [st.side_of(s) for s in range(seats)]
    di = 0
    left = sum(h.bit_count() for h in hands)
    while True:
        if not left:
            if di >= len(deals):
                break
            hands = list(deals[di])
            di += 1
            left = sum(h.bit_count() for h in hands)
            if not left:
                break
        hand = hands[turn]
        nxt = (turn + 1) % seats
        if not hand:
            turn = nxt
            continue
        reply_hand = hands[nxt] or (deals[di][nxt] if di < len(deals) else 0)
        is_last = di >= len(deals) and left == 1
        c, t = greedy_choice(var, hand, floor, reply_hand, is_last,
                             SPEND_COST if di < len(deals) else 0.0)
        cb = 1 << c
        hands[turn] = hand ^ cb
        left -= 1
        if t:
            side = side_of[turn]
            points[side] += var.card_points(t | cb) + var.basra(c, t, floor, is_last)
            counts[side] += t.bit_count() + 1
            floor &= ~t
            last = side
        else:
            floor |= cb
        turn = nxt
    return final_margin(var, st, floor, last, counts, points)


def final_margin(var: Variant, st: State, floor: int, last: int, counts: list[int],
                 points: list[float]) -> float:
    side = last if last >= 0 else st.side_of(st.dealer)
    if floor:
        counts[side] += floor.bit_count()
        points[side] += var.card_points(floor)
    for s, m in enumerate(var.majority(counts, st.carry)):
        points[s] += m
    me = st.my_side
    return points[me] - max(p for s, p in enumerate(points) if s != me)


# --------------------------------------------------------------------------- the engine


class Engine:
    def __init__(self, time_ms: int = DEFAULT_TIME_MS, seed: object = None) -> None:
        self.time_ms = time_ms
        self.seed = seed
        self.rng = random.Random(seed)

    def reseed(self, seed: object) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # ---- worlds

    def sample(self, st: State) -> tuple[list[int], list[list[int]]]:
        """Other hands and the deals still to come, drawn from the unseen cards."""
        cards = bits(st.unseen)
        self.rng.shuffle(cards)
        hands = [0] * st.seats
        pos = 0
        for s in range(st.seats):
            if s == st.seat:
                hands[s] = st.hand
                continue
            for c in cards[pos:pos + st.hand_counts[s]]:
                hands[s] |= 1 << c
            pos += st.hand_counts[s]
        deals = []
        while pos + 4 * st.seats <= len(cards):
            deal = []
            for _ in range(st.seats):
                m = 0
                for c in cards[pos:pos + 4]:
                    m |= 1 << c
                pos += 4
                deal.append(m)
            deals.append(deal)
        return hands, deals

    # ---- choosing

    def choose(self, st: State) -> dict:
        legal = st.legal
        if len(legal) == 1:
            return legal[0][2]
        start = time.perf_counter()
        budget = self.time_ms / 1000.0
        deadline = start + budget
        values: list[float] | None = None
        try:
            if st.seats == 2 and st.consistent():
                if st.stock == 0:
                    values = self.solve_last_deal(st, start + 20 * budget + 1.0)
                elif st.stock == 8:
                    values = self.solve_sampled(st, deadline, start + 4 * budget + 0.3)
        except OutOfTime:
            values = None
        if values is None:
            values = self.monte_carlo(st, max(deadline, time.perf_counter() + budget / 4))
        best = max(range(len(legal)), key=lambda i: values[i])
        return legal[best][2]

    def solve_last_deal(self, st: State, deadline: float) -> list[float]:
        """Exact: the opponent holds every unseen card."""
        solver = Solver(st.var, st.carry, 0 if st.side_of(st.dealer) == st.my_side else 1,
                        deadline)
        values = []
        best = -INF
        for card, take, _ in st.legal:
            v = solver.root_value(st, card, take, st.hand, st.unseen, 0, 0, best)
            values.append(v if v > best else -INF)
            best = max(best, v)
        return values

    def solve_sampled(self, st: State, deadline: float, hard: float) -> list[float] | None:
        """Worlds of the deal before the last, each solved exactly; the mean per root play."""
        opp = 1 - st.seat
        dealer_rel = 0 if st.side_of(st.dealer) == st.my_side else 1
        solver = Solver(st.var, st.carry, dealer_rel, hard)
        totals = [0.0] * len(st.legal)
        worlds = 0
        while True:
            hands, deals = self.sample(st)
            if len(deals) != 1:
                return None
            ho = hands[opp]
            nm, no = deals[0][st.seat], deals[0][opp]
            try:
                vals = [solver.root_value(st, c, t, st.hand, ho, nm, no)
                        for c, t, _ in st.legal]
            except OutOfTime:
                break
            for i, v in enumerate(vals):
                totals[i] += v
            worlds += 1
            if time.perf_counter() > deadline:
                break
            if len(solver.tt) > 1_500_000:
                solver.tt.clear()
        if not worlds:
            return None
        return [t / worlds for t in totals]

    def monte_carlo(self, st: State, deadline: float) -> list[float]:
        """Greedy two-ply playouts of sampled worlds, every root play on the same worlds."""
        var = st.var
        totals = [0.0] * len(st.legal)
        worlds = 0
        nxt = (st.seat + 1) % st.seats
        me = st.my_side
        while worlds < 2 or time.perf_counter() < deadline:
            hands, deals = self.sample(st)
            left = sum(h.bit_count() for h in hands)
            is_last = not deals and left == 1
            for i, (c, t, _) in enumerate(st.legal):
                cb = 1 << c
                h = list(hands)
                h[st.seat] = st.hand & ~cb
                counts = list(st.pile_counts)
                points: list[float] = [float(p) for p in st.points]
                if t:
                    counts[me] += t.bit_count() + 1
                    points[me] += var.card_points(t | cb) + var.basra(c, t, st.floor, is_last)
                    floor = st.floor & ~t
                    last = me
                else:
                    floor = st.floor | cb
                    last = st.last_side
                totals[i] += playout(var, st, h, deals, floor, nxt, last, counts, points)
            worlds += 1
            if worlds >= 4000:
                break
        return [t / worlds for t in totals]


# --------------------------------------------------------------------------- protocol


class Server:
    def __init__(self, engine: Engine, out) -> None:
        self.engine = engine
        self.out = out
        self.greeted = False

    def options(self) -> list[dict]:
        return [
            {"name": "time_ms", "type": "int", "default": self.engine.time_ms, "min": 1,
             "help": "milliseconds of thought a play"},
            {"name": "seed", "type": "seed", "default": self.engine.seed,
             "help": "seed of the random worlds (null: fresh)"},
        ]

    def reply(self, message: dict, request: object = None) -> None:
        if isinstance(request, dict) and "id" in request and _good_id(request["id"]):
            message = {"type": message["type"], "id": request["id"], **message}
        self.out.write(json.dumps(message) + "\n")
        self.out.flush()

    def error(self, code: str, text: str, request: object = None) -> None:
        self.reply({"type": "error", "code": code, "message": text}, request)

    def handle_line(self, raw: bytes | str) -> bool:
        """Answer one line; False once the engine should stop."""
        if isinstance(raw, bytes):
            if len(raw) > 4 * MAX_LINE + 8:
                self.error("protocol/line_too_long", "the line is too long")
                return True
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.error("protocol/bad_json", "not UTF-8 text")
                return True
        else:
            line = raw
        line = line.rstrip("\n").rstrip("\r")
        if len(line) > MAX_LINE:
            self.error("protocol/line_too_long", "the line is longer than 1,048,576 characters")
            return True
        if not line.strip():
            return True
        try:
            request = json.loads(line)
        except (ValueError, RecursionError) as exc:
            self.error("protocol/bad_json", f"not JSON: {' '.join(str(exc).split())[:200]}")
            return True
        if not isinstance(request, dict):
            self.error("protocol/not_object", "each line must be one JSON object")
            return True
        try:
            return self.handle(request)
        except Exception as exc:  # a bug: say so and go on
            print(f"rival_bot: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
            self.error("engine/internal", f"{type(exc).__name__}: {exc}"[:300], request)
            return True

    def handle(self, request: dict) -> bool:
        kind = request.get("type")
        if not isinstance(kind, str):
            self.error("protocol/bad_message", "the message has no type", request)
            return True
        if "id" in request and not _good_id(request["id"]):
            self.error("protocol/bad_message", "id must be an integer or a string")
            return True
        if kind == "quit":
            return False
        if kind == "hello":
            if "protocol" not in request:
                self.error("protocol/bad_message", "hello needs a protocol", request)
            elif request["protocol"] != PROTOCOL:
                self.error("protocol/unsupported_version", f"this engine speaks {PROTOCOL}",
                           request)
            else:
                self.greeted = True
                self.reply({"type": "hello", "protocol": PROTOCOL, "name": NAME,
                            "version": VERSION, "options": self.options()}, request)
            return True
        if kind not in ("option", "ping", "play"):
            self.error("protocol/unknown_type", f"unknown message type {kind!r}", request)
        elif not self.greeted:
            self.error("protocol/no_hello", "send hello first", request)
        elif kind == "ping":
            self.reply({"type": "pong"}, request)
        elif kind == "option":
            self.option(request)
        else:
            self.play(request)
        return True

    def option(self, request: dict) -> None:
        if "name" not in request or "value" not in request:
            self.error("protocol/bad_message", "option needs a name and a value", request)
            return
        name, value = request["name"], request["value"]
        if name == "time_ms":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                self.error("option/bad_value", "time_ms must be a whole number from 1 up",
                           request)
                return
            self.engine.time_ms = value
        elif name == "seed":
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, str))):
                self.error("option/bad_value", "seed must be an integer, a string or null",
                           request)
                return
            self.engine.reseed(value)
        else:
            self.error("option/unknown", f"unknown option {name!r} (known: time_ms, seed)",
                       request)
            return
        self.engine.reseed(self.engine.seed)
        self.reply({"type": "ok", "name": name, "value": value}, request)

    def play(self, request: dict) -> None:
        view = request.get("view")
        if not isinstance(view, dict):
            self.error("protocol/bad_message", "play needs a view object", request)
            return
        legal = view.get("legal")
        if isinstance(legal, list) and not legal:
            self.error("view/not_your_turn",
                       "the view has no legal play: it is not this seat's turn", request)
            return
        try:
            st = State(view)
        except ViewError as exc:
            self.error("view/invalid", str(exc)[:300], request)
            return
        try:
            choice = self.engine.choose(st)
        except Exception as exc:  # never fail a game on our own bug: any legal play will do
            print(f"rival_bot: search failed ({type(exc).__name__}: {exc}); "
                  "playing the first legal play", file=sys.stderr)
            choice = st.legal[0][2]
        self.reply({"type": "play", "card": choice.get("card"),
                    "take": list(choice.get("take", []))}, request)


def _good_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def parse_args(argv: list[str]) -> tuple[int, object]:
    time_ms, seed = DEFAULT_TIME_MS, None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--time-ms", "--seed") and i + 1 < len(argv):
            value = argv[i + 1]
            if arg == "--time-ms":
                time_ms = max(1, int(value))
            else:
                seed = int(value) if value.lstrip("-").isdigit() else value
            i += 2
        else:
            print(f"rival_bot: unknown argument {arg!r} (use --time-ms N, --seed S)",
                  file=sys.stderr)
            raise SystemExit(2)
    return time_ms, seed


def main(argv: list[str] | None = None) -> int:
    time_ms, seed = parse_args(sys.argv[1:] if argv is None else argv)
    server = Server(Engine(time_ms, seed), sys.stdout)
    for raw in sys.stdin.buffer:
        if not server.handle_line(raw):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
