"""The person's answers at ``basra play``'s play prompt, read and checked: a card by its
number in the hand (as the screen lists it, by rank) or by name (``5H``, ``10d``, ``T♦``),
or a play with its take written out (``5H:4C+AD``, ``2:4C+AD``). An answer that is none of
these, or not a legal play, is a :class:`BadAnswer` whose message is the one-line hint to
show.

>>> parse_card_choice("2", [0, 13, 26], symbols=False)
13
"""

from __future__ import annotations

from collections.abc import Sequence

from basra.errors import CardNotationError
from basra.game.cards import NAMES, Card, parse_card
from basra.game.engine import Play, describe_bad_take
from basra.game.views import SeatView
from basra.terminal.screen import by_rank, card_label


class BadAnswer(Exception):
    """Bad input: the message is the one-line hint to show."""


def parse_card_choice(answer: str, hand: Sequence[Card], symbols: bool = True) -> Card:
    """The hand card that ``answer`` names by number or by name; :class:`BadAnswer` if
    none (``symbols``: name cards in the hint with suit symbols)."""
    n = len(hand)
    if not answer:
        raise BadAnswer(f"Type a number from 1 to {n} or a card such as "
                         f"{NAMES[hand[0]]} (help for the commands).")
    if answer.isdigit():
        index = int(answer)
        if not 1 <= index <= n:
            raise BadAnswer(f"{answer} is out of range: your hand has {n} card"
                             f"{'s' if n > 1 else ''}, 1 to {n}.")
        return hand[index - 1]
    try:
        card = parse_card(answer)
    except CardNotationError:
        raise BadAnswer(f"{answer!r} is not a card or a command: type 1-{n}, a card such as "
                         f"{NAMES[hand[0]]}, or help.") from None
    if card not in hand:
        raise BadAnswer(f"{card_label(card, symbols)} is not in your hand.")
    return card


def parse_full_play(answer: str, v: SeatView, symbols: bool = True) -> Play:
    """A play written as ``5H:4C+AD`` (or ``2:4C+AD`` with the card's number);
    :class:`BadAnswer` if it is not a legal one."""
    card_text, _, take_text = answer.partition(":")
    card = parse_card_choice(card_text.strip(), by_rank(v.hand), symbols)
    try:
        move = Play.parse(f"{NAMES[card]}:{take_text}")
    except CardNotationError as exc:
        raise BadAnswer(f"{exc}.") from None
    if move in v.legal:
        return move
    floor = 0
    for c in v.floor:
        floor |= 1 << c
    options = tuple(p.take for p in v.legal if p.card == move.card)
    raise BadAnswer(describe_bad_take(move.card, move.take, floor, options) + ".")


__all__ = ["BadAnswer", "parse_card_choice", "parse_full_play"]
