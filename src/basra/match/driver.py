"""The match driver: the one way a match is played, whoever plays it.

A :class:`MatchDriver` holds a match and everything around the engine's pure functions
that every way of playing needs: each round's server seed and commitment (FAIRNESS.md),
the client seed made from the seats' parts, the deal, whose turn it is, checking and
applying a play (once), the match record, and the end of each round and of the match.
What happens is told to the caller as :data:`Event` values.

The terminal (``basra play``), the arena, the server's table actor and record replay all
drive their matches through it. Callers that can ask their players synchronously (bots, an
outside engine, a person at a terminal) use :meth:`MatchDriver.play_round`; the server,
whose remote seats answer over a socket, steps the driver itself: :meth:`check` a play,
store it, then :meth:`apply` what ``check`` returned.

>>> from basra.bots import make_bot
>>> from basra.game.rules import find_variant
>>> d = MatchDriver(find_variant("egyptian"), Seating(2), ["bot:random", "bot:random"])
>>> d.commit("00" * 32).commitment[:8]
'66687aad'
>>> d.deal().number, d.to_play
(1, 1)
>>> events = d.play_round([make_bot("random", seed=1), make_bot("random", seed=2)])
>>> type(events[-1]).__name__, len(d.record.build().rounds[0].plays)
('RoundOver', 48)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from basra.errors import IllegalPlayError
from basra.game.engine import Match, Play, PlayLog, RoundResult, new_match, start_round
from basra.game.engine import play as engine_play
from basra.game.rules import Rules
from basra.game.seating import Seating
from basra.game.shuffle import client_seed, commitment, new_server_seed, shuffled_deck
from basra.game.views import PublicPlay, RoundSummary, SeatView, public_plays, summaries, view
from basra.match.records import Fairness, MatchRecord, RecordBuilder


class Player(Protocol):
    """Anyone the driver can ask for a play: a bot, an outside engine, a person."""

    def choose(self, view: SeatView, /) -> Play: ...


@dataclass(frozen=True, slots=True)
class RoundSeeds:
    """A round's fair-shuffle seeds: committed first, the client seed once it is made."""

    number: int
    server_seed: str
    commitment: str
    client_seed: str | None = None

    @property
    def fairness(self) -> Fairness | None:
        if self.client_seed is None:
            return None
        return Fairness(self.server_seed, self.client_seed, self.number, self.commitment)


# Events: what the driver tells its caller.
@dataclass(frozen=True, slots=True)
class Committed:
    """The next round's server seed is drawn; its commitment may be published."""

    seeds: RoundSeeds


@dataclass(frozen=True, slots=True)
class Dealt:
    """A round is dealt (``seeds`` is None for a round dealt from a given deck)."""

    number: int
    seeds: RoundSeeds | None


@dataclass(frozen=True, slots=True)
class Played:
    """A play was applied; ``log`` is the engine's entry for it (basra points included)."""

    seat: int
    play: Play
    log: PlayLog
    before: Match
    """The match just before the play (its floor is what the play took from)."""


@dataclass(frozen=True, slots=True)
class RoundOver:
    """Round ``number`` (1-based) ended with its last play; ``result`` is its scoring."""

    number: int
    result: RoundResult


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match is decided: ``winner`` is the winning side."""

    winner: int


Event = Committed | Dealt | Played | RoundOver | MatchOver
Listener = Callable[[Event], None]

RoundSource = Callable[[int], tuple[str, Sequence[str | None]]]
"""Where a match's rounds get their seeds: a round's number (1-based) to its server seed and
the seats' parts of its client seed (a missing or ``None`` part: the one derived from the
server seed, as for every bot)."""


class MatchDriver:
    """One match, driven round by round. ``players`` are the names the record keeps (a
    bot's seat is named ``bot:LEVEL``). ``rules`` set the match's length too: a shorter
    match's (``find_variant(name, "short")``, RULES.md 6.5) ends at its shorter target, and
    its record says ``"length": "short"``."""

    def __init__(self, rules: Rules, seating: Seating, players: Sequence[str],
                 listener: Listener | None = None) -> None:
        self.rules = rules
        self.seating = seating
        self.match: Match = new_match(rules, seating.seats, seating.teams)
        self.record = RecordBuilder(rules, players, seating.teams)
        self.rounds: list[RoundSeeds] = []
        self.listener = listener
        self.keep_decks = False
        """Whether the record gives each seeded round's deck next to its fairness data
        (``basra play``'s records do; the server's give the seeds only)."""
        self._summaries: tuple[RoundSummary, ...] = ()
        self._summaries_of: object = None
        self._plays: tuple[PublicPlay, ...] = ()
        self._plays_of: object = None
        self.resigned: int | None = None
        """The seat whose player resigned the match, if one did."""

    # ------------------------------------------------------------------ state

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is, or None when no round is in progress."""
        if not self.match.in_round or self.match.winner is not None:
            return None
        assert self.match.round is not None
        return self.match.round.turn

    @property
    def pending(self) -> RoundSeeds | None:
        """The committed round not dealt yet, if any."""
        if self.rounds and self.rounds[-1].client_seed is None:
            return self.rounds[-1]
        return None

    @property
    def next_round(self) -> int:
        return self.match.rounds_started + 1

    def view(self, seat: int | None) -> SeatView:
        """``seat``'s view of the match now. The finished rounds' summaries and the
        round's public plays are kept as the match goes (one more play each time), not made
        again for every view."""
        match = self.match
        if match.results is not self._summaries_of:
            self._summaries, self._summaries_of = summaries(match), match.results
        rnd = match.round
        log = rnd.log if rnd is not None else None
        if log is not self._plays_of:
            if log is not None and self._plays_of is not None and log.previous is self._plays_of:
                self._plays += (PublicPlay(log.seat, log.card, log.take, log.basra),)
            else:
                self._plays = public_plays(match)
            self._plays_of = log
        return view(match, seat, results=self._summaries, plays=self._plays)

    def rename(self, players: Sequence[str]) -> None:
        """New names for the seats (a table's seats filled before the first round)."""
        if self.record.build().rounds:
            raise IllegalPlayError("the match has begun: its players are set",
                                   "play/match_begun")
        self.record = RecordBuilder(self.rules, players, self.seating.teams)

    def build_record(self) -> MatchRecord:
        return self.record.build()

    # ------------------------------------------------------------------ seeding and dealing

    def commit(self, server_seed: str | None = None) -> RoundSeeds:
        """Draw (or take) the next round's server seed and publish its commitment."""
        if self.pending is not None:
            if server_seed is not None and server_seed.lower() != self.pending.server_seed:
                raise IllegalPlayError(f"round {self.pending.number} is committed to another "
                                       "server seed", "play/committed")
            return self.pending
        seed = (server_seed or new_server_seed()).lower()
        seeds = RoundSeeds(self.next_round, seed, commitment(seed))
        self.rounds.append(seeds)
        self._tell(Committed(seeds))
        return seeds

    def client_seed(self, parts: Sequence[str | None] = ()) -> str:
        """The pending round's client seed from the seats' parts (``None`` or missing: the
        part derived from the committed seed, as for every bot)."""
        seeds = self.pending
        if seeds is None:
            raise IllegalPlayError("no round is committed", "play/no_commitment")
        padded = [*parts, *[None] * (self.seating.seats - len(parts))]
        return client_seed(seeds.server_seed, seeds.number, padded)

    def deal(self, parts: Sequence[str | None] = (), *, seed: str | None = None) -> RoundSeeds:
        """Deal the pending round (committing one first if none is), its client seed made
        from ``parts`` or given whole as ``seed``."""
        seeds = self.pending or self.commit()
        full = seed if seed is not None else self.client_seed(parts)
        seeds = RoundSeeds(seeds.number, seeds.server_seed, seeds.commitment, full)
        deck = shuffled_deck(seeds.server_seed, full, seeds.number)
        self.match = start_round(self.match, deck)
        self.rounds[-1] = seeds
        fairness = seeds.fairness
        assert fairness is not None
        self.record.start_round(deck=deck if self.keep_decks else None, fairness=fairness)
        self._tell(Dealt(seeds.number, seeds))
        return seeds

    def deal_deck(self, deck: Sequence[int], fairness: Fairness | None = None,
                  keep_deck: bool = True) -> None:
        """Deal the next round from a given deck (top first), without seeds of the
        driver's own: the arena's fixed deals, a record's rounds."""
        cards = tuple(deck)
        self.match = start_round(self.match, cards)
        self.record.start_round(deck=cards if keep_deck or fairness is None else None,
                                fairness=fairness)
        self._tell(Dealt(self.match.rounds_started, None))

    # ------------------------------------------------------------------ plays

    def check(self, seat: int | None, move: Play) -> Match:
        """The match after ``seat`` plays ``move``, without applying it; raises
        :class:`~basra.errors.IllegalPlayError` for a play the rules forbid (``seat`` None:
        whoever's turn it is, as for a record's play that names no seat)."""
        return engine_play(self.match, move, seat)

    def apply(self, seat: int, move: Play, after: Match | None = None) -> list[Event]:
        """Apply a play (``after``: what :meth:`check` returned for it, so the engine
        applies it once); returns the events it made (the play, the round's and the
        match's end)."""
        before = self.match
        self.match = after if after is not None else engine_play(before, move, seat)
        self.record.add_play(move, seat)
        rnd = self.match.round
        assert rnd is not None and rnd.log is not None
        events: list[Event] = [Played(seat, move, rnd.log, before)]
        if rnd.finished:
            events.append(RoundOver(self.match.rounds_started, self.match.results[-1]))
            if self.match.winner is not None:
                events.append(MatchOver(self.match.winner))
        for event in events:
            self._tell(event)
        return events

    def resign(self, seat: int) -> MatchOver:
        """The player of ``seat`` resigns: the match ends now (:func:`resigned_match`)."""
        self.match = resigned_match(self.match, seat)
        self.resigned = seat
        self.record.resign(seat)
        assert self.match.winner is not None
        event = MatchOver(self.match.winner)
        self._tell(event)
        return event

    def play_round(self, players: Sequence[Player]) -> list[Event]:
        """Ask the players in turn until the dealt round ends; the events it made."""
        events: list[Event] = []
        while (seat := self.to_play) is not None:
            events += self.apply(seat, players[seat].choose(self.view(seat)))
        return events

    def _tell(self, event: Event) -> None:
        if self.listener is not None:
            self.listener(event)


def resigned_match(match: Match, seat: int) -> Match:
    """The match after the player of ``seat`` resigned: it is decided at once, against
    the resigner's side. With two sides the other side wins; with more, the other side
    with the most points (Serbian: sets, then points) wins, a tie going to the side seated
    first after the resigner.

    >>> from basra.game.engine import new_match
    >>> from basra.game.rules import find_variant
    >>> resigned_match(new_match(find_variant("egyptian"), 2), 1).winner
    0
    """
    if match.winner is not None:
        raise IllegalPlayError("the match is already decided", "resign/match_over")
    if not 0 <= seat < match.seats:
        raise IllegalPlayError(f"there is no seat {seat}", "resign/bad_seat")
    loser = match.side_of(seat)
    sides = match.sides
    others = [(loser + step) % sides for step in range(1, sides)]
    winner = max(others, key=lambda side: (match.sets[side], match.totals[side],
                                           -others.index(side)))
    return match._replace(winner=winner)


__all__ = [
    "Committed",
    "Dealt",
    "Event",
    "MatchDriver",
    "MatchOver",
    "Played",
    "Player",
    "RoundOver",
    "RoundSeeds",
    "RoundSource",
    "resigned_match",
]
