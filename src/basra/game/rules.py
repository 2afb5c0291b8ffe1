"""The four rule sets as data (RULES.md section 6).

One frozen :class:`Rules` object per variant, found by name or alias with
:func:`find_variant`, like python-chess's ``find_variant``. The engine asks the rules
("is this a power card?", "how are sum sets taken?", "is this sweep a basra?") and never
branches on a variant's name.

>>> find_variant("egyptian").target, find_variant("serbian").sets_to_win
(121, 3)
>>> find_variant("Lebanon").name
'lebanese'

A shorter match (RULES.md 6.5) is the same variant with a nearer target: a single race to
its ``short_target``, Serbian's one set to 101 included.

>>> short = find_variant("egyptian", "short")
>>> short.target, short.length, find_variant("serbian", "short").sets_to_win
(61, 'short', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from basra.errors import BasraError, SeatingError, UnknownVariantError
from basra.game.cards import (
    ACES,
    JACKS,
    NAMES,
    RANK,
    RANK_MASK,
    SEVEN_OF_DIAMONDS,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    TWO_OF_SPADES,
    VALUES,
    Card,
    CardSet,
)

SumSets = Literal["one-set", "max-cards"]
"""``one-set``: matches plus exactly one sum set, the player's choice. ``max-cards``: matches
plus disjoint sum sets taking the most cards (RULES.md 3)."""

Majority = Literal["27-of-52", "most-cards"]
"""``27-of-52``: 27+ cards pays, a 26-26 tie adds to the carry. ``most-cards``: the largest
pile pays, ties pay each tied side (RULES.md 5)."""

MatchLength = Literal["full", "short"]
"""``full``: the variant's own target. ``short``: a shorter match (RULES.md 6.5), a single race
to the variant's ``short_target``; the carry and the ending are unchanged."""

MATCH_LENGTHS: tuple[MatchLength, ...] = ("full", "short")
"""Every match length; ``full`` is the default everywhere."""

PowerBasraKind = Literal["never", "unless-single-same-rank", "only-single-same-rank", "small-floor"]


@dataclass(frozen=True, slots=True)
class PowerBasra:
    """When a power card's sweep is a basra (RULES.md 6.1), and what it is worth.

    - ``never``: a sweep by this card is never a basra.
    - ``unless-single-same-rank``: a basra unless the take is a single card of the played
      card's rank (arabic101: a J taking a lone J, a 7D taking a lone 7).
    - ``only-single-same-rank``: a basra only when the take is a single card of the played
      card's rank (serbian: a J on a lone J, worth 20).
    - ``small-floor``: a basra only if the take holds no face card and its values add up to
      ``limit`` or less (egyptian 7D: 10; serbian 7D: 9).
    """

    kind: PowerBasraKind
    points: int = 10
    limit: int = 0


@dataclass(frozen=True, slots=True)
class ScoringCard:
    """A line of the card-points table: these cards are worth ``points`` each."""

    label: str
    cards: CardSet
    points: int


_EACH_J = ScoringCard("each J", JACKS, 1)
_EACH_A = ScoringCard("each A", ACES, 1)
_TWO_C = ScoringCard("2C", 1 << TWO_OF_CLUBS, 2)
_TEN_D = ScoringCard("10D", 1 << TEN_OF_DIAMONDS, 3)
_CLASSIC_POINTS = (_EACH_J, _EACH_A, _TWO_C, _TEN_D)
"""The classic card points: each J and each A 1, the 2C 2, the 10D 3 (13 in all)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One variant's parameters. Every field of RULES.md's variant table is here. A field
    with a default holds the classic game's value (Egyptian Basra's), so that each variant
    names only where it differs."""

    name: str
    description: str
    seatings: frozenset[tuple[int, bool]]
    """Allowed (players, teams) pairs; teams means seats 0+2 against 1+3."""
    opening_forbidden: CardSet
    """Cards buried back into the stock when drawn for the opening floor."""
    power_basra: tuple[tuple[Card, PowerBasra], ...]
    """Each power card (a sweeper) with its basra condition."""
    target: int
    """Points that win the match (or a set, where ``sets_to_win`` > 1)."""
    short_target: int
    """Points that win a shorter match (RULES.md 6.5), always a single race."""
    sum_sets: SumSets = "one-set"
    majority: Majority = "27-of-52"
    majority_points: int = 30
    scoring_cards: tuple[ScoringCard, ...] = _CLASSIC_POINTS
    basra_points: int = 10
    """Value of a basra made by a numeral, Q or K."""
    basra_floor_limit: int | None = None
    """A numeral/Q/K clear is a basra only when the floor held at most this many cards
    (lebanese: 2); ``None`` for no limit."""
    last_play_basra: bool = True
    """Whether the round's last play can be a basra (arabic101: no)."""
    sets_to_win: int = 1
    """Sets needed to win the match; 1 for a single race to ``target``."""
    deciding_set_target: int | None = None
    """Target of the set played when every side is one set from winning (serbian: 162)."""
    aliases: tuple[str, ...] = ()
    length: MatchLength = "full"
    """The match length these rules play: ``short`` for :meth:`shortened`'s rules."""
    deal_size: int = 4
    floor_size: int = 4
    power_cards: CardSet = field(init=False)
    card_points: tuple[int, ...] = field(init=False)
    """Points of every card, indexed by card."""
    capture_table: tuple[tuple[int, int, int], ...] = field(init=False, repr=False)
    """Per card, for the capture hot path: (kind, same-rank mask, value) with kind 0 for a
    power card, 1 for a face card that only takes its rank, 2 for a numeral."""

    def __post_init__(self) -> None:
        mask = 0
        for card, _ in self.power_basra:
            mask |= 1 << card
        points = [0] * 52
        for line in self.scoring_cards:
            for c in range(52):
                if line.cards >> c & 1:
                    points[c] += line.points
        object.__setattr__(self, "power_cards", mask)
        object.__setattr__(self, "card_points", tuple(points))
        table = []
        for c in range(52):
            kind = 0 if mask >> c & 1 else (2 if VALUES[c] else 1)
            table.append((kind, RANK_MASK[RANK[c]], VALUES[c]))
        object.__setattr__(self, "capture_table", tuple(table))

    @property
    def plays_per_round(self) -> int:
        """Every card but the opening floor is played once in a round."""
        return 52 - self.floor_size

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({n for n, _ in self.seatings}))

    def shortened(self) -> Rules:
        """These rules for a shorter match (RULES.md 6.5): a single race to ``short_target``
        (Serbian: one set to 101, so no deciding set); everything else is unchanged."""
        if self.length == "short":
            return self
        return replace(self, target=self.short_target, sets_to_win=1,
                       deciding_set_target=None, length="short")

    def power_basra_of(self, card: Card) -> PowerBasra | None:
        """The basra condition of a power card, or ``None`` if ``card`` is not one."""
        for c, rule in self.power_basra:
            if c == card:
                return rule
        return None

    def is_power(self, card: Card) -> bool:
        return bool(self.power_cards >> card & 1)

    def check_seating(self, players: int, teams: bool) -> None:
        """Raise :class:`SeatingError` unless the variant allows this seating."""
        if (players, teams) not in self.seatings:
            allowed = ", ".join(
                f"{n} in teams" if t else f"{n}" for n, t in sorted(self.seatings)
            )
            kind = f"{players} players in teams" if teams else f"{players} players"
            raise SeatingError(f"{self.name} is not played by {kind} (allowed: {allowed})")

    def set_target(self, sets: tuple[int, ...]) -> int:
        """Target of the set being played when the sides have won ``sets`` so far."""
        if (
            self.deciding_set_target is not None
            and self.sets_to_win > 1
            and all(s == self.sets_to_win - 1 for s in sets)
        ):
            return self.deciding_set_target
        return self.target


def _jacks(rule: PowerBasra) -> tuple[tuple[Card, PowerBasra], ...]:
    return tuple((c, rule) for c in range(52) if JACKS >> c & 1)


_SEVEN_D = 1 << SEVEN_OF_DIAMONDS

EGYPTIAN = Rules(
    name="egyptian",
    description="Classic Egyptian Basra: 7D and Jacks sweep, 27 cards win 30, first to 121.",
    seatings=frozenset({(2, False), (4, True)}),
    opening_forbidden=JACKS | _SEVEN_D,
    power_basra=(
        *_jacks(PowerBasra("never")),
        (SEVEN_OF_DIAMONDS, PowerBasra("small-floor", 10, 10)),
    ),
    target=121,
    short_target=61,
    aliases=("egypt", "classic", "default"),
)

ARABIC101 = Rules(
    name="arabic101",
    description="The 101-point game: a Jack's sweep is a basra too, no basra on the last play.",
    seatings=frozenset({(2, False)}),
    opening_forbidden=JACKS,
    power_basra=(
        *_jacks(PowerBasra("unless-single-same-rank", 10)),
        (SEVEN_OF_DIAMONDS, PowerBasra("unless-single-same-rank", 10)),
    ),
    target=101,
    short_target=51,
    last_play_basra=False,
    aliases=("101", "arabic", "arabic-101"),
)

LEBANESE = Rules(
    name="lebanese",
    description="Lebanese Basra: only Jacks sweep, a basra only on a floor of one or two cards, "
    "most cards win 3, first to 100.",
    seatings=frozenset({(2, False), (3, False), (4, False), (4, True)}),
    opening_forbidden=JACKS,
    power_basra=_jacks(PowerBasra("never")),
    target=100,
    short_target=51,
    majority="most-cards",
    majority_points=3,
    scoring_cards=(_EACH_A, _EACH_J, _TWO_C, _TEN_D),
    basra_floor_limit=2,
    aliases=("lebanon", "libanaise"),
)

SERBIAN = Rules(
    name="serbian",
    description="Serbian Basra: sums take the most cards, a Jack on a lone Jack is 20, "
    "2S and 10D are penalties; sets to 101, first to 3 sets.",
    seatings=frozenset({(2, False), (4, True)}),
    opening_forbidden=JACKS | _SEVEN_D,
    power_basra=(
        *_jacks(PowerBasra("only-single-same-rank", 20)),
        (SEVEN_OF_DIAMONDS, PowerBasra("small-floor", 10, 9)),
    ),
    target=101,
    short_target=101,
    sum_sets="max-cards",
    scoring_cards=(
        _EACH_J,
        _EACH_A,
        ScoringCard("2S", 1 << TWO_OF_SPADES, -2),
        ScoringCard("10D", 1 << TEN_OF_DIAMONDS, -3),
    ),
    sets_to_win=3,
    deciding_set_target=162,
    aliases=("serbia", "srpska"),
)

VARIANTS: dict[str, Rules] = {r.name: r for r in (EGYPTIAN, ARABIC101, LEBANESE, SERBIAN)}
"""Every variant by its canonical name; ``egyptian`` is the default."""

DEFAULT_VARIANT = "egyptian"

_LOOKUP: dict[str, Rules] = {}
for _rules in VARIANTS.values():
    _LOOKUP[_rules.name] = _rules
    for _alias in _rules.aliases:
        _LOOKUP[_alias] = _rules

_SHORT: dict[str, Rules] = {r.name: r.shortened() for r in VARIANTS.values()}
"""Every variant's rules for a shorter match, made once."""


def check_length(length: str) -> MatchLength:
    """``length`` if it is a match length; else a :class:`BasraError` (``match/bad_length``).

    >>> try:
    ...     check_length("long")
    ... except BasraError as err:
    ...     print(err, err.code)
    unknown match length 'long' (known: full, short) match/bad_length
    """
    for known in MATCH_LENGTHS:
        if length == known:
            return known
    raise BasraError(f"unknown match length {length!r} (known: {', '.join(MATCH_LENGTHS)})",
                     "match/bad_length")


def find_variant(name: str = DEFAULT_VARIANT, length: str = "full") -> Rules:
    """The rule set called ``name`` (case-insensitive; aliases accepted), for a match of
    ``length`` (``full`` or ``short``: :func:`check_length`).

    >>> try:
    ...     find_variant("nope")
    ... except UnknownVariantError as err:
    ...     print(err)
    unknown variant 'nope' (known: egyptian, arabic101, lebanese, serbian)
    """
    rules = _LOOKUP.get(str(name).strip().lower())
    if rules is None:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})")
    if length == "full":
        return rules
    check_length(length)
    return _SHORT[rules.name]


__all__ = [
    "ARABIC101",
    "DEFAULT_VARIANT",
    "EGYPTIAN",
    "LEBANESE",
    "MATCH_LENGTHS",
    "NAMES",
    "RANK_MASK",
    "SERBIAN",
    "VARIANTS",
    "MatchLength",
    "PowerBasra",
    "Rules",
    "ScoringCard",
    "check_length",
    "find_variant",
]
