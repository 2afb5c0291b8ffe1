"""A last-deal position of two players: its parts, its stable id, the engine round it
makes, and the JSON a browser draws it from after any plays (:func:`position_view`).

In the last deal of a two-player round the stock is empty, so a player who counts the
cards knows the opponent's hand: the position is fully known.

>>> rest = FULL_DECK & ~M("5C 9H 5D 2H 3S 4S")
>>> clubs_diamonds = rest & ((1 << 26) - 1)
>>> p = Position("egyptian", dealer=1, turn=0, hands=(M("5C 9H"), M("5D 2H")),
...              floor=M("3S 4S"), piles=(clubs_diamonds, rest & ~clubs_diamonds),
...              basras=(0, 0), bonus=(0, 0), last_taker=1, played=44, carry=0)
>>> p.puzzle_id(), p.round().turn
('eg-jstuwfoh', 0)
>>> position_view(p, ["5C"])["floor"]
['5C', '3S', '4S']
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from basra.errors import BasraError
from basra.game.cards import FULL_DECK, NAMES, CardSet, format_cards, parse_card
from basra.game.engine import Play, Round, compose_round, legal_plays, play_unchecked, score_round
from basra.game.rules import Rules, find_variant

PREFIX: dict[str, str] = {"egyptian": "eg", "arabic101": "ar", "lebanese": "lb",
                          "serbian": "sr"}
"""Each variant's id prefix: ids never collide across variants."""

class PuzzleError(BasraError, ValueError):
    """A bad puzzle input: a play that is no play, an illegal play, a play after the line
    is solved, or a puzzle file that does not read. One line; ``code`` says which."""

    code = "puzzle/bad_play"


_BIT: dict[str, int] = {name: 1 << card for card, name in enumerate(NAMES)}
"""Each canonical card name's bit: reading the shipped files, 8,000 puzzles at once."""


def M(text: str) -> CardSet:
    """A card set from space-separated card names (``""``: none); canonical names are
    looked up at once, any other notation parsed."""
    mask = 0
    for name in text.split():
        bit = _BIT.get(name)
        mask |= (1 << parse_card(name)) if bit is None else bit
    return mask


def names(cards: CardSet) -> str:
    """A card set as space-separated canonical names."""
    return format_cards(cards)


@dataclass(frozen=True, slots=True)
class Position:
    """A last-deal position of two players: everything needed to rebuild the engine's
    :class:`~basra.game.engine.Round` (seats 0 and 1 are also the two sides)."""

    variant: str
    dealer: int
    turn: int
    """The seat to play: the puzzle's solver (``you``)."""
    hands: tuple[CardSet, CardSet]
    floor: CardSet
    piles: tuple[CardSet, CardSet]
    """The cards each side has taken so far."""
    basras: tuple[int, int]
    bonus: tuple[int, int]
    """Basra points each side has scored so far."""
    last_taker: int
    """The side that made the last capture so far, -1 for none."""
    played: int
    """Plays made in the round so far."""
    carry: int
    """The majority carry coming into the round."""

    def __post_init__(self) -> None:
        rules = find_variant(self.variant)
        if rules.name != self.variant:
            raise PuzzleError(f"position: variant {self.variant!r} is not a canonical name",
                              "puzzle/bad_position")
        if (2, False) not in rules.seatings:
            raise PuzzleError(f"position: {self.variant} is not played by two",
                              "puzzle/bad_position")
        for name, value in (("dealer", self.dealer), ("turn", self.turn)):
            if value not in (0, 1):
                raise PuzzleError(f"position: {name} must be seat 0 or 1, got {value}",
                                  "puzzle/bad_position")
        if self.last_taker not in (-1, 0, 1):
            raise PuzzleError(f"position: last taker must be -1, 0 or 1, got "
                              f"{self.last_taker}", "puzzle/bad_position")
        parts = [*self.hands, self.floor, *self.piles]
        union = 0
        total = 0
        for part in parts:
            if part < 0 or part & ~FULL_DECK:
                raise PuzzleError("position: a card set holds something that is not a card",
                                  "puzzle/bad_position")
            union |= part
            total += part.bit_count()
        in_hand = self.hands[0].bit_count() + self.hands[1].bit_count()
        in_piles = self.piles[0].bit_count() + self.piles[1].bit_count()
        if union != FULL_DECK or total != 52 or self.played + in_hand != 48:
            raise PuzzleError(
                f"position: the cards do not add up ({self.played} plays made, {in_hand} in "
                f"hand, {self.floor.bit_count()} on the floor, {in_piles} in piles: the 52 "
                "cards must be each in one place, plays and hands making 48)",
                "puzzle/bad_position")
        mine = self.hands[self.turn].bit_count()
        other = self.hands[1 - self.turn].bit_count()
        ahead = 1 if self.turn == self.dealer else 0  # the seat after the dealer leads
        if not mine or mine - other != ahead:
            raise PuzzleError(f"position: seat {self.turn} to play holds {mine} cards "
                              f"and the other {other}", "puzzle/bad_position")

    @property
    def rules(self) -> Rules:
        """The variant's rules."""
        return find_variant(self.variant)

    @property
    def you(self) -> int:
        """The seat solving the puzzle: the seat to play at the start."""
        return self.turn

    def round(self) -> Round:
        """The engine's round at this position (the stock is empty)."""
        return compose_round(self.rules, 2, False, self.dealer, hands=list(self.hands),
                             floor=self.floor, stock=[], piles=list(self.piles),
                             basras=list(self.basras), bonus=list(self.bonus),
                             turn=self.turn, last_taker=self.last_taker, played=self.played)

    @classmethod
    def of(cls, rnd: Round, carry: int) -> Position:
        """The position of a two-player round in its last deal, the carry coming in."""
        if rnd.seats != 2 or rnd.teams or rnd.stock_left:
            raise PuzzleError("position: not the last deal of a two-player round",
                              "puzzle/bad_position")
        h0, h1 = rnd.hands
        p0, p1 = rnd.piles
        b0, b1 = rnd.basras
        s0, s1 = rnd.bonus
        return cls(rnd.rules.name, rnd.dealer, rnd.turn, (h0, h1), rnd.floor, (p0, p1),
                   (b0, b1), (s0, s1), rnd.last_taker, rnd.played, carry)

    def key(self) -> str:
        """The position told from the solver's seat (``you`` first): a position and its
        mirror, seats swapped, have one key."""
        me, other = self.turn, 1 - self.turn

        def rel(seat: int) -> str:
            """A seat told from the solver's side."""
            return "none" if seat < 0 else ("you" if seat == me else "them")

        return "|".join((
            self.variant, names(self.hands[me]), names(self.hands[other]), names(self.floor),
            names(self.piles[me]), names(self.piles[other]),
            f"{self.basras[me]} {self.basras[other]}", f"{self.bonus[me]} {self.bonus[other]}",
            rel(self.last_taker), rel(self.dealer), str(self.carry)))

    def puzzle_id(self) -> str:
        """The stable id: the variant's prefix and 8 base32 characters of the SHA-256 of
        :meth:`key`."""
        digest = hashlib.sha256(self.key().encode()).digest()
        return PREFIX[self.variant] + "-" + base64.b32encode(digest)[:8].decode().lower()

    def to_json(self) -> dict[str, object]:
        """The position's fields in a puzzle file (card sets as card names)."""
        return {"dealer": self.dealer, "turn": self.turn,
                "hands": [names(h) for h in self.hands], "floor": names(self.floor),
                "piles": [names(p) for p in self.piles], "basras": list(self.basras),
                "bonus": list(self.bonus), "last_taker": self.last_taker,
                "played": self.played, "carry": self.carry}

    @classmethod
    def from_json(cls, variant: str, data: Mapping[str, Any]) -> Position:
        """Read :meth:`to_json`'s fields back."""
        h = data["hands"]
        p = data["piles"]
        return cls(variant, int(data["dealer"]), int(data["turn"]), (M(h[0]), M(h[1])),
                   M(data["floor"]), (M(p[0]), M(p[1])),
                   (int(data["basras"][0]), int(data["basras"][1])),
                   (int(data["bonus"][0]), int(data["bonus"][1])), int(data["last_taker"]),
                   int(data["played"]), int(data["carry"]))



# --------------------------------------------------------------------------- plays and JSON


def canonical(text: str) -> str:
    """A play's canonical text (``str(Play.parse(text))``), or :class:`PuzzleError`."""
    if not isinstance(text, str) or not text.strip() or len(text) > 64:
        raise PuzzleError(f"{str(text)[:64]!r} is not a play", "puzzle/bad_notation")
    try:
        return str(Play.parse(text))
    except BasraError as exc:
        raise PuzzleError(f"{text!r} is not a play: {exc}", "puzzle/bad_notation") from None


def replay_line(position: Position, line: Sequence[str]) -> Round:
    """The round after ``line`` (both seats' plays since the position, as play texts),
    every play checked to be legal (:class:`PuzzleError` if not)."""
    rnd = position.round()
    for i, text in enumerate(line):
        play = Play.parse(canonical(text))
        if rnd.finished or play not in legal_plays(rnd):
            raise PuzzleError(f"line play {i + 1}: {text} is not a legal play here",
                              "puzzle/illegal_play")
        rnd = play_unchecked(rnd, play.card, play.take)
    return rnd


def _cards(mask: int) -> list[str]:
    return format_cards(mask).split()


def position_view(position: Position, line: Sequence[str] = ()) -> dict[str, object]:
    """What a browser draws after ``line`` (both seats' plays since the position):

    ``{"variant", "you", "turn", "hand", "opponent_hand", "floor", "sides", "carry",
    "played", "legal", "finished", "result"}``. ``hand`` and ``opponent_hand`` are your
    seat's and the other's (known by counting, shown face up); ``sides`` one entry a seat,
    ``{"seat", "cards", "points", "basras"}``: cards taken so far and points so far (card
    points and basra points; the majority only at the end); ``turn`` the seat to play
    (``null`` at the end); ``legal`` your seat's legal plays when it is your turn, each
    ``{"play": "7D:3C+4H", "card": "7D", "take": ["3C", "4H"]}``; ``result`` at the end,
    ``{"points": [seat 0's, seat 1's], "margin": yours minus theirs}`` with the majority
    and carry counted, else ``null``."""
    rnd = replay_line(position, line)
    you = position.turn
    points_of = rnd.rules.card_points
    sides = []
    for seat in (0, 1):
        pile = rnd.pile(seat)
        points = sum(points_of[c] for c in range(52) if pile >> c & 1) + rnd.bonus[seat]
        sides.append({"seat": seat, "cards": pile.bit_count(), "points": points,
                      "basras": rnd.basras[seat]})
    finished = rnd.finished
    result: dict[str, object] | None = None
    if finished:
        scores, _ = score_round(rnd, position.carry)
        totals = [s.points for s in scores]
        result = {"points": totals, "margin": totals[you] - totals[1 - you]}
    legal = []
    if rnd.turn == you and not finished:
        legal = [{"play": str(p), "card": NAMES[p.card], "take": _cards(p.take)}
                 for p in legal_plays(rnd)]
    return {"variant": position.variant, "you": you,
            "turn": None if finished else rnd.turn, "hand": _cards(rnd.hand(you)),
            "opponent_hand": _cards(rnd.hand(1 - you)), "floor": _cards(rnd.floor),
            "sides": sides, "carry": position.carry, "played": rnd.played, "legal": legal,
            "finished": finished, "result": result}


__all__ = ["PREFIX", "Position", "PuzzleError", "canonical", "names", "position_view",
           "replay_line"]
