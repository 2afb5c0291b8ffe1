"""The engine: a pure state machine for a round and a match (RULES.md 2-6).

No I/O, no clocks, no randomness: a deck in, plays in, states and scores out. States are
immutable named tuples; every transition returns a new one, so a state can be shared, kept
for undo, or handed to a search without copying. Card sets are bit masks (see
:mod:`basra.game.cards`).

>>> from basra.game.rules import find_variant
>>> from basra.game.shuffle import shuffled_deck
>>> m = start_round(new_match(find_variant("egyptian"), 2), shuffled_deck("00" * 32, "", 1))
>>> m.round.turn, len(legal_plays(m.round)) > 0
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from basra.errors import DeckError, IllegalPlayError
from basra.game.captures import max_card_unions, sum_sets, takes
from basra.game.cards import (
    BELOW_VALUE,
    FACES,
    NAMES,
    RANK,
    VALUES,
    Card,
    CardSet,
    format_cards,
    parse_card,
    parse_card_set,
)
from basra.game.rules import Rules


class Play(NamedTuple):
    """A play: the card from the hand and the set of floor cards it takes (``0``: none).

    Its notation is the card, then ``:`` and the taken cards joined by ``+``:

    >>> p = Play.parse("5H:4C+AD")
    >>> str(p), Play.parse("QS").take
    ('5H:4C+AD', 0)
    """

    card: Card
    take: CardSet

    def __str__(self) -> str:
        if not self.take:
            return NAMES[self.card]
        return NAMES[self.card] + ":" + format_cards(self.take).replace(" ", "+")

    @classmethod
    def parse(cls, text: str) -> Play:
        card_text, _, take_text = text.strip().partition(":")
        take = parse_card_set(t for t in take_text.replace("+", " ").split() if t)
        return cls(parse_card(card_text), take)

    def to_json(self) -> dict[str, object]:
        return {"card": NAMES[self.card], "take": format_cards(self.take).split()}


class PlayLog(NamedTuple):
    """One public play, linked to the play before it (a persistent list, O(1) to extend)."""

    previous: PlayLog | None
    seat: int
    card: Card
    take: CardSet
    basra: int
    """Basra points the play scored (0: none)."""


def side_of(seat: int, teams: bool) -> int:
    """The scoring side of ``seat`` (RULES.md 1): in teams, seats 0 and 2 are side 0 and
    seats 1 and 3 side 1; otherwise every seat is its own side. The engine's own statement
    of the rule, a native call for its compiled code; the rest of the code asks
    :class:`basra.game.seating.Seating`.

    >>> [side_of(s, True) for s in range(4)], side_count(4, True), side_count(3, False)
    ([0, 1, 0, 1], 2, 3)
    """
    return seat % 2 if teams else seat


def side_count(seats: int, teams: bool) -> int:
    """How many scoring sides ``seats`` seats make: 2 in teams, else one a seat."""
    return 2 if teams else seats


class RoundSetup(NamedTuple):
    """What a round never changes after the deal: rules, seating, dealer, deck and stock."""

    rules: Rules
    seats: int
    teams: bool
    dealer: int
    deck: tuple[Card, ...]
    """The round's deck as shuffled, top first."""
    stock: tuple[Card, ...]
    """The cards left after the first deal and the opening floor (burying applied), in order."""
    opening_floor: CardSet
    seat_shift: tuple[int, ...]
    """Bit offset of each seat's hand inside ``Round.packed_hands`` (52 bits a seat)."""
    side_shift: tuple[int, ...]
    """Bit offset of each seat's side inside ``Round.packed_piles`` (52 bits a side)."""

    @property
    def sides(self) -> int:
        return side_count(self.seats, self.teams)


_new = tuple.__new__
_LAY: tuple[Play, ...] = tuple(Play(c, 0) for c in range(52))
"""Every card's play with an empty take, made once."""
_SET_BITS = 52
_FULL = (1 << 52) - 1
_COUNT_BITS = 16
_COUNT_MASK = (1 << _COUNT_BITS) - 1


class Round(NamedTuple):
    """One pass through the deck: the whole truth, hidden parts included (only
    :mod:`basra.game.views` decides what a seat may see).

    Per-seat and per-side sets are packed into single integers, 52 bits each, so a play
    changes a few integers and copies no tuples; ``hands``, ``piles``, ``basras`` and
    ``bonus`` unpack them.
    """

    setup: RoundSetup
    dealt: int
    """How many cards of the stock have been dealt."""
    packed_hands: int
    floor: CardSet
    packed_piles: int
    packed_basras: int
    packed_bonus: int
    turn: int
    last_taker: int
    """The side that made the last capture, -1 before any."""
    played: int
    log: PlayLog | None
    leftover: CardSet
    """At the round's end: the floor cards given to the last capturer's side."""

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def seats(self) -> int:
        return self.setup.seats

    @property
    def teams(self) -> bool:
        return self.setup.teams

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    def hand(self, seat: int) -> CardSet:
        return self.packed_hands >> (_SET_BITS * seat) & _FULL

    @property
    def hands(self) -> tuple[CardSet, ...]:
        return tuple(self.hand(s) for s in range(self.setup.seats))

    def pile(self, side: int) -> CardSet:
        return self.packed_piles >> (_SET_BITS * side) & _FULL

    @property
    def piles(self) -> tuple[CardSet, ...]:
        return tuple(self.pile(s) for s in range(self.setup.sides))

    @property
    def basras(self) -> tuple[int, ...]:
        return tuple(self.packed_basras >> (_COUNT_BITS * s) & _COUNT_MASK
                     for s in range(self.setup.sides))

    @property
    def bonus(self) -> tuple[int, ...]:
        """Basra points per side."""
        return tuple(self.packed_bonus >> (_COUNT_BITS * s) & _COUNT_MASK
                     for s in range(self.setup.sides))

    @property
    def finished(self) -> bool:
        return self.played == self.setup.rules.plays_per_round

    @property
    def stock_left(self) -> int:
        return len(self.setup.stock) - self.dealt

    @property
    def deal_number(self) -> int:
        """The deal in progress, 1-based."""
        per_deal = self.setup.seats * self.setup.rules.deal_size
        return min(self.played // per_deal + 1, 48 // per_deal)

    def plays(self) -> list[PlayLog]:
        """Every play of the round so far, oldest first."""
        out: list[PlayLog] = []
        node = self.log
        while node is not None:
            out.append(node)
            node = node.previous
        out.reverse()
        return out


def check_deck(deck: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """The deck as a tuple, or :class:`DeckError` unless it is the 52 cards once each."""
    cards = tuple(deck)
    if len(cards) != 52 or set(cards) != set(range(52)):
        seen: set[int] = set()
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 52:
                raise DeckError(f"deck holds {c!r}, which is not a card")
            if c in seen:
                raise DeckError(f"deck holds {NAMES[c]} twice")
            seen.add(c)
        missing = " ".join(NAMES[c] for c in range(52) if c not in seen)
        raise DeckError(f"deck has {len(cards)} cards, not 52 (missing {missing})")
    return cards


def _shifts(seats: int, teams: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``RoundSetup.seat_shift`` and ``.side_shift``: where each seat's hand lies in the
    packed hands, and its side's pile in the packed piles."""
    return (tuple(_SET_BITS * s for s in range(seats)),
            tuple(_SET_BITS * side_of(s, teams) for s in range(seats)))


def deal_round(rules: Rules, seats: int, dealer: int, deck: tuple[Card, ...] | list[Card],
               teams: bool = False) -> Round:
    """Deal a round (RULES.md 2): 4 cards each one at a time from the seat after the dealer,
    then the opening floor with forbidden cards buried at ``len(stock) // 2``."""
    rules.check_seating(seats, teams)
    if not 0 <= dealer < seats:
        raise IllegalPlayError(f"dealer must be a seat from 0 to {seats - 1}", "match/bad_dealer")
    deck = check_deck(deck)
    hands = 0
    pos = 0
    for _ in range(rules.deal_size):
        for k in range(seats):
            hands |= 1 << (deck[pos] + _SET_BITS * ((dealer + 1 + k) % seats))
            pos += 1
    stock = list(deck[pos:])
    floor = 0
    laid = 0
    while laid < rules.floor_size:
        card = stock.pop(0)
        if rules.opening_forbidden >> card & 1:
            stock.insert(len(stock) // 2, card)
            continue
        floor |= 1 << card
        laid += 1
    setup = RoundSetup(rules, seats, teams, dealer, deck, tuple(stock), floor,
                       *_shifts(seats, teams))
    return Round(setup, 0, hands, floor, 0, 0, 0, (dealer + 1) % seats, -1, 0, None, 0)


def compose_round(  # noqa: PLR0913 - one keyword for each part of a Round: its constructor
        rules: Rules, seats: int, teams: bool, dealer: int, *, hands: list[CardSet],
        floor: CardSet, stock: list[Card], piles: list[CardSet], basras: list[int],
        bonus: list[int], turn: int, last_taker: int, played: int,
        opening_floor: CardSet = 0) -> Round:
    """A round in the middle of play, built from its parts: what a bot's determinization
    makes from a view and a guess at the hidden cards. ``stock`` is the undealt stock, top
    first. The parts are trusted to be consistent (every card once); the history is empty.
    """
    setup = RoundSetup(rules, seats, teams, dealer, (), tuple(stock), opening_floor,
                       *_shifts(seats, teams))
    packed_hands = 0
    for seat, hand in enumerate(hands):
        packed_hands |= hand << setup.seat_shift[seat]
    packed_piles = 0
    packed_basras = 0
    packed_bonus = 0
    for side, pile in enumerate(piles):
        packed_piles |= pile << (_SET_BITS * side)
        packed_basras |= basras[side] << (_COUNT_BITS * side)
        packed_bonus |= bonus[side] << (_COUNT_BITS * side)
    return Round(setup, 0, packed_hands, floor, packed_piles, packed_basras, packed_bonus, turn,
                 last_taker, played, None, 0)


def collect_plays(out: list[Play], rules: Rules, hand: CardSet, floor: CardSet) -> None:
    """Append every legal play of ``hand`` on ``floor`` to ``out``: the hot path of
    :func:`legal_plays` and :func:`random_playout`. It inlines the capture rules of
    :func:`basra.game.captures.takes` (a property test keeps the two in agreement)."""
    if not floor:
        while hand:
            low = hand & -hand
            out.append(_LAY[low.bit_length() - 1])
            hand ^= low
        return
    table = rules.capture_table
    one_set = rules.sum_sets == "one-set"
    while hand:
        low = hand & -hand
        card = low.bit_length() - 1
        hand ^= low
        kind, rank_mask, value = table[card]
        if kind == 0:
            out.append(_new(Play, (card, floor)))
            continue
        matches = floor & rank_mask
        if kind == 2:
            candidates = floor & BELOW_VALUE[value]
            if candidates & (candidates - 1):  # two or more cards below the value
                found = sum_sets(candidates, value) if one_set else max_card_unions(
                    candidates, value)
                if found:
                    for s in found:
                        out.append(_new(Play, (card, matches | s)))
                    continue
        out.append(_new(Play, (card, matches)) if matches else _LAY[card])


def legal_plays(rnd: Round) -> list[Play]:
    """Every distinct legal play of the seat whose turn it is (none once the round is over)."""
    setup, _, hands, floor, _, _, _, turn, _, played, _, _ = rnd
    out: list[Play] = []
    if played < setup.rules.plays_per_round:
        collect_plays(out, setup.rules, hands >> setup.seat_shift[turn] & _FULL, floor)
    return out


def basra_points(rules: Rules, card: Card, take: CardSet, floor: CardSet, last: bool) -> int:
    """Points a play scores as a basra (RULES.md 4, 6.1); 0 if it is none.

    ``floor`` is the floor before the play, ``last`` whether it is the round's last play.
    """
    if not take or take != floor:
        return 0
    if last and not rules.last_play_basra:
        return 0
    power = rules.power_basra_of(card) if rules.power_cards >> card & 1 else None
    if power is None:
        limit = rules.basra_floor_limit
        if limit is not None and floor.bit_count() > limit:
            return 0
        return rules.basra_points
    kind = power.kind
    if kind == "never":
        return 0
    single_same = take.bit_count() == 1 and RANK[take.bit_length() - 1] == RANK[card]
    if kind == "unless-single-same-rank":
        return 0 if single_same else power.points
    if kind == "only-single-same-rank":
        return power.points if single_same else 0
    # small-floor: no face card and values adding up to the limit or less
    if take & FACES:
        return 0
    total = 0
    m = take
    while m:
        low = m & -m
        total += VALUES[low.bit_length() - 1]
        m ^= low
    return power.points if total <= power.limit else 0


def apply_play(rnd: Round, play: Play) -> Round:
    """The round after ``play`` by the seat whose turn it is, or :class:`IllegalPlayError`."""
    if rnd.finished:
        raise IllegalPlayError("the round is over", "play/round_over")
    card, take = play
    seat = rnd.turn
    if not isinstance(card, int) or not 0 <= card < 52:
        raise IllegalPlayError(f"{card!r} is not a card", "play/bad_card")
    if not isinstance(take, int) or take < 0 or take >> 52:
        raise IllegalPlayError(f"{take!r} is not a set of cards", "play/bad_take")
    if not rnd.hand(seat) >> card & 1:
        raise IllegalPlayError(f"{NAMES[card]} is not in seat {seat}'s hand", "play/not_in_hand")
    options = takes(rnd.rules, card, rnd.floor)
    if take not in options:
        raise IllegalPlayError(describe_bad_take(card, take, rnd.floor, options),
                               "play/must_take" if not take else "play/bad_take")
    return play_unchecked(rnd, card, take)


def describe_bad_take(card: Card, take: CardSet, floor: CardSet,
                      options: tuple[CardSet, ...]) -> str:
    """One line saying why ``take`` is not a legal take for ``card``."""
    name = NAMES[card]
    if take & ~floor:
        return f"{name} cannot take {format_cards(take & ~floor)}: not on the floor"
    if options == (0,):
        return f"{name} takes nothing here, not [{format_cards(take)}]"
    if len(options) == 1:
        return f"{name} must take [{format_cards(options[0])}], not [{format_cards(take)}]"
    shown = " or ".join(f"[{format_cards(t)}]" for t in options)
    return f"{name} must take one of {shown}, not [{format_cards(take)}]"


Advance = tuple[int, int, int, int, int, int, int, int, int, int, int]


def advance(  # noqa: PLR0913 - the hot path: a round's state as loose integers, no tuple a play
        setup: RoundSetup, card: Card, take: CardSet, dealt: int, hands: int, floor: CardSet,
        piles: int, basras: int, bonus: int, seat: int, last_taker: int,
        played: int) -> Advance:
    """The one transition of a round: ``seat`` plays ``card`` taking ``take``.

    Returns (dealt, hands, floor, piles, basras, bonus, seat, last_taker, played, basra
    points, leftover): the next deal is dealt when every hand is empty, and after the last
    play the leftover floor goes to the last capturer's side (the dealer's if none).
    """
    hands ^= 1 << (card + setup.seat_shift[seat])
    played += 1
    last = played == setup.rules.plays_per_round
    points = 0
    if take:
        shift = setup.side_shift[seat]
        side = shift // _SET_BITS
        if take == floor:
            points = basra_points(setup.rules, card, take, floor, last)
            if points:
                basras += 1 << (side * _COUNT_BITS)
                bonus += points << (side * _COUNT_BITS)
        floor ^= take
        piles |= (take | 1 << card) << shift
        last_taker = side
    else:
        floor |= 1 << card
    seat += 1
    if seat == setup.seats:
        seat = 0
    leftover = 0
    if last:
        receiver = last_taker if last_taker >= 0 else setup.side_shift[setup.dealer] // _SET_BITS
        leftover = floor
        piles |= floor << (_SET_BITS * receiver)
        floor = 0
    elif not hands:
        stock = setup.stock
        seats = setup.seats
        first = setup.dealer + 1
        for _ in range(setup.rules.deal_size):
            for k in range(seats):
                hands |= 1 << (stock[dealt] + _SET_BITS * ((first + k) % seats))
                dealt += 1
    return (dealt, hands, floor, piles, basras, bonus, seat, last_taker, played, points,
            leftover)


def play_unchecked(rnd: Round, card: Card, take: CardSet) -> Round:
    """Apply a play known to be legal (from :func:`legal_plays`), without checks."""
    setup, dealt, hands, floor, piles, basras, bonus, seat, last_taker, played, log, _ = rnd
    (dealt, hands, floor, piles, basras, bonus, turn, last_taker, played, points,
     leftover) = advance(setup, card, take, dealt, hands, floor, piles, basras, bonus, seat,
                       last_taker, played)
    log = _new(PlayLog, (log, seat, card, take, points))
    return _new(Round, (setup, dealt, hands, floor, piles, basras, bonus, turn, last_taker,
                        played, log, leftover))


def random_playout(rnd: Round, random: Callable[[], float]) -> Round:
    """Play the round to its end with uniformly random legal plays; ``random()`` returns a
    float in [0, 1), like ``random.Random(seed).random``.

    Each play is ``legal_plays(r)[int(random() * len(legal_plays(r)))]``, so a playout
    equals stepping :func:`play_unchecked` with the same choices; it just skips building a
    :class:`Round` per play. Bots use it for rollouts and ``basra bench engine`` measures it.
    """
    setup, dealt, hands, floor, piles, basras, bonus, seat, last_taker, played, log, left = rnd
    rules = setup.rules
    end = rules.plays_per_round
    shift = setup.seat_shift
    options: list[Play] = []
    while played < end:
        options.clear()
        collect_plays(options, rules, hands >> shift[seat] & _FULL, floor)
        card, take = options[int(random() * len(options))]
        (dealt, hands, floor, piles, basras, bonus, turn, last_taker, played, points,
         left) = advance(setup, card, take, dealt, hands, floor, piles, basras, bonus, seat,
                       last_taker, played)
        log = _new(PlayLog, (log, seat, card, take, points))
        seat = turn
    return _new(Round, (setup, dealt, hands, floor, piles, basras, bonus, seat, last_taker,
                        played, log, left))


class SideScore(NamedTuple):
    """How a side's round points were made (the round's scoring breakdown)."""

    cards: int
    majority: int
    """Majority points won this round, without the carry."""
    carry: int
    """Carry that landed with the majority."""
    card_points: int
    scoring_cards: CardSet
    """The pile's cards that are worth points."""
    basras: int
    basra_points: int

    @property
    def points(self) -> int:
        return self.majority + self.carry + self.card_points + self.basra_points


def score_round(rnd: Round, carry: int) -> tuple[tuple[SideScore, ...], int]:
    """Score a finished round given the carry coming in; returns each side's score and the
    carry going out (RULES.md 5)."""
    if not rnd.finished:
        raise IllegalPlayError("the round is not over", "play/round_not_over")
    rules = rnd.rules
    counts = [p.bit_count() for p in rnd.piles]
    majority = [0] * len(counts)
    landed = [0] * len(counts)
    carry_out = 0
    if rules.majority == "27-of-52":
        winners = [s for s, n in enumerate(counts) if n >= 27]
        if winners:
            majority[winners[0]] = rules.majority_points
            landed[winners[0]] = carry
        else:
            carry_out = carry + rules.majority_points
    else:
        top = max(counts)
        for s, n in enumerate(counts):
            if n == top:
                majority[s] = rules.majority_points
    scores = []
    points_of = rules.card_points
    for s, pile in enumerate(rnd.piles):
        scoring = 0
        card_pts = 0
        m = pile
        while m:
            low = m & -m
            pts = points_of[low.bit_length() - 1]
            if pts:
                card_pts += pts
                scoring |= low
            m ^= low
        scores.append(SideScore(counts[s], majority[s], landed[s], card_pts, scoring,
                                rnd.basras[s], rnd.bonus[s]))
    return tuple(scores), carry_out


class RoundResult(NamedTuple):
    """A scored round, as ``basra replay --json`` reports it."""

    scores: tuple[SideScore, ...]
    carry: int
    """Majority carry outstanding after the round."""
    totals: tuple[int, ...]
    """Totals after the round (for a round that ends a set: the totals that won it)."""
    set_winner: int | None

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(s.points for s in self.scores)

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(s.cards for s in self.scores)

    @property
    def basras(self) -> tuple[int, ...]:
        return tuple(s.basras for s in self.scores)


class Match(NamedTuple):
    """A match: rounds until a side wins (Serbian: sets of rounds, RULES.md 6.2-6.4)."""

    rules: Rules
    seats: int
    teams: bool
    round: Round | None
    """The round in progress, or the last round played (finished), or None before the first."""
    rounds_started: int
    totals: tuple[int, ...]
    carry: int
    sets: tuple[int, ...]
    """Sets won per side (always zeros when the variant plays a single race)."""
    results: tuple[RoundResult, ...]
    winner: int | None

    @property
    def sides(self) -> int:
        return side_count(self.seats, self.teams)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.teams)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def in_round(self) -> bool:
        """Whether a round is in progress (dealt and not finished)."""
        return self.round is not None and not self.round.finished

    @property
    def target(self) -> int:
        """The target of the race (set) being played."""
        return self.rules.set_target(self.sets)

    @property
    def next_dealer(self) -> int:
        return self.rounds_started % self.seats


def new_match(rules: Rules, seats: int = 2, teams: bool = False) -> Match:
    """A match before its first round. Raises :class:`SeatingError` for a seating the
    variant does not allow."""
    rules.check_seating(seats, teams)
    zeros = (0,) * side_count(seats, teams)
    return Match(rules, seats, teams, None, 0, zeros, 0, zeros, (), None)


def start_round(match: Match, deck: tuple[Card, ...] | list[Card]) -> Match:
    """Deal the next round from ``deck`` (top first); its dealer is seat ``round mod n``."""
    if match.winner is not None:
        raise IllegalPlayError("the match is over", "play/match_over")
    if match.in_round:
        raise IllegalPlayError("a round is still in progress", "play/round_in_progress")
    rnd = deal_round(match.rules, match.seats, match.next_dealer, deck, match.teams)
    return match._replace(round=rnd, rounds_started=match.rounds_started + 1)


def play(match: Match, move: Play, seat: int | None = None) -> Match:
    """The match after ``move``; ``seat``, when given, must be the seat whose turn it is.
    A play that ends the round scores it, and may end the set or the match."""
    if match.winner is not None:
        raise IllegalPlayError("the match is over", "play/match_over")
    rnd = match.round
    if rnd is None or rnd.finished:
        raise IllegalPlayError("no round is in progress", "play/no_round")
    if seat is not None and seat != rnd.turn:
        raise IllegalPlayError(f"it is seat {rnd.turn}'s turn, not seat {seat}'s",
                               "play/wrong_seat")
    rnd = apply_play(rnd, move)
    match = match._replace(round=rnd)
    if rnd.finished:
        match = finish_round(match)
    return match


def finish_round(match: Match) -> Match:
    """Score the finished round and settle the race, the set and the match."""
    rnd = match.round
    assert rnd is not None and rnd.finished
    rules = match.rules
    scores, carry = score_round(rnd, match.carry)
    totals = tuple(t + s.points for t, s in zip(match.totals, scores, strict=True))
    target = rules.set_target(match.sets)
    best = max(totals)
    race_winner: int | None = None
    if best >= target and totals.count(best) == 1:
        race_winner = totals.index(best)
    sets = match.sets
    winner: int | None = None
    set_winner: int | None = None
    next_totals = totals
    if race_winner is not None:
        carry = 0
        if rules.sets_to_win > 1:
            set_winner = race_winner
            sets = tuple(n + (s == race_winner) for s, n in enumerate(sets))
            next_totals = (0,) * len(totals)
            if sets[race_winner] >= rules.sets_to_win:
                winner = race_winner
        else:
            winner = race_winner
    result = RoundResult(scores, carry, totals, set_winner)
    return match._replace(totals=next_totals, carry=carry, sets=sets,
                          results=(*match.results, result), winner=winner)


def legal_match_plays(match: Match) -> list[Play]:
    """Legal plays of the seat to play, or none when no round is in progress."""
    if match.winner is not None or not match.in_round:
        return []
    assert match.round is not None
    return legal_plays(match.round)
