"""Proving a puzzle: every play of a last-deal position solved exactly, the solution tree,
the themes and the rating (docs/PUZZLES.md).

:func:`build` makes a :class:`~basra.puzzles.model.Puzzle` of a position when one first
play beats every other by at least ``margin`` points (:data:`MARGIN`), and :func:`prove`
rebuilds a stored puzzle from its position and says what differs. Values are the round
margin of your side (:func:`~basra.bots.endgame.margin_utility`): your round points minus
the opponent's, majority, carry and basras included, as the solver counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from basra.bots.endgame import Solver, margin_utility
from basra.game.cards import JACKS, TEN_OF_DIAMONDS
from basra.game.engine import Play, Round, basra_points, legal_plays, play_unchecked, score_round
from basra.puzzles.model import Branch, Node, Position, Puzzle

MARGIN = 3
"""Points by which the best first play must beat the second best for a position to be a
puzzle (the same in every variant: the 10D alone is worth 3)."""

BASE_RATING = 1500
MIN_RATING = 800
MAX_RATING = 2400

_INF = float("inf")


@dataclass(frozen=True, slots=True)
class _Line:
    """A line played out to the round's end with best play on both sides."""

    final: Round
    plays: tuple[tuple[int, Play], ...]
    """(seat, play) from the position on."""


class _Prover:
    """One position's solver and the helpers that walk it (one transposition table for
    the whole puzzle)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.root = position.round()
        self.you = position.turn
        self.solver = Solver(self.root, self.you, position.carry, margin_utility(self.you))

    def values(self, rnd: Round) -> list[tuple[Play, int]]:
        """Every legal play of the seat to play in ``rnd``, in play order, with its exact
        value for you."""
        after = self.solver.after
        return [(play, int(after(play.card, play.take, rnd.dealt, rnd.packed_hands, rnd.floor,
                                 rnd.packed_piles, rnd.packed_bonus, rnd.turn,
                                 rnd.last_taker, rnd.played, -_INF, _INF)))
                for play in legal_plays(rnd)]

    def reply(self, rnd: Round) -> Play:
        """The opponent's best reply: the least value for you, the first in play order on
        a tie."""
        values = self.values(rnd)
        low = min(v for _, v in values)
        return next(p for p, v in values if v == low)

    def node(self, rnd: Round) -> Node | None:
        """Your decision point at ``rnd`` and the tree below it; ``None`` when every legal
        play is worth the same (nothing left to find)."""
        values = self.values(rnd)
        best = max(v for _, v in values)
        if all(v == best for _, v in values):
            return None
        branches = []
        for play, value in values:
            if value != best:
                continue
            after = play_unchecked(rnd, play.card, play.take)
            if after.finished:
                branches.append(Branch(str(play), None, None))
                continue
            reply = self.reply(after)
            then = play_unchecked(after, reply.card, reply.take)
            branches.append(Branch(str(play), str(reply),
                                   None if then.finished else self.node(then)))
        return Node(tuple((str(p), v) for p, v in values), tuple(branches))

    def line(self, first: Play) -> _Line:
        """``first``, then best play on both sides to the round's end (ties: the first in
        play order)."""
        rnd = play_unchecked(self.root, first.card, first.take)
        plays = [(self.you, first)]
        while not rnd.finished:
            values = self.values(rnd)
            if rnd.turn == self.you:
                target = max(v for _, v in values)
            else:
                target = min(v for _, v in values)
            play = next(p for p, v in values if v == target)
            plays.append((rnd.turn, play))
            rnd = play_unchecked(rnd, play.card, play.take)
        return _Line(rnd, tuple(plays))


def build(position: Position, margin: int = MARGIN) -> Puzzle | None:
    """The puzzle of ``position``, proved, or ``None`` when it is none: fewer than two
    legal plays, or the best first play not ahead of every other by ``margin`` points."""
    prover = _Prover(position)
    first = prover.values(prover.root)
    if len(first) < 2:
        return None
    ranked = sorted(range(len(first)), key=lambda i: (-first[i][1], i))
    best_play, value = first[ranked[0]]
    second_play, second_value = first[ranked[1]]
    if value - second_value < margin or value == second_value:
        return None
    tree = prover.node(prover.root)
    assert tree is not None
    main = prover.line(best_play)
    other = prover.line(second_play)
    themes = detect_themes(position, [p for p, _ in first], best_play, main, other)
    line_plays = 0
    node: Node | None = tree
    while node is not None:
        line_plays += 1
        node = node.branches[0].after
    rating = rate(position, [p for p, _ in first], best_play, value - second_value,
                  line_plays)
    return Puzzle(position.puzzle_id(), position, value, value - second_value,
                  (str(second_play), second_value), themes, rating, tree)


def _majority(final: Round, carry: int, you: int) -> int:
    """+1 when you alone get the majority points, -1 when the opponent alone does, else 0."""
    scores, _ = score_round(final, carry)
    mine, theirs = scores[you].majority > 0, scores[1 - you].majority > 0
    return int(mine and not theirs) - int(theirs and not mine)


def _owner(final: Round, card: int) -> int:
    """The side whose pile holds ``card`` at the round's end."""
    return 0 if final.pile(0) >> card & 1 else 1


def detect_themes(position: Position, plays: list[Play], best: Play, main: _Line,
                  other: _Line) -> tuple[str, ...]:
    """The themes of a puzzle (docs/PUZZLES.md), from the main line and the line after the
    second-best first play, both played out with best play to the round's end."""
    you, them = position.turn, 1 - position.turn
    carry = position.carry
    found = []
    if main.final.basras[you] > other.final.basras[you]:
        found.append("basra")
    if main.final.basras[them] < other.final.basras[them]:
        found.append("deny-basra")
    if _majority(main.final, carry, you) > _majority(other.final, carry, you):
        found.append("majority")
    if _owner(main.final, TEN_OF_DIAMONDS) != _owner(other.final, TEN_OF_DIAMONDS):
        found.append("ten-of-diamonds")
    jack_sweep = any(seat == you and JACKS >> p.card & 1 and p.take
                     for seat, p in main.plays[1:])
    if position.hands[you] & JACKS and not JACKS >> best.card & 1 and jack_sweep:
        found.append("keep-the-jack")
    if not best.take and any(p.take for p in plays):
        found.append("quiet-play")
    if best.take and any(p.take.bit_count() > best.take.bit_count() for p in plays):
        found.append("smaller-take")
    if (main.final.leftover and main.final.last_taker == you
            and other.final.last_taker == them):
        found.append("last-take")
    return tuple(found)


def greedy(position: Position, plays: list[Play]) -> Play:
    """The play a greedy player makes: the biggest basra, then the most card points taken,
    then the most cards; a lay only when nothing can be taken (first in play order)."""
    rules = position.rules
    last = position.played + 1 == rules.plays_per_round
    points_of = rules.card_points

    def key(play: Play) -> tuple[int, int, int]:
        """What a greedy player sees in ``play``."""
        if not play.take:
            return (-1, 0, 0)
        got = play.take | 1 << play.card
        points = sum(points_of[c] for c in range(52) if got >> c & 1)
        return (basra_points(rules, play.card, play.take, position.floor, last), points,
                got.bit_count())

    top = max(key(p) for p in plays)
    return next(p for p in plays if key(p) == top)


def rate(position: Position, plays: list[Play], best: Play, margin: int,
         line_plays: int) -> int:
    """A puzzle's first rating (docs/PUZZLES.md): 1500, more for a longer line, more first
    plays and a best play that takes nothing or is not the greedy one, less for a best play
    that is the greedy one or a basra; clamped to 800..2400."""
    rules = position.rules
    last = position.played + 1 == rules.plays_per_round
    rating = BASE_RATING + 50 * (line_plays - 1) + min(150, 15 * (len(plays) - 2))
    if not best.take and any(p.take for p in plays):
        rating += 150
    rating += -100 if best == greedy(position, plays) else 100
    if basra_points(rules, best.card, best.take, position.floor, last):
        rating -= 100
    if margin < 10:
        rating += 50
    elif margin >= 30:
        rating -= 50
    return max(MIN_RATING, min(MAX_RATING, rating))


def prove(puzzle: Puzzle, margin: int = MARGIN) -> str | None:
    """What is wrong with a stored puzzle, or ``None``: its position is solved afresh and
    the id, value, margin, second-best play, themes, rating and tree must all agree."""
    fresh = build(puzzle.position, margin)
    if fresh is None:
        return f"{puzzle.id}: not a puzzle (no first play ahead by {margin} points)"
    for name in ("id", "value", "margin", "second", "themes", "rating", "tree"):
        if getattr(fresh, name) != getattr(puzzle, name):
            return (f"{puzzle.id}: {name} is {_short(getattr(puzzle, name))}, the solver "
                    f"gives {_short(getattr(fresh, name))}")
    return None


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["MARGIN", "build", "detect_themes", "greedy", "prove", "rate"]
