"""What a seat may see: the only object a player, a bot or a browser is ever given.

:func:`view` filters the authoritative :class:`~basra.game.engine.Match` for one seat (or for a
spectator, ``seat=None``): the seat's own hand, the floor, every public play of the round,
counts of the other hands and of the stock, piles, scores, carry, whose turn it is and, on
the seat's own turn, its legal plays. Nothing else: no other hand, no stock order, no deck,
not even which forbidden cards were buried back into the stock at the opening.

>>> from basra.game.engine import new_match, start_round
>>> from basra.game.rules import find_variant
>>> m = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
>>> v = view(m, 1)
>>> len(v.hand), v.hand_counts, v.stock_count, v.my_turn
(4, (4, 4), 40, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from basra.game.cards import (
    FULL_DECK,
    NAMES,
    Card,
    CardSet,
    cards_of,
    mask_of,
    parse_card,
    parse_card_set,
)
from basra.game.engine import Match, Play, SideScore, legal_plays
from basra.game.rules import Rules
from basra.game.seating import Seating


@dataclass(frozen=True, slots=True)
class PublicPlay:
    """A play as everyone saw it."""

    seat: int
    card: Card
    take: CardSet
    basra: int
    """Basra points it scored (0: none)."""

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "card": NAMES[self.card],
            "take": [NAMES[c] for c in cards_of(self.take)],
            "basra": self.basra,
        }

    @classmethod
    def from_json(cls, data: Any) -> PublicPlay:
        return cls(_int(data["seat"], "seat"), parse_card(str(data["card"])),
                   _mask(data["take"], "take"), _int(data.get("basra", 0), "basra"))


@dataclass(frozen=True, slots=True)
class SideSummary:
    """How one side's round points were made: the engine's
    :class:`~basra.game.engine.SideScore`, with its scoring cards counted per line of the
    variant's card-points table (counts, not names: the summary stays in later rounds' views,
    whose cards it must not name)."""

    cards: int
    majority: int
    carry: int
    card_points: int
    card_counts: tuple[int, ...]
    basras: int
    basra_points: int

    @classmethod
    def of(cls, score: SideScore, rules: Rules) -> SideSummary:
        counts = tuple((score.scoring_cards & line.cards).bit_count()
                       for line in rules.scoring_cards)
        return cls(score.cards, score.majority, score.carry, score.card_points, counts,
                   score.basras, score.basra_points)

    @property
    def points(self) -> int:
        return self.majority + self.carry + self.card_points + self.basra_points

    def to_json(self) -> dict[str, object]:
        return {"cards": self.cards, "majority": self.majority, "carry": self.carry,
                "card_points": self.card_points, "card_counts": list(self.card_counts),
                "basras": self.basras, "basra_points": self.basra_points,
                "points": self.points}

    @classmethod
    def from_json(cls, data: Any) -> SideSummary:
        return cls(card_counts=_ints(data["card_counts"], "card_counts"),
                   **_read(data, _int, "cards", "majority", "carry", "card_points", "basras",
                           "basra_points"))


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A finished round's public scores, per side."""

    cards: tuple[int, ...]
    basras: tuple[int, ...]
    points: tuple[int, ...]
    carry: int
    totals: tuple[int, ...]
    set_winner: int | None
    scores: tuple[SideSummary, ...] = ()
    """The engine's breakdown per side: how each side's points were made."""
    carry_in: int = 0
    """The carry outstanding when the round began."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "cards": list(self.cards),
            "basras": list(self.basras),
            "points": list(self.points),
            "carry": self.carry,
            "totals": list(self.totals),
            "carry_in": self.carry_in,
            "scores": [s.to_json() for s in self.scores],
        }
        if self.set_winner is not None:
            out["set_winner"] = self.set_winner
        return out

    @classmethod
    def from_json(cls, data: Any) -> RoundSummary:
        return cls(
            carry=_int(data["carry"], "carry"),
            set_winner=_opt_int(data.get("set_winner"), "set_winner"),
            scores=tuple(SideSummary.from_json(x) for x in data.get("scores", ())),
            carry_in=_int(data.get("carry_in", 0), "carry_in"),
            **_read(data, _ints, "cards", "basras", "points", "totals"))


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of a match (``seat`` is ``None`` for a spectator)."""

    variant: str
    seat: int | None
    seats: int
    teams: bool
    round_number: int
    """1-based number of the round in play or last played; 0 before the first deal."""
    dealer: int | None
    deal_number: int
    turn: int | None
    """The seat to play, or None when no round is in progress."""
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    floor: tuple[Card, ...]
    opening_floor: tuple[Card, ...]
    stock_count: int
    plays: tuple[PublicPlay, ...]
    """Every play of the current (or last) round, oldest first."""
    pile_counts: tuple[int, ...]
    basras: tuple[int, ...]
    basra_points: tuple[int, ...]
    last_taker: int | None
    leftover: tuple[Card, ...]
    """At a round's end, the floor cards given to the last capturer's side."""
    totals: tuple[int, ...]
    carry: int
    sets: tuple[int, ...]
    target: int
    results: tuple[RoundSummary, ...]
    winner: int | None
    legal: tuple[Play, ...]
    """The seat's legal plays when it is its turn, else empty."""
    length: str = "full"
    """The match's length: the variant's own, or RULES.md 6.5's ``short`` one (the JSON
    names it only when short)."""

    @property
    def seating(self) -> Seating:
        return Seating(self.seats, self.teams)

    @property
    def side(self) -> int | None:
        """The seat's scoring side (``None`` for a spectator)."""
        return None if self.seat is None else self.seating.side_of(self.seat)

    @property
    def sides(self) -> int:
        return self.seating.sides

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    def unseen(self) -> CardSet:
        """Cards this seat has not seen this round: in other hands or the stock."""
        played = mask_of(p.card for p in self.plays)
        return FULL_DECK & ~(mask_of(self.hand) | mask_of(self.opening_floor) | played)

    def to_json(self) -> dict[str, object]:
        """The view as plain JSON data (canonical card names), for the wire and for tests."""
        return {
            "variant": self.variant,
            "seat": self.seat,
            "seats": self.seats,
            "teams": self.teams,
            "round": self.round_number,
            "dealer": self.dealer,
            "deal": self.deal_number,
            "turn": self.turn,
            "hand": [NAMES[c] for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "floor": [NAMES[c] for c in self.floor],
            "opening_floor": [NAMES[c] for c in self.opening_floor],
            "stock_count": self.stock_count,
            "plays": [p.to_json() for p in self.plays],
            "pile_counts": list(self.pile_counts),
            "basras": list(self.basras),
            "basra_points": list(self.basra_points),
            "last_taker": self.last_taker,
            "leftover": [NAMES[c] for c in self.leftover],
            "totals": list(self.totals),
            "carry": self.carry,
            "sets": list(self.sets),
            "target": self.target,
            "results": [r.to_json() for r in self.results],
            "winner": self.winner,
            "legal": [p.to_json() for p in self.legal],
            **({"length": self.length} if self.length != "full" else {}),
        }


def _card_texts(data: object, field: str) -> list[str]:
    if not isinstance(data, list):
        raise ValueError(f"view field {field!r} must be a list of cards")
    return [str(c) for c in data]


def _cards(data: object, field: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in _card_texts(data, field))


def _mask(data: object, field: str) -> CardSet:
    return parse_card_set(_card_texts(data, field))


def _ints(data: object, field: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(isinstance(x, int) for x in data):
        raise ValueError(f"view field {field!r} must be a list of integers")
    return tuple(data)


def _opt_int(data: object, field: str) -> int | None:
    if data is None or (isinstance(data, int) and not isinstance(data, bool)):
        return data
    raise ValueError(f"view field {field!r} must be an integer or null")


def _int(data: object, field: str) -> int:
    value = _opt_int(data, field)
    if value is None:
        raise ValueError(f"view field {field!r} must be an integer")
    return value


def _read(data: Any, read: Callable[[object, str], object], *keys: str) -> dict[str, Any]:
    """``read`` applied to the fields ``keys`` of ``data`` (each one required), by key."""
    return {key: read(data[key], key) for key in keys}


def view_from_json(data: dict[str, Any]) -> SeatView:
    """Read back a view written by :meth:`SeatView.to_json` (the engine protocol's form).
    Raises ``ValueError`` (or :class:`~basra.errors.CardNotationError`) on bad data."""
    try:
        return SeatView(
            variant=str(data["variant"]),
            teams=bool(data["teams"]),
            round_number=_int(data["round"], "round"),
            deal_number=_int(data["deal"], "deal"),
            plays=tuple(PublicPlay.from_json(p) for p in data["plays"]),
            results=tuple(RoundSummary.from_json(r) for r in data.get("results", [])),
            legal=tuple(Play(parse_card(str(p["card"])), _mask(p["take"], "take"))
                        for p in data.get("legal", [])),
            length="short" if data.get("length") == "short" else "full",
            **_read(data, _opt_int, "seat", "dealer", "turn", "last_taker", "winner"),
            **_read(data, _int, "seats", "stock_count", "carry", "target"),
            **_read(data, _cards, "hand", "floor", "opening_floor", "leftover"),
            **_read(data, _ints, "hand_counts", "pile_counts", "basras", "basra_points",
                    "totals", "sets"),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a view: missing or malformed field {exc}") from None


def summaries(match: Match) -> tuple[RoundSummary, ...]:
    """Every finished round of ``match`` as a view shows it."""
    return tuple(
        RoundSummary(r.cards, r.basras, r.points, r.carry, r.totals, r.set_winner,
                     tuple(SideSummary.of(x, match.rules) for x in r.scores),
                     match.results[i - 1].carry if i else 0)
        for i, r in enumerate(match.results)
    )


def public_plays(match: Match) -> tuple[PublicPlay, ...]:
    """The plays of the round in play (or just over), as everyone saw them."""
    rnd = match.round
    if rnd is None:
        return ()
    return tuple(PublicPlay(p.seat, p.card, p.take, p.basra) for p in rnd.plays())


def view(match: Match, seat: int | None, *,
         results: tuple[RoundSummary, ...] | None = None,
         plays: tuple[PublicPlay, ...] | None = None) -> SeatView:
    """What ``seat`` may see of ``match`` (``None``: a spectator's public view).
    ``results`` and ``plays``, if given, are :func:`summaries` and :func:`public_plays` of
    ``match`` already made (a caller that keeps them as the match goes)."""
    if seat is not None and not 0 <= seat < match.seats:
        raise ValueError(f"seat must be from 0 to {match.seats - 1}, got {seat}")
    sides = match.sides
    if results is None:
        results = summaries(match)
    rnd = match.round
    if rnd is None:
        zeros = (0,) * sides
        return SeatView(match.rules.name, seat, match.seats, match.teams, 0, None, 0, None, (),
                        (0,) * match.seats, (), (), 0, (), zeros, zeros, zeros, None, (),
                        match.totals, match.carry, match.sets, match.target, results,
                        match.winner, (), match.rules.length)
    in_play = not rnd.finished and match.winner is None
    turn = rnd.turn if in_play else None
    hand = tuple(cards_of(rnd.hand(seat))) if seat is not None else ()
    legal = tuple(legal_plays(rnd)) if in_play and seat == rnd.turn else ()
    if plays is None:
        plays = public_plays(match)
    return SeatView(
        variant=match.rules.name,
        seat=seat,
        seats=match.seats,
        teams=match.teams,
        round_number=match.rounds_started,
        dealer=rnd.dealer,
        deal_number=rnd.deal_number,
        turn=turn,
        hand=hand,
        hand_counts=tuple(h.bit_count() for h in rnd.hands),
        floor=tuple(cards_of(rnd.floor)),
        opening_floor=tuple(cards_of(rnd.setup.opening_floor)),
        stock_count=rnd.stock_left,
        plays=plays,
        pile_counts=tuple(p.bit_count() for p in rnd.piles),
        basras=rnd.basras,
        basra_points=rnd.bonus,
        last_taker=rnd.last_taker if rnd.last_taker >= 0 else None,
        leftover=tuple(cards_of(rnd.leftover)),
        totals=match.totals,
        carry=match.carry,
        sets=match.sets,
        target=match.target,
        results=results,
        winner=match.winner,
        legal=legal,
        length=match.rules.length,
    )
