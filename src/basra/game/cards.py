"""Cards, card notation and card sets.

A card is an ``int`` from 0 to 51 in the canonical deck order of RULES.md section 1: suits
C, D, H, S and inside a suit A, 2, ..., 10, J, Q, K; so 0 is ``AC``, 12 is ``KC`` and 51 is
``KS``. A set of cards (a hand, the floor, a pile, a take) is an ``int`` bit mask with bit
``c`` set for card ``c``: set operations are single integer operations.

>>> parse_card("10d"), card_name(parse_card("T♦"))
(22, '10D')
>>> format_cards(mask_of([parse_card("AD"), parse_card("4C")]))
'4C AD'
>>> VALUES[parse_card("QS")], VALUES[parse_card("AH")]
(0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable

from basra.errors import CardNotationError

Card = int
"""A card: 0..51 in canonical order."""

CardSet = int
"""A set of cards: bit ``c`` is set when card ``c`` is in the set."""

SUITS = ("C", "D", "H", "S")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JACK, QUEEN, KING = 10, 11, 12
"""Rank indices of the face cards (ranks are 0 for A up to 12 for K)."""

SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}

NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""Canonical name of every card, indexed by card."""

RANK: tuple[int, ...] = tuple(c % 13 for c in range(52))
"""Rank index (0 = A .. 12 = K) of every card."""

SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))

VALUES: tuple[int, ...] = tuple((c % 13) + 1 if c % 13 < JACK else 0 for c in range(52))
"""Value of every card: A = 1, 2..10 face value, J/Q/K 0 (they never take part in a sum)."""

FULL_DECK: CardSet = (1 << 52) - 1
RANK_MASK: tuple[CardSet, ...] = tuple(
    sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)
)
"""The four cards of each rank."""

FACES: CardSet = RANK_MASK[JACK] | RANK_MASK[QUEEN] | RANK_MASK[KING]
JACKS: CardSet = RANK_MASK[JACK]
ACES: CardSet = RANK_MASK[0]

BELOW_VALUE: tuple[CardSet, ...] = tuple(
    sum(RANK_MASK[r] for r in range(10) if r + 1 < v) for v in range(11)
)
"""``BELOW_VALUE[v]``: every numeral whose value is less than ``v``."""

_BY_NAME: dict[str, Card] = {name: c for c, name in enumerate(NAMES)}


def parse_card(text: object) -> Card:
    """Parse card notation: rank then suit; ``T`` for 10, any case, suit symbols allowed.

    >>> card_name(parse_card("jS")), card_name(parse_card("7♦"))
    ('JS', '7D')
    >>> try:
    ...     parse_card("1C")
    ... except CardNotationError as err:
    ...     print(err.code, str(err)[:13])
    card/bad_notation bad card '1C'
    """
    if not isinstance(text, str):
        raise CardNotationError(f"bad card {text!r}: expected text such as '10D'")
    raw = text.strip()
    norm = raw.upper()
    if norm and norm[-1] in SUIT_SYMBOLS:
        norm = norm[:-1] + SUIT_SYMBOLS[norm[-1]]
    elif raw and raw[-1] in SUIT_SYMBOLS:
        norm = norm[:-1] + SUIT_SYMBOLS[raw[-1]]
    if norm.startswith("T"):
        norm = "10" + norm[1:]
    card = _BY_NAME.get(norm)
    if card is None:
        raise CardNotationError(
            f"bad card {text!r}: expected a rank (A 2-10 J Q K, or T) then a suit (C D H S)"
        )
    return card


def card_name(card: Card) -> str:
    """Canonical notation of a card (``10D``, ``7D``, ``JS``)."""
    return NAMES[card]


def parse_card_set(texts: Iterable[object], what: str = "take") -> CardSet:
    """Parse a set of cards, each at most once: the one card-set parser (takes in plays,
    records, views and the protocols). The error names the first bad or repeated card;
    ``what`` names the list in it.

    >>> format_cards(parse_card_set(["5h", "10D"]))
    '10D 5H'
    >>> try:
    ...     parse_card_set(["5H", "5h"])
    ... except CardNotationError as err:
    ...     print(err.code, err)
    card/duplicate take lists 5H twice
    """
    mask = 0
    for text in texts:
        card = parse_card(text)
        if mask >> card & 1:
            raise CardNotationError(f"{what} lists {NAMES[card]} twice", "card/duplicate")
        mask |= 1 << card
    return mask


def mask_of(cards: Iterable[Card]) -> CardSet:
    """The card set holding ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: CardSet) -> list[Card]:
    """The cards of a set, in canonical order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: CardSet) -> list[str]:
    """Canonical names of a set's cards, in canonical order."""
    return [NAMES[c] for c in cards_of(mask)]


def format_cards(mask: CardSet) -> str:
    """A set's cards as space-separated canonical names (``''`` for none)."""
    return " ".join(names_of(mask))


TEN_OF_DIAMONDS = _BY_NAME["10D"]
SEVEN_OF_DIAMONDS = _BY_NAME["7D"]
TWO_OF_CLUBS = _BY_NAME["2C"]
TWO_OF_SPADES = _BY_NAME["2S"]
