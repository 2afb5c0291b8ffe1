"""Replaying and verifying match records (basra-record/1, RECORDS.md; FAIRNESS.md).

A record is replayed the way every match is played: through a
:class:`~basra.match.driver.MatchDriver`, each round dealt from its deck (as given, or the one its
seeds give) and each play checked and applied by the driver, so a record that replays is
one the engine would have let happen. :func:`replay` makes the legality checks;
:func:`verify` adds FAIRNESS.md's checks of every round that carries fairness data,
including check 3 on the seats' parts of the client seed
(:func:`~basra.match.records.seat_parts_problem`), which only :func:`verify` makes.

Every problem is a :class:`~basra.errors.RecordError` with a one-line message that starts
with ``record:`` (the whole record), ``round N:`` (a round) or ``round N, play M:`` (a play),
both numbers 1-based.

>>> from basra.match.records import RecordBuilder, dumps, parse_record
>>> from basra.game.shuffle import shuffled_deck
>>> builder = RecordBuilder("egyptian", ["amira", "bot:expert"])
>>> builder.start_round(deck=shuffled_deck("00" * 32, "", 1))
>>> result = replay(parse_record(dumps(builder.build())))
>>> replay_json(result)
{'variant': 'egyptian', 'rounds': [], 'winner': None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from basra.errors import BasraError, RecordError
from basra.game.engine import Match, RoundResult
from basra.game.seating import Seating
from basra.match.driver import MatchDriver
from basra.match.records import MatchRecord, fairness_problem, round_deck, seat_parts_problem


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


def replay(record: MatchRecord) -> ReplayResult:
    """Replay a record under its variant's rules (a short record's: RULES.md 6.5), checking
    every play.

    Raises :class:`RecordError` for an illegal record: a play the rules forbid, a deck that
    disagrees with the round's seeds, a commitment that does not match its server seed, a
    round left incomplete before the last, or a round after the match was decided.
    """
    return ReplayResult(record, _walk(record, verifying=False, report=[]))


def _walk(record: MatchRecord, *, verifying: bool, report: list[str]) -> Match:
    """Replay every round through a :class:`~basra.match.driver.MatchDriver`, appending a line
    to ``report`` for each one that passed.

    ``verifying`` adds the nonce check and the seats' parts check (FAIRNESS.md's check 3,
    made after the commitment and the deck, before the plays) and says ``not fair`` when a
    round with fairness data fails (its plays do not fit the deck its seeds give)."""
    driver = MatchDriver(record.rules, Seating(len(record.players), record.teams),
                         record.players)
    for number, rnd in enumerate(record.rounds, 1):
        label = "not fair: " if verifying and rnd.fairness is not None else ""
        if driver.match.over:
            raise RecordError(f"round {number}: the match was decided in round {number - 1}; "
                              "a record may not go on after that")
        reason = fairness_problem(number, rnd, check_nonce_number=verifying)
        if reason is None and verifying and rnd.fairness is not None:
            reason = seat_parts_problem(record.players, rnd.fairness)
        if reason is not None:
            raise RecordError(f"round {number}: {label}{reason}")
        try:
            driver.deal_deck(round_deck(rnd), rnd.fairness, keep_deck=rnd.deck is not None)
        except BasraError as exc:  # only for records built by hand, not parsed
            raise RecordError(f"round {number}: {exc}") from None
        for index, entry in enumerate(rnd.plays, 1):
            seat = entry.seat if entry.seat is not None else driver.to_play
            try:
                after = driver.check(seat, entry.play)
            except BasraError as exc:
                raise RecordError(f"round {number}, play {index}: {label}{exc}") from None
            assert seat is not None  # the check passed: a round is in progress
            driver.apply(seat, entry.play, after)
        _check_complete(number, driver.match, number == len(record.rounds))
        report.append(f"round {number}: " + ("fair" if rnd.fairness else "no fairness data"))
    if record.resigned is not None:
        if driver.match.over:
            raise RecordError(f"record: seat {record.resigned} resigned after the match was "
                              "decided")
        driver.resign(record.resigned)
    return driver.match


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
    length: NotRequired[str]
    """``"short"`` for a shorter match (RULES.md 6.5); absent for a full one."""


def replay_json(result: ReplayResult) -> ReplayJson:
    """The object ``basra replay --json`` prints (RECORDS.md): per complete round the
    cards, basras, points, carry and totals per side, and the winner (or ``None``); a short
    match's says ``"length": "short"``."""
    rules = result.match.rules
    multi_set = rules.sets_to_win > 1
    rounds = []
    for res in result.results:
        row = RoundJson(cards=list(res.cards), basras=list(res.basras),
                        points=list(res.points), carry=res.carry, totals=list(res.totals))
        if multi_set and res.set_winner is not None:
            row["set_winner"] = res.set_winner
        rounds.append(row)
    if multi_set:
        out = ReplayJson(variant=rules.name, rounds=rounds, sets=list(result.match.sets),
                         winner=result.winner)
    else:
        out = ReplayJson(variant=rules.name, rounds=rounds, winner=result.winner)
    if rules.length != "full":
        out["length"] = rules.length
    return out


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
    "ReplayJson",
    "ReplayResult",
    "RoundJson",
    "Verification",
    "replay",
    "replay_json",
    "verify",
]
