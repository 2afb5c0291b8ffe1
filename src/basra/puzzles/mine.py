"""Mining puzzles: last-deal positions from self-play and from finished match records,
each first play solved exactly, kept when one beats the rest by a clear margin
(docs/PUZZLES.md).

**Self-play.** Game ``i`` of a run is one two-player round seeded by
``SHA-256("basra-puzzles/1|VARIANT|SEED|i")``: its deck, its dealer, the carry coming in
(30 one time in eight where a 26-26 tie carries, else 0) and each seat's bot, drawn from
:data:`BOT_MIX` (medium mostly, easy and a short-budget hard bot for variety). The bots
play to the last deal; from there every position whose seat to play has two or more
plays is a candidate, in order, and the first that makes a puzzle is the game's one
puzzle (so two puzzles never come from one deal). Games are independent, so a run with
``jobs`` processes finds exactly the puzzles of a run with one.

**Records.** Every two-player round of the records given (files, or folders of ``*.json``)
is replayed, and its last-deal positions are candidates the same way (one puzzle a round,
the carry as the match had it). Only positions are kept: no player name.

Records come first, then self-play games until ``count`` distinct puzzles (deduplicated by
id, so a position and its mirror count once) are found.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.errors import BasraError
from basra.game.engine import (
    Match,
    Round,
    deal_round,
    legal_plays,
    new_match,
    play,
    play_unchecked,
    start_round,
)
from basra.game.rules import find_variant
from basra.game.views import view
from basra.match.records import MatchRecord, parse_record, round_deck
from basra.puzzles.model import Position, Puzzle, PuzzleError
from basra.puzzles.solve import MARGIN, build

SEED_FORMAT = "basra-puzzles/1"
BOT_MIX: tuple[tuple[str, int, int], ...] = (("medium", 0, 5), ("easy", 0, 2),
                                              ("hard", 24, 3))
"""The self-play seats' bots: (level, search iterations or 0, weight)."""
CARRY_ODDS = 8
"""One game in this many starts with a carry of 30 (where a tie carries)."""
CHUNK = 50
"""Games a worker process plays per task."""

Progress = Callable[[int, int], None]
"""Called with (puzzles found, games played) as mining goes."""


@dataclass
class MiningReport:
    """What a mining run found and how."""

    puzzles: list[Puzzle] = field(default_factory=list)
    games: int = 0
    """Self-play games played."""
    records: int = 0
    """Records read."""
    skipped_records: list[str] = field(default_factory=list)
    """One line per record that could not be read or replayed."""
    from_records: int = 0
    candidates: int = 0
    """Positions solved."""
    duplicates: int = 0


def _rng(variant: str, seed: int, game: int) -> random.Random:
    digest = hashlib.sha256(f"{SEED_FORMAT}|{variant}|{seed}|{game}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _bot(rng: random.Random) -> Bot:
    level, iterations, _ = rng.choices(BOT_MIX, weights=[w for _, _, w in BOT_MIX])[0]
    bot_seed = rng.getrandbits(63)
    if iterations:
        return make_bot(level, bot_seed, iterations=iterations, time_cap=0)
    return make_bot(level, bot_seed)


def _candidates(rnd: Round, choose: Callable[[Round], Round]) -> Iterator[Round]:
    """The positions of ``rnd``'s last deal from where it stands, each followed by
    ``choose`` (the next play)."""
    while not rnd.finished:
        if rnd.stock_left == 0 and len(legal_plays(rnd)) >= 2:
            yield rnd
        rnd = choose(rnd)


def _first_puzzle(positions: Iterable[Round], carry: int, margin: int
                  ) -> tuple[Puzzle | None, int]:
    """The first of ``positions`` that makes a puzzle, and how many were solved."""
    solved = 0
    for rnd in positions:
        solved += 1
        puzzle = build(Position.of(rnd, carry), margin)
        if puzzle is not None:
            return puzzle, solved
    return None, solved


def game_puzzle(variant: str, seed: int, game: int, margin: int = MARGIN
                ) -> tuple[Puzzle | None, int]:
    """Self-play game ``game`` of a run: its puzzle (or ``None``) and the positions solved."""
    rules = find_variant(variant)
    rng = _rng(variant, seed, game)
    deck = list(range(52))
    rng.shuffle(deck)
    dealer = rng.randrange(2)
    carry = 0
    if rules.majority == "27-of-52" and rng.randrange(CARRY_ODDS) == 0:
        carry = rules.majority_points
    bots = (_bot(rng), _bot(rng))
    match = new_match(rules, 2)._replace(rounds_started=1, carry=carry)

    def choose(rnd: Round) -> Round:
        """The round after the bot of the seat to play has played."""
        seat = rnd.turn
        chosen = bots[seat].choose(view(match._replace(round=rnd), seat))
        return play_unchecked(rnd, chosen.card, chosen.take)

    rnd = deal_round(rules, 2, dealer, deck)
    while rnd.stock_left:
        rnd = choose(rnd)
    return _first_puzzle(_candidates(rnd, choose), carry, margin)


def _games(variant: str, seed: int, start: int, stop: int, margin: int
           ) -> list[tuple[Puzzle | None, int]]:
    """A worker's task: games ``start`` to ``stop - 1``."""
    return [game_puzzle(variant, seed, g, margin) for g in range(start, stop)]


def record_files(sources: Sequence[str | Path]) -> list[Path]:
    """The record files of ``sources``: files as given, folders' ``*.json`` sorted."""
    out: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*.json") if p.is_file()))
        else:
            out.append(path)
    return out


def record_puzzles(record: MatchRecord, margin: int = MARGIN
                   ) -> Iterator[tuple[Puzzle | None, int]]:
    """Each complete two-player round's puzzle (or ``None``) of a record, and the positions
    solved; :class:`~basra.errors.BasraError` when a play is illegal."""
    if len(record.players) != 2 or record.teams:
        return
    rules = record.rules
    match: Match = new_match(rules, 2)
    for rnd_record in record.rounds:
        if match.over or len(rnd_record.plays) != rules.plays_per_round:
            return
        match = start_round(match, round_deck(rnd_record))
        carry = match.carry
        states: list[Round] = []
        for entry in rnd_record.plays:
            assert match.round is not None
            states.append(match.round)
            match = play(match, entry.play)
        yield _first_puzzle((r for r in states if r.stock_left == 0
                             and len(legal_plays(r)) >= 2), carry, margin)


def mine(  # noqa: PLR0913 - the run's knobs, each a command-line option
        variant: str, count: int, seed: int, records: Sequence[str | Path] = (), *,
        margin: int = MARGIN, jobs: int = 1, progress: Progress | None = None
        ) -> MiningReport:
    """Mine ``count`` distinct puzzles of ``variant`` (a two-player one): first from the
    ``records`` (files or folders), then from self-play games seeded by ``seed``."""
    rules = find_variant(variant)
    if (2, False) not in rules.seatings:
        raise PuzzleError(f"{rules.name} is not played by two", "puzzle/bad_variant")
    report = MiningReport()
    seen: set[str] = set()

    def keep(puzzle: Puzzle | None) -> None:
        """Add a found puzzle unless its id is already in, or the count is reached."""
        if puzzle is None or len(report.puzzles) >= count:
            return
        if puzzle.id in seen:
            report.duplicates += 1
            return
        seen.add(puzzle.id)
        report.puzzles.append(puzzle)

    for path in record_files(records):
        report.records += 1
        try:
            record = parse_record(path.read_bytes())
            if record.rules.name != rules.name:
                continue
            for puzzle, solved in record_puzzles(record, margin):
                report.candidates += solved
                before = len(report.puzzles)
                keep(puzzle)
                report.from_records += len(report.puzzles) - before
        except (OSError, BasraError) as exc:
            report.skipped_records.append(f"{path}: {' '.join(str(exc).split()) or 'cut short'}")
    for puzzle, solved in _self_play(rules.name, seed, margin, jobs):
        if len(report.puzzles) >= count:
            break
        report.games += 1
        report.candidates += solved
        keep(puzzle)
        if progress is not None and report.games % 10 == 0:
            progress(len(report.puzzles), report.games)
    if progress is not None:
        progress(len(report.puzzles), report.games)
    return report


def _self_play(variant: str, seed: int, margin: int, jobs: int
               ) -> Iterator[tuple[Puzzle | None, int]]:
    """Every self-play game's result, in game order, forever (the caller stops)."""
    if jobs <= 1:
        game = 0
        while True:
            yield game_puzzle(variant, seed, game, margin)
            game += 1
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: list[Future[list[tuple[Puzzle | None, int]]]] = []
        start = 0
        try:
            while True:
                while len(pending) < 2 * jobs:
                    pending.append(pool.submit(_games, variant, seed, start, start + CHUNK,
                                               margin))
                    start += CHUNK
                yield from pending.pop(0).result()
        finally:
            for future in pending:
                future.cancel()


__all__ = ["BOT_MIX", "MiningReport", "game_puzzle", "mine", "record_files",
           "record_puzzles"]
