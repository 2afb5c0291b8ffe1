"""Hand-made last-deal positions for the puzzle tests, written like the rule book: hands,
floor and piles as card names."""

from __future__ import annotations

from basra.game.cards import FULL_DECK, cards_of
from basra.game.rules import find_variant
from basra.puzzles.model import Position
from conftest import M


def position(variant: str, you: str, them: str, floor: str, *, your_pile: str = "",
             your_cards: int = 0, turn: int = 0, leads: bool = True,
             basras: tuple[int, int] = (0, 0), bonus: tuple[int, int] = (0, 0),
             you_took_last: bool = False, carry: int = 0) -> Position:
    """A position with seat ``turn`` to play holding ``you`` against ``them``. ``your_pile``
    and ``your_cards`` more cards (the lowest cards worth no points that are nowhere else)
    go to your pile, every other card to the opponent's. ``leads``: the seat to play
    leads the deal (the hands are the same size; else it holds one card more);
    ``you_took_last``: you made the last capture so far (else the opponent did)."""
    rules = find_variant(variant)
    hand, other, table = M(you), M(them), M(floor)
    mine = M(your_pile)
    rest = FULL_DECK & ~(hand | other | table | mine)
    plain = [c for c in cards_of(rest) if not rules.card_points[c]]
    for card in plain[:your_cards]:
        mine |= 1 << card
    theirs = FULL_DECK & ~(hand | other | table | mine)
    hands = (hand, other) if turn == 0 else (other, hand)
    piles = (mine, theirs) if turn == 0 else (theirs, mine)
    dealer = 1 - turn if leads else turn
    played = 48 - hand.bit_count() - other.bit_count()
    last_taker = turn if you_took_last else 1 - turn
    return Position(variant, dealer, turn, hands, table, piles, basras, bonus, last_taker,
                    played, carry)
