"""The exact endgame: alpha-beta with a transposition table over a round whose every card is
known (a card counter's last deal, or one guessed world of a search).

The search plays the real round: every legal play (:func:`basra.game.engine.collect_plays`), the
real transition (:func:`basra.game.engine.advance`: dealing from the stock, the leftover floor to
the last capturer) and the real scoring at the end (card points, basra points, the majority
with the carry, as :func:`basra.game.engine.score_round` counts them). What a finished round is
worth is the caller's *utility* of its per-side points and the carry going out: the round
margin (:func:`margin_utility`) or the match-aware value of :mod:`basra.bots.match_value`.

The seats of ``side`` maximise the utility and every other seat minimises it: exact for two
sides (two players, or four in teams), and the cautious ("paranoid") reading with three or
four solo players. Compiled with the engine (setup.py).
"""

from __future__ import annotations

from collections.abc import Callable

from basra.game.engine import Play, Round, advance, collect_plays

Utility = Callable[[list[int], int], float]
"""What a finished round is worth to the searching side, given every side's round points
and the carry going out."""

_FULL = (1 << 52) - 1
_COUNT_MASK = (1 << 16) - 1
_EXACT = 0
_LOWER = 1
_UPPER = 2
_INF = 1e18


def margin_utility(side: int) -> Utility:
    """The round margin of ``side``: its points minus the best other side's."""
    def value(points: list[int], carry_out: int) -> float:
        best = -1
        for s, p in enumerate(points):
            if s != side and p > best:
                best = p
        return float(points[side] - best)
    return value


class OutOfNodes(Exception):
    """A :class:`Solver` given ``max_nodes`` searched that many positions and gave up."""


class Solver:
    """An exact search of one fully known round for ``side``, the carry coming in ``carry``.

    ``nodes`` counts the positions searched; with ``max_nodes`` the search raises
    :class:`OutOfNodes` past that many. The transposition table lives as long as the
    solver, so solving every play of one position shares the work."""

    def __init__(self, rnd: Round, side: int, carry: int, utility: Utility,
                 max_nodes: int = 0) -> None:
        self.max_nodes = max_nodes
        self.root = rnd
        self.side = side
        self.carry = carry
        self.utility = utility
        setup = rnd.setup
        self.setup = setup
        rules = setup.rules
        self.end = rules.plays_per_round
        self.sides = setup.sides
        self.points_of = rules.card_points
        scoring = 0
        for card in range(52):
            if rules.card_points[card]:
                scoring |= 1 << card
        self.scoring = scoring
        self.most_cards = rules.majority == "most-cards"
        self.majority_points = rules.majority_points
        self.table: dict[tuple[int, int, int, int, int, int], tuple[int, float, int]] = {}
        self.nodes = 0

    def points(self, piles: int, bonus: int) -> tuple[list[int], int]:
        """Every side's round points and the carry out of a finished round."""
        sides = self.sides
        counts = [0] * sides
        out = [0] * sides
        points_of = self.points_of
        for s in range(sides):
            pile = piles >> (52 * s) & _FULL
            counts[s] = pile.bit_count()
            total = bonus >> (16 * s) & _COUNT_MASK
            m = pile & self.scoring
            while m:
                low = m & -m
                total += points_of[low.bit_length() - 1]
                m ^= low
            out[s] = total
        carry_out = 0
        if self.most_cards:
            top = max(counts)
            for s in range(sides):
                if counts[s] == top:
                    out[s] += self.majority_points
        else:
            winner = -1
            for s in range(sides):
                if counts[s] >= 27:
                    winner = s
                    break
            if winner >= 0:
                out[winner] += self.majority_points + self.carry
            else:
                carry_out = self.carry + self.majority_points
        return out, carry_out

    def play_values(self) -> list[tuple[Play, float]]:
        """Every legal play of the root position with its exact value."""
        rnd = self.root
        setup = self.setup
        options: list[Play] = []
        collect_plays(options, setup.rules, rnd.packed_hands >> setup.seat_shift[rnd.turn]
                      & _FULL, rnd.floor)
        out = []
        for play in options:
            card, take = play
            value = self.after(card, take, rnd.dealt, rnd.packed_hands, rnd.floor,
                               rnd.packed_piles, rnd.packed_bonus, rnd.turn, rnd.last_taker,
                               rnd.played, -_INF, _INF)
            out.append((play, value))
        return out

    def value(self) -> float:
        """The root position's exact value."""
        rnd = self.root
        return self.search(rnd.dealt, rnd.packed_hands, rnd.floor, rnd.packed_piles,
                           rnd.packed_bonus, rnd.turn, rnd.last_taker, rnd.played, -_INF, _INF)

    def after(  # noqa: PLR0913 - the hot path: a position as loose integers, as advance()
            self, card: int, take: int, dealt: int, hands: int, floor: int, piles: int,
              bonus: int, seat: int, last_taker: int, played: int, alpha: float,
              beta: float) -> float:
        """The value of the position after ``seat`` plays ``card`` taking ``take``."""
        (dealt, hands, floor, piles, _, bonus, seat, last_taker, played, _,
         _) = advance(self.setup, card, take, dealt, hands, floor, piles, 0, bonus, seat,
                      last_taker, played)
        return self.search(dealt, hands, floor, piles, bonus, seat, last_taker, played, alpha,
                           beta)

    def search(  # noqa: PLR0912, PLR0913, PLR0915 - alpha-beta with its table, one piece
            self, dealt: int, hands: int, floor: int, piles: int, bonus: int, seat: int,
            last_taker: int, played: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise OutOfNodes(f"more than {self.max_nodes} positions")
        if played == self.end:
            points, carry_out = self.points(piles, bonus)
            return self.utility(points, carry_out)
        key = (hands, floor, piles, bonus, seat, last_taker)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            flag, stored, first = entry
            if flag == _EXACT:
                return stored
            if flag == _LOWER:
                if stored >= beta:
                    return stored
                alpha = max(alpha, stored)
            elif stored <= alpha:
                return stored
            else:
                beta = min(beta, stored)
        setup = self.setup
        options: list[Play] = []
        collect_plays(options, setup.rules, hands >> setup.seat_shift[seat] & _FULL, floor)
        n = len(options)
        order = _ordered(options, first, self.points_of)
        maximising = setup.side_shift[seat] // 52 == self.side
        alpha0 = alpha
        beta0 = beta
        best_index = order[0]
        if maximising:
            best = -_INF
            for i in order:
                card, take = options[i]
                v = self.after(card, take, dealt, hands, floor, piles, bonus, seat,
                               last_taker, played, alpha, beta)
                if v > best:
                    best = v
                    best_index = i
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = _INF
            for i in order:
                card, take = options[i]
                v = self.after(card, take, dealt, hands, floor, piles, bonus, seat,
                               last_taker, played, alpha, beta)
                if v < best:
                    best = v
                    best_index = i
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= alpha0:
            flag = _UPPER
        elif best >= beta0:
            flag = _LOWER
        else:
            flag = _EXACT
        if n > 0:
            self.table[key] = (flag, best, best_index)
        return best


def _ordered(options: list[Play], first: int, points_of: tuple[int, ...]) -> list[int]:
    """Indices of ``options``, the remembered best first, then the biggest takes."""
    keyed: list[tuple[int, int]] = []
    for i, (card, take) in enumerate(options):
        if i == first:
            score = 1 << 20
        elif take:
            got = take | 1 << card
            score = got.bit_count() * 8
            while got:
                low = got & -got
                score += points_of[low.bit_length() - 1] * 16
                got ^= low
        else:
            score = -points_of[card]
        keyed.append((-score, i))
    keyed.sort()
    return [i for _, i in keyed]


def solve_plays(rnd: Round, side: int, carry: int, utility: Utility) -> list[tuple[Play, float]]:
    """Each legal play of ``rnd``'s seat to play with its exact value for ``side``."""
    return Solver(rnd, side, carry, utility).play_values()
