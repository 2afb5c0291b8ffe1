"""Match records, basra-record/1 (RECORDS.md): parse, write, build, replay and verify.

A record is to Basra what PGN is to chess: one JSON document holding a whole match. This
module turns its text into typed, frozen dataclasses (:func:`parse_record`), writes them back
with canonical card names (:func:`to_json`, :func:`dumps`), builds them while a match is
played (:class:`RecordBuilder`), replays them through the engine checking every play
(:func:`replay`, :func:`replay_json`) and checks their fair shuffles (:func:`verify`),
including FAIRNESS.md's check 3 on the seats' parts of the client seed
(:func:`seat_parts_problem`), which only :func:`verify` makes.

Every problem is a :class:`~basra.errors.RecordError` with a one-line message that starts
with ``record:`` (the whole record), ``round N:`` (a round) or ``round N, play M:`` (a play),
both numbers 1-based.

>>> from basra.shuffle import shuffled_deck
>>> builder = RecordBuilder("egyptian", ["amira", "bot:expert"])
>>> builder.start_round(deck=shuffled_deck("00" * 32, "", 1))
>>> result = replay(parse_record(dumps(builder.build())))
>>> replay_json(result)
{'variant': 'egyptian', 'rounds': [], 'winner': None}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict, TypeVar

from basra.cards import NAMES, Card, CardSet, names_of, parse_card, parse_card_set
from basra.engine import Match, Play, RoundResult, check_deck, new_match, start_round
from basra.engine import play as engine_play
from basra.errors import BasraError, RecordError
from basra.rules import Rules, find_variant
from basra.shuffle import (
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
        """The ``fairness`` object of a record."""
        return {
            "server_seed": self.server_seed,
            "client_seed": self.client_seed,
            "nonce": self.nonce,
            "commitment": self.commitment,
        }


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

    @property
    def rules(self) -> Rules:
        """The variant's rules."""
        return find_variant(self.variant)

    def head_json(self) -> dict[str, object]:
        """The record's fields other than its rounds."""
        return {"format": FORMAT, "variant": self.variant, "players": list(self.players),
                "teams": self.teams}

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

    def __init__(self, variant: str | Rules, players: Sequence[str], teams: bool = False):
        rules = variant if isinstance(variant, Rules) else find_variant(variant)
        rules.check_seating(len(players), teams)
        self._variant = rules.name
        self._players = tuple(players)
        self._teams = teams
        self._rounds: list[tuple[tuple[Card, ...] | None, Fairness | None, list[PlayEntry]]] = []

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

    def build(self) -> MatchRecord:
        """The record so far (the builder can go on afterwards)."""
        rounds = tuple(RoundRecord(tuple(plays), deck, fairness)
                       for deck, fairness, plays in self._rounds)
        return MatchRecord(self._variant, self._players, self._teams, rounds)


# --------------------------------------------------------------------------- parsing


class _Shape(Exception):
    """A shape problem found while reading one part of a record; the caller adds where."""


def parse_record(source: str | bytes | Mapping[str, object]) -> MatchRecord:
    """Read a record from JSON text or an already decoded object, checking its shape.

    Unknown extra fields are ignored. Whether the plays are legal is :func:`replay`'s job.
    """
    data = _decode(source) if isinstance(source, str | bytes) else source
    if not isinstance(data, Mapping):
        raise RecordError(f"record: expected a JSON object, got {_kind(data)}")
    try:
        rules, players, teams = _parse_header(data)
        raw_rounds = _required(data, "rounds", list, "a list")
    except (_Shape, BasraError) as exc:
        raise RecordError(f"record: {exc}") from None
    rounds = tuple(_parse_round(i, raw, rules, len(players))
                   for i, raw in enumerate(raw_rounds, 1))
    return MatchRecord(rules.name, players, teams, rounds)


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
    """The format, variant, players and teams fields, checked against each other."""
    fmt = data.get("format")
    if fmt != FORMAT:
        got = "nothing" if fmt is None else json.dumps(fmt)[:40]
        raise _Shape(f'format must be "{FORMAT}", got {got}')
    variant = _required(data, "variant", str, "a variant name")
    rules = find_variant(variant)
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


# --------------------------------------------------------------------------- replaying


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """A replayed record: the record and the match as it stands after its last play."""

    record: MatchRecord
    match: Match

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """One scored result per complete round."""
        return self.match.results

    @property
    def winner(self) -> int | None:
        """The side that won the match, or ``None`` while it is undecided."""
        return self.match.winner


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
    :func:`~basra.shuffle.seat_part` of the round's server seed, nonce and seat: a part the
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


def replay(record: MatchRecord) -> ReplayResult:
    """Replay a record under its variant's rules, checking every play.

    Raises :class:`RecordError` for an illegal record: a play the rules forbid, a deck that
    disagrees with the round's seeds, a commitment that does not match its server seed, a
    round left incomplete before the last, or a round after the match was decided.
    """
    return ReplayResult(record, _walk(record, verifying=False, report=[]))


def _walk(record: MatchRecord, *, verifying: bool, report: list[str]) -> Match:
    """Replay every round, appending a line to ``report`` for each one that passed.

    ``verifying`` adds the nonce check and the seats' parts check (FAIRNESS.md's check 3,
    made after the commitment and the deck, before the plays) and says ``not fair`` when a
    round with fairness data fails (its plays do not fit the deck its seeds give)."""
    match = new_match(record.rules, len(record.players), record.teams)
    for number, rnd in enumerate(record.rounds, 1):
        label = "not fair: " if verifying and rnd.fairness is not None else ""
        if match.over:
            raise RecordError(f"round {number}: the match was decided in round {number - 1}; "
                              "a record may not go on after that")
        reason = fairness_problem(number, rnd, check_nonce_number=verifying)
        if reason is None and verifying and rnd.fairness is not None:
            reason = seat_parts_problem(record.players, rnd.fairness)
        if reason is not None:
            raise RecordError(f"round {number}: {label}{reason}")
        try:
            match = start_round(match, round_deck(rnd))
        except BasraError as exc:  # only for records built by hand, not parsed
            raise RecordError(f"round {number}: {exc}") from None
        for index, entry in enumerate(rnd.plays, 1):
            try:
                match = engine_play(match, entry.play, entry.seat)
            except BasraError as exc:
                raise RecordError(f"round {number}, play {index}: {label}{exc}") from None
        _check_complete(number, match, number == len(record.rounds))
        report.append(f"round {number}: " + ("fair" if rnd.fairness else "no fairness data"))
    return match


def _check_complete(number: int, match: Match, last: bool) -> None:
    """Only the last round of a record may stop before its last play."""
    rnd = match.round
    if last or rnd is None or rnd.finished:
        return
    most = match.rules.plays_per_round
    raise RecordError(f"round {number}: only {rnd.played} of {most} plays, but only the last "
                      "round may be incomplete")


class RoundJson(TypedDict):
    """A complete round in ``basra replay --json``: lists are indexed by side."""

    cards: list[int]
    basras: list[int]
    points: list[int]
    carry: int
    totals: list[int]
    set_winner: NotRequired[int]
    """Only on a round that ends a set (multi-set variants)."""


class ReplayJson(TypedDict):
    """The object ``basra replay --json`` prints (RECORDS.md)."""

    variant: str
    rounds: list[RoundJson]
    sets: NotRequired[list[int]]
    """Set wins per side (multi-set variants only)."""
    winner: int | None


def replay_json(result: ReplayResult) -> ReplayJson:
    """The object ``basra replay --json`` prints (RECORDS.md): per complete round the
    cards, basras, points, carry and totals per side, and the winner (or ``None``)."""
    multi_set = result.match.rules.sets_to_win > 1
    rounds = []
    for res in result.results:
        row = RoundJson(cards=list(res.cards), basras=list(res.basras),
                        points=list(res.points), carry=res.carry, totals=list(res.totals))
        if multi_set and res.set_winner is not None:
            row["set_winner"] = res.set_winner
        rounds.append(row)
    if multi_set:
        return ReplayJson(variant=result.match.rules.name, rounds=rounds,
                          sets=list(result.match.sets), winner=result.winner)
    return ReplayJson(variant=result.match.rules.name, rounds=rounds, winner=result.winner)


# --------------------------------------------------------------------------- verifying


@dataclass(frozen=True, slots=True)
class Verification:
    """The outcome of :func:`verify`: a line per round that passed, then the failure."""

    lines: tuple[str, ...]
    """``round N: fair`` or ``round N: no fairness data``, one per round checked."""
    failure: str | None
    """The first failure as one line, or ``None`` when every round passed."""

    @property
    def ok(self) -> bool:
        """Whether the record is fair."""
        return self.failure is None


def verify(record: MatchRecord) -> Verification:
    """Check the fairness of every round that carries it (FAIRNESS.md, "What a verifier
    checks"): (1) the commitment matches the server seed; (2) the nonce is the round's
    number, the deck (if also given) follows from the seeds, and the plays replay legally
    on that deck; (3) the client seed has one part per seat and every bot seat's part is
    the one derived from the server seed (:func:`seat_parts_problem`). :func:`replay`
    makes only the legality checks, never check 3.

    Rounds without fairness data are replayed too (a later round depends on them) and
    reported as ``no fairness data``; that is not a failure unless no round has any.
    """
    if not any(r.fairness is not None for r in record.rounds):
        return Verification((), "record: no round carries fairness data")
    lines: list[str] = []
    try:
        _walk(record, verifying=True, report=lines)
    except RecordError as exc:
        return Verification(tuple(lines), str(exc))
    return Verification(tuple(lines), None)


__all__ = [
    "BOT_PREFIX",
    "FORMAT",
    "Fairness",
    "MatchRecord",
    "PlayEntry",
    "RecordBuilder",
    "ReplayJson",
    "ReplayResult",
    "RoundJson",
    "RoundRecord",
    "Verification",
    "dumps",
    "fairness_problem",
    "parse_record",
    "replay",
    "replay_json",
    "round_deck",
    "seat_parts_problem",
    "to_json",
    "verify",
]
