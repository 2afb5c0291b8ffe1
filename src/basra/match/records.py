"""Match records, basra-record/1 (RECORDS.md): the data, parse, write and build.

A record is to Basra what PGN is to chess: one JSON document holding a whole match. This
module turns its text into typed, frozen dataclasses (:func:`parse_record`), writes them back
with canonical card names (:func:`to_json`, :func:`dumps`), builds them while a match is
played (:class:`RecordBuilder`), and checks a round's fairness data against itself
(:func:`fairness_problem`) and FAIRNESS.md's check 3 on the seats' parts of the client seed
(:func:`seat_parts_problem`). Replaying a record through the match driver and verifying it
is :mod:`basra.match.replay`'s.

Every problem is a :class:`~basra.errors.RecordError` with a one-line message that starts
with ``record:`` (the whole record), ``round N:`` (a round) or ``round N, play M:`` (a play),
both numbers 1-based.

>>> from basra.game.shuffle import shuffled_deck
>>> builder = RecordBuilder("egyptian", ["amira", "bot:expert"])
>>> builder.start_round(deck=shuffled_deck("00" * 32, "", 1))
>>> parse_record(dumps(builder.build())) == builder.build()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TypeVar

from basra.errors import BasraError, RecordError
from basra.game.cards import NAMES, Card, CardSet, names_of, parse_card, parse_card_set
from basra.game.engine import Play, check_deck
from basra.game.rules import MATCH_LENGTHS, MatchLength, Rules, check_length, find_variant
from basra.game.shuffle import (
    check_client_seed,
    check_nonce,
    commitment,
    seat_part,
    seed_bytes,
    shuffled_deck,
)

FORMAT = "basra-record/1"
"""The value of a record's ``format`` field."""

BOT_PREFIX = "bot:"
"""A seat whose name in ``players`` starts with this is a bot's (``bot:LEVEL``)."""

_HEX = frozenset("0123456789abcdef")
_NO_DECK = "no deck and no fairness data"
_T = TypeVar("_T")


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True, slots=True)
class Fairness:
    """A round's fair-shuffle data (FAIRNESS.md): the seeds, the nonce and the commitment."""

    server_seed: str
    """64 lowercase hex digits, revealed after the round."""
    client_seed: str
    nonce: int
    """The round's number in the match, 1 for the first round."""
    commitment: str
    """``hex(SHA-256(server_seed))``, published before the round."""

    @classmethod
    def from_seeds(cls, server_seed: str, client_seed: str, nonce: int) -> Fairness:
        """The fairness data of a round, with its commitment computed from the server seed."""
        seed = server_seed.lower()
        check_client_seed(client_seed)
        check_nonce(nonce)
        return cls(seed, client_seed, nonce, commitment(seed))

    def deck(self) -> tuple[Card, ...]:
        """The deck that follows from the seeds, top first."""
        return shuffled_deck(self.server_seed, self.client_seed, self.nonce)

    def to_json(self) -> dict[str, object]:
        """The ``fairness`` object of a record: its fields, in order."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class PlayEntry:
    """One play of a round: the card, the floor cards it took, and optionally the seat."""

    card: Card
    take: CardSet
    """The taken floor cards as a card set (``0``: none)."""
    seat: int | None = None
    """When given, the seat whose turn it must be."""

    @property
    def play(self) -> Play:
        """The engine's play."""
        return Play(self.card, self.take)

    def to_json(self) -> dict[str, object]:
        """The play's object in a record, with canonical card names."""
        out: dict[str, object] = {} if self.seat is None else {"seat": self.seat}
        out["card"] = NAMES[self.card]
        out["take"] = names_of(self.take)
        return out


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: its deck (given, from fairness data, or both) and its plays in order."""

    plays: tuple[PlayEntry, ...] = ()
    deck: tuple[Card, ...] | None = None
    """52 cards, top first, when the record gives them."""
    fairness: Fairness | None = None

    def head_json(self) -> dict[str, object]:
        """The round's fields other than its plays."""
        out: dict[str, object] = {}
        if self.fairness is not None:
            out["fairness"] = self.fairness.to_json()
        if self.deck is not None:
            out["deck"] = [NAMES[c] for c in self.deck]
        return out

    def to_json(self) -> dict[str, object]:
        """The round's object in a record."""
        return {**self.head_json(), "plays": [p.to_json() for p in self.plays]}


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match (or a match in progress): variant, seating and rounds."""

    variant: str
    """The variant's canonical name."""
    players: tuple[str, ...]
    """One name per seat, in seat order."""
    teams: bool
    rounds: tuple[RoundRecord, ...]
    resigned: int | None = None
    """The seat whose player resigned, ending the match after the last play listed (the
    field ``resigned``, absent when nobody did: :func:`basra.match.driver.resigned_match` says
    who won)."""
    length: MatchLength = "full"
    """``short`` for a shorter match (RULES.md 6.5; the field ``length``, written only then)."""

    @property
    def rules(self) -> Rules:
        """The variant's rules for the match's length."""
        return find_variant(self.variant, self.length)

    def head_json(self) -> dict[str, object]:
        """The record's fields other than its rounds (``length`` only for a short match, so
        a full match's record is what it always was)."""
        head: dict[str, object] = {"format": FORMAT, "variant": self.variant,
                                   "players": list(self.players), "teams": self.teams}
        if self.length != "full":
            head["length"] = self.length
        if self.resigned is not None:
            head["resigned"] = self.resigned
        return head

    def to_json(self) -> dict[str, object]:
        """The record as a JSON-ready object (see :func:`to_json`)."""
        return {**self.head_json(), "rounds": [r.to_json() for r in self.rounds]}


def to_json(record: MatchRecord) -> dict[str, object]:
    """The record as a JSON-ready object with canonical card names and sorted takes."""
    return record.to_json()


def dumps(record: MatchRecord, *, compact: bool = False) -> str:
    """The record as JSON text. By default one field, deck or play a line; ``compact``
    gives a single line."""
    if compact:
        return json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":"))

    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    rounds = []
    for rnd in record.rounds:
        fields = [f'      "{k}": {one(v)}' for k, v in rnd.head_json().items()]
        plays = ",\n".join(f"        {one(p.to_json())}" for p in rnd.plays)
        fields.append('      "plays": [' + (f"\n{plays}\n      ]" if plays else "]"))
        rounds.append("    {\n" + ",\n".join(fields) + "\n    }")
    head = [f'  "{k}": {one(v)}' for k, v in record.head_json().items()]
    head.append('  "rounds": [' + ("\n" + ",\n".join(rounds) + "\n  ]" if rounds else "]"))
    return "{\n" + ",\n".join(head) + "\n}\n"


# --------------------------------------------------------------------------- building


class RecordBuilder:
    """Builds a record while a match is played: start each round with its deck and/or its
    fairness data, then add its plays in order.

    >>> b = RecordBuilder("lebanese", ["a", "b", "c"])
    >>> b.start_round(fairness=Fairness.from_seeds("00" * 32, "a|b|c", 1))
    >>> b.build().rounds[0].fairness.commitment[:8]
    '66687aad'
    """

    def __init__(self, variant: str | Rules, players: Sequence[str], teams: bool = False,
                 length: MatchLength | None = None):
        """``length``: the match's; by default the rules' own (``full`` for a name)."""
        rules = variant if isinstance(variant, Rules) else find_variant(variant, length or "full")
        if length is not None and check_length(length) != rules.length:
            raise BasraError(f"these are the rules of a {rules.length} match, not a {length} "
                             "one", "match/bad_length")
        rules.check_seating(len(players), teams)
        self._variant = rules.name
        self._length = rules.length
        self._players = tuple(players)
        self._teams = teams
        self._rounds: list[tuple[tuple[Card, ...] | None, Fairness | None, list[PlayEntry]]] = []
        self._resigned: int | None = None

    def start_round(self, deck: Sequence[Card] | None = None,
                    fairness: Fairness | None = None) -> None:
        """Begin the next round; give its deck (top first), its fairness data, or both."""
        if deck is None and fairness is None:
            raise RecordError(_NO_DECK, "record/no_deck")
        self._rounds.append((None if deck is None else tuple(deck), fairness, []))

    def add_play(self, play: Play, seat: int | None = None) -> None:
        """Record the next play of the current round (``seat``: the seat that made it)."""
        if not self._rounds:
            raise RecordError("no round has been started", "record/no_round")
        self._rounds[-1][2].append(PlayEntry(play.card, play.take, seat))

    def resign(self, seat: int) -> None:
        """The player of ``seat`` resigned: the match ends after the plays recorded."""
        self._resigned = seat

    def build(self) -> MatchRecord:
        """The record so far (the builder can go on afterwards)."""
        rounds = tuple(RoundRecord(tuple(plays), deck, fairness)
                       for deck, fairness, plays in self._rounds)
        return MatchRecord(self._variant, self._players, self._teams, rounds, self._resigned,
                           self._length)


# --------------------------------------------------------------------------- parsing


class _Shape(Exception):
    """A shape problem found while reading one part of a record; the caller adds where."""


def parse_record(source: str | bytes | Mapping[str, object]) -> MatchRecord:
    """Read a record from JSON text or an already decoded object, checking its shape.

    Unknown extra fields are ignored. Whether the plays are legal is
    :func:`basra.match.replay.replay`'s job.
    """
    data = _decode(source) if isinstance(source, str | bytes) else source
    if not isinstance(data, Mapping):
        raise RecordError(f"record: expected a JSON object, got {_kind(data)}")
    try:
        rules, players, teams = _parse_header(data)
        raw_rounds = _required(data, "rounds", list, "a list")
        resigned = _optional(data, "resigned", int, "a seat number")
        if resigned is not None and not 0 <= resigned < len(players):
            raise _Shape(f"resigned must be a seat number from 0 to {len(players) - 1}, "
                         f"got {resigned}")
    except (_Shape, BasraError) as exc:
        raise RecordError(f"record: {exc}") from None
    rounds = tuple(_parse_round(i, raw, rules, len(players))
                   for i, raw in enumerate(raw_rounds, 1))
    return MatchRecord(rules.name, players, teams, rounds, resigned, rules.length)


def _decode(source: str | bytes) -> object:
    """JSON text (bytes must be UTF-8) as a Python object."""
    try:
        text = source.decode("utf-8-sig") if isinstance(source, bytes) else source
    except UnicodeDecodeError:
        raise RecordError("record: not valid JSON: the text is not UTF-8") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"record: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise RecordError("record: not valid JSON: nested too deeply") from None


def _kind(value: object) -> str:
    """How a JSON value is called in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {dict: "an object", list: "a list", str: "a string", int: "a number",
             float: "a number"}
    return names.get(type(value), type(value).__name__)


def _optional(obj: Mapping[str, object], name: str, kind: type[_T], described: str
              ) -> _T | None:
    """``obj[name]`` checked to be of ``kind``, or ``None`` when it is absent or null."""
    value = obj.get(name)
    if value is None:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _Shape(f"{name} must be {described}, got {_kind(value)}")
    return value


def _required(obj: Mapping[str, object], name: str, kind: type[_T], described: str) -> _T:
    """``obj[name]`` checked to be of ``kind``; a missing field is a shape problem."""
    value = _optional(obj, name, kind, described)
    if value is None:
        raise _Shape(f"missing field {name!r}")
    return value


def _parse_header(data: Mapping[str, object]) -> tuple[Rules, tuple[str, ...], bool]:
    """The format, variant, length, players and teams fields, checked against each other."""
    fmt = data.get("format")
    if fmt != FORMAT:
        got = "nothing" if fmt is None else json.dumps(fmt)[:40]
        raise _Shape(f'format must be "{FORMAT}", got {got}')
    variant = _required(data, "variant", str, "a variant name")
    length = _optional(data, "length", str, '"full" or "short"')
    if length is None:
        length = "full"
    elif length not in MATCH_LENGTHS:
        raise _Shape(f'length must be "full" or "short", got {json.dumps(length)[:40]}')
    rules = find_variant(variant, length)
    players = _required(data, "players", list, "a list of names")
    if not all(isinstance(p, str) for p in players):
        raise _Shape("players must be a list of names (text)")
    teams = _optional(data, "teams", bool, "true or false") or False
    rules.check_seating(len(players), teams)
    return rules, tuple(players), teams


def _parse_round(number: int, raw: object, rules: Rules, seats: int) -> RoundRecord:
    """Round ``number`` (1-based): its fairness data, deck and plays."""
    where = f"round {number}"
    try:
        if not isinstance(raw, Mapping):
            raise _Shape(f"expected an object, got {_kind(raw)}")
        fairness = _parse_fairness(raw)
        deck = _parse_deck(raw)
        if deck is None and fairness is None:
            raise _Shape(_NO_DECK)
        raw_plays = _required(raw, "plays", list, "a list")
        most = rules.plays_per_round
        if len(raw_plays) > most:
            raise _Shape(f"{len(raw_plays)} plays, but a round has only {most}")
    except (_Shape, BasraError) as exc:
        raise RecordError(f"{where}: {exc}") from None
    plays = tuple(_parse_play(f"{where}, play {m}", p, seats)
                  for m, p in enumerate(raw_plays, 1))
    return RoundRecord(plays, deck, fairness)


def _parse_fairness(raw: Mapping[str, object]) -> Fairness | None:
    """A round's ``fairness`` object, or ``None`` when it has none."""
    obj = _optional(raw, "fairness", dict, "an object")
    if obj is None:
        return None
    server_seed = _required(obj, "server_seed", str, "64 hex digits")
    seed_bytes(server_seed)
    client_seed = _required(obj, "client_seed", str, "text")
    check_client_seed(client_seed)
    nonce = check_nonce(_required(obj, "nonce", int, "a whole number from 1 up"))
    published = _required(obj, "commitment", str, "64 hex digits")
    if len(published) != 64 or not set(published.lower()) <= _HEX:
        raise _Shape(f"commitment must be 64 hex digits, got {published!r:.80}")
    return Fairness(server_seed.lower(), client_seed, nonce, published.lower())


def _parse_deck(raw: Mapping[str, object]) -> tuple[Card, ...] | None:
    """A round's ``deck``: 52 distinct cards, or ``None`` when it has none."""
    texts = _optional(raw, "deck", list, "a list of 52 cards")
    if texts is None:
        return None
    return check_deck([parse_card(t) for t in texts])


def _parse_play(where: str, raw: object, seats: int) -> PlayEntry:
    """One play; ``where`` (``round N, play M``) starts its error messages."""
    try:
        if not isinstance(raw, Mapping):
            raise _Shape(f"expected an object, got {_kind(raw)}")
        seat = _optional(raw, "seat", int, f"a seat from 0 to {seats - 1}")
        if seat is not None and not 0 <= seat < seats:
            raise _Shape(f"seat must be a seat from 0 to {seats - 1}, got {seat}")
        card = parse_card(_required(raw, "card", str, "a card such as '10D'"))
        take = parse_card_set(_required(raw, "take", list, "a list of cards"))
    except (_Shape, BasraError) as exc:
        raise RecordError(f"{where}: {exc}") from None
    return PlayEntry(card, take, seat)


# --------------------------------------------------------------------------- checking


def fairness_problem(number: int, rnd: RoundRecord, *, check_nonce_number: bool = False
                     ) -> str | None:
    """What is wrong with round ``number``'s fairness data, or ``None`` (also when it has
    none): the commitment must match the server seed, the deck (if given) must follow from
    the seeds, and with ``check_nonce_number`` the nonce must be the round's number."""
    fair = rnd.fairness
    if fair is None:
        return None
    if commitment(fair.server_seed) != fair.commitment:
        return "commitment does not match the server seed"
    if check_nonce_number and fair.nonce != number:
        return f"nonce is {fair.nonce}, but round {number} must use nonce {number}"
    if rnd.deck is not None:
        derived = fair.deck()
        for pos, (given, seeded) in enumerate(zip(rnd.deck, derived, strict=True), 1):
            if given != seeded:
                return (f"deck does not follow from the seeds (card {pos} is {NAMES[given]}, "
                        f"the seeds give {NAMES[seeded]})")
    return None


def seat_parts_problem(players: Sequence[str], fair: Fairness) -> str | None:
    """What is wrong with the seats' parts of a round's client seed, or ``None``: FAIRNESS.md's
    check 3 ("Seat parts"). The client seed split on ``|`` must give exactly one part per
    seat, and every bot seat's part (its name in ``players`` starts with ``bot:``) must be
    :func:`~basra.game.shuffle.seat_part` of the round's server seed, nonce and seat: a part the
    server supplies is fixed by the commitment, so it cannot be picked to choose the deck.
    A person's part is their own text and is not checked here.

    >>> seed = "00" * 31 + "01"
    >>> seat_parts_problem(["amira", "bot:hard"],
    ...                    Fairness.from_seeds(seed, "amira|8dcc8d99a2ec07c3", 1)) is None
    True
    >>> seat_parts_problem(["amira", "bot:hard"], Fairness.from_seeds(seed, "amira|abc", 2))
    "seat 1 (bot:hard) has client seed part 'abc', but a bot's part must be 7d9082400dc4c67d ..."
    """
    parts = fair.client_seed.split("|")
    if len(parts) != len(players):
        count = "1 part" if len(parts) == 1 else f"{len(parts)} parts"
        return f"the client seed has {count}, but the match has {len(players)} seats"
    for seat, (name, part) in enumerate(zip(players, parts, strict=True)):
        if not name.startswith(BOT_PREFIX):
            continue
        derived = seat_part(fair.server_seed, fair.nonce, seat)
        if part != derived:
            shown = repr(part if len(part) <= 64 else part[:64] + "…")
            return (f"seat {seat} ({name}) has client seed part {shown}, but a bot's part "
                    f"must be {derived} (derived from the server seed)")
    return None


def round_deck(rnd: RoundRecord) -> tuple[Card, ...]:
    """The round's deck: as given, or else the one that follows from its seeds."""
    if rnd.deck is not None:
        return rnd.deck
    if rnd.fairness is None:
        raise RecordError(_NO_DECK, "record/no_deck")
    return rnd.fairness.deck()


__all__ = [
    "BOT_PREFIX",
    "FORMAT",
    "Fairness",
    "MatchRecord",
    "PlayEntry",
    "RecordBuilder",
    "RoundRecord",
    "dumps",
    "fairness_problem",
    "parse_record",
    "round_deck",
    "seat_parts_problem",
    "to_json",
]
