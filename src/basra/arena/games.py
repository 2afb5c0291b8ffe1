"""The games of ``basra arena``: two players on many duplicate deals, every game through the
match driver.

A *player* is a bot level, a searching bot with its budget, or an external program
speaking basra-engine/1 (:mod:`basra.engine_protocol.outside_bots`):

- ``random``, ``easy``, ``medium``, ``hard``, ``expert``: our bots;
- ``hard/N`` (``expert/N``): the searching bot with N search iterations a play;
  ``hard@S``: capped at S seconds a play; ``hard/N@S``: both. Without ``@S`` there is no
  time cap, so the bot is deterministic given its seed and the arena reproducible (with a
  cap, results depend on the machine's speed and load, and so on ``--jobs``). Plain
  ``hard`` and ``expert`` are ``hard/1500`` and ``expert/3000``;
- ``oracle``: perfect play that sees every hand and the stock (:mod:`basra.bots.oracle`),
  the yardstick the other levels are measured by; only the arena has it;
- ``cmd:COMMAND``: an external program, the command split like a shell would
  (``cmd:"python3 examples/random_bot.py"``). One process a side (a worker), reused from
  game to game and given a fresh ``seed`` option before each game when it announces one.

**Duplicate deals.** Every deal (a round's deck with ``--rounds``; a match's sequence of
decks with ``--matches``) is played once for each side A can take: A plays side 0, then
side 1, and so on, B playing every other side. With two sides (two players, or four in two
teams) that is each deal twice with the seats swapped; with three or four solo players A
takes each seat in turn against B in all the others. Luck in the cards cancels out: the
A-B difference is paired over each deal's games.

**Openings.** With ``--openings FILE`` the deals come from a file instead
(:func:`read_openings`): each line one deal, its decks given card by card, so two arenas
of different players, or different seeds, play exactly the same cards. Rounds past the
decks a line gives (a long match) are shuffled from server seeds made from that line.

**Reproducible.** Every game is played through the match driver (:mod:`basra.match.driver`), and
every round is seeded as the server seeds a bot's round (FAIRNESS.md): round ``r`` of deal
``d`` (both 1-based) has the server seed ``SHA-256("basra-arena/1|SEED|MODE-d|r")`` (``MODE``
is ``rounds`` or ``matches``), nonce ``r``, and a client seed of every seat's part derived
from that server seed, so a deal's decks are the same whoever sits where. Each game gives
each side's bot its own seed derived from ``--seed``, the deal and the seating, so results do
not depend on ``--jobs``.

Each game gives a :class:`GameResult`: its rounds' figures from A's and B's point of view,
who won the match (``--matches``) and how long each play took. :func:`run_games` plays
them all, here or in ``--jobs`` worker processes; :mod:`basra.arena.stats` makes the
figures.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import shlex
import signal
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Literal, NamedTuple

from basra.bots import LEVELS, ORACLE, make_bot
from basra.bots.base import Bot, SearchBot
from basra.bots.oracle import OracleBot
from basra.engine_protocol.outside_bots import PLAY_TIMEOUT, ExternalBot
from basra.errors import BasraError
from basra.game.cards import parse_card
from basra.game.engine import Play, Round, check_deck
from basra.game.rules import MatchLength, Rules, find_variant
from basra.game.seating import Seating
from basra.game.shuffle import client_seed, shuffled_deck
from basra.game.views import SeatView
from basra.match.driver import MatchDriver, Player, RoundSource

Mode = Literal["rounds", "matches"]
FORMAT = "basra-arena/1"
DEFAULT_ROUNDS = 100
MAX_MATCH_ROUNDS = 1000
"""A match still undecided after this many rounds is an error (it never happens)."""


class ArenaError(BasraError):
    """A failure while the arena runs (an external program's errors are their own)."""

    code = "arena/failed"


# --------------------------------------------------------------------------- players


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player as given on the command line."""

    text: str
    level: str | None = None
    """A bot level, or ``None`` for an external program."""
    iterations: int | None = None
    time_cap: float | None = None
    command: str | None = None

    @property
    def external(self) -> bool:
        return self.command is not None


def parse_player(text: str) -> PlayerSpec:
    """Read a player spec (``medium``, ``hard/3000``, ``expert/3000@2``, ``cmd:COMMAND``).
    Raises ``ValueError`` with a one-line message."""
    raw = text.strip()
    if raw.startswith("cmd:"):
        command = raw[4:].strip()
        try:
            args = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"bad command in {text!r}: {exc}") from None
        if not args:
            raise ValueError(f"{text!r}: cmd: needs a command, e.g. cmd:\"python3 bot.py\"")
        return PlayerSpec(raw, command=command)
    head, _, cap_text = raw.partition("@")
    level, _, iter_text = head.partition("/")
    level = level.lower()
    if level == ORACLE:
        if head != level or "@" in raw:
            raise ValueError(f"{text!r}: the oracle takes no budget")
        return PlayerSpec(raw, level)
    if level not in LEVELS:
        raise ValueError(f"unknown player {text!r}: expected a level ({', '.join(LEVELS)}), "
                         f"{ORACLE}, LEVEL/ITERATIONS[@SECONDS] or cmd:COMMAND")
    if not issubclass(LEVELS[level], SearchBot) and (
            iter_text or cap_text or "/" in head or "@" in raw):
        raise ValueError(f"{text!r}: only a searching level (hard, expert) takes a budget "
                         "(LEVEL/ITERATIONS[@SECONDS])")
    iterations = None
    if "/" in head:
        if not iter_text.isdigit() or int(iter_text) < 1:
            raise ValueError(f"{text!r}: iterations must be a whole number from 1 up")
        iterations = int(iter_text)
    time_cap = None
    if "@" in raw:
        try:
            time_cap = float(cap_text.removesuffix("s"))
        except ValueError:
            time_cap = -1.0
        if not 0 < time_cap < math.inf:
            raise ValueError(f"{text!r}: the time cap must be a number of seconds above 0")
    return PlayerSpec(raw, level, iterations, time_cap)


class _Player:
    """A player within one worker task: a fresh bot every game, or one external process
    reseeded every game."""

    def __init__(self, spec: PlayerSpec, timeout: float) -> None:
        self.spec = spec
        self.timeout = timeout
        self.external: ExternalBot | None = None

    def for_game(self, seed: int, truth: Callable[[], Round]) -> Bot | OracleBot:
        """The game's player; ``truth`` gives the true round (only the oracle asks)."""
        spec = self.spec
        if spec.command is not None:
            if self.external is None:
                self.external = ExternalBot(spec.command, timeout=self.timeout)
            if self.external.has_seed:
                self.external.set_option("seed", seed)
            return self.external
        assert spec.level is not None
        if spec.level == ORACLE:
            return OracleBot(seed, truth)
        if issubclass(LEVELS[spec.level], SearchBot):
            return make_bot(spec.level, seed, iterations=spec.iterations,
                            time_cap=spec.time_cap or 0)
        return make_bot(spec.level, seed)

    def close(self) -> None:
        if self.external is not None:
            self.external.close()
            self.external = None


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """Everything that decides an arena's results (``--jobs`` does not)."""

    a: PlayerSpec
    b: PlayerSpec
    variant: str = "egyptian"
    players: int = 2
    teams: bool = False
    mode: Mode = "rounds"
    deals: int = DEFAULT_ROUNDS
    seed: int = 0
    timeout: float = PLAY_TIMEOUT
    openings: tuple[tuple[tuple[int, ...], ...], ...] = ()
    """With ``--openings``: each deal's given decks, first round first (the rounds after
    them are shuffled from seeds the deal's decks make)."""
    length: MatchLength = "full"
    """``short`` for shorter matches (RULES.md 6.5; ``--length short``, with ``--matches``).
    A deal's decks do not depend on it."""

    @property
    def rules(self) -> Rules:
        return find_variant(self.variant, self.length)

    @property
    def seating(self) -> Seating:
        return Seating(self.players, self.teams)

    @property
    def sides(self) -> int:
        return self.seating.sides

    def server_seed(self, deal: int, round_number: int) -> str:
        """The server seed of round ``round_number`` (1-based) of deal ``deal`` (0-based)."""
        if self.openings:
            given = ",".join(" ".join(map(str, deck)) for deck in self.openings[deal])
            text = f"{FORMAT}|openings|{hashlib.sha256(given.encode()).hexdigest()}|" \
                   f"{round_number}"
        else:
            text = f"{FORMAT}|{self.seed}|{self.mode}-{deal + 1}|{round_number}"
        return hashlib.sha256(text.encode()).hexdigest()

    def given_deck(self, deal: int, round_number: int) -> tuple[int, ...] | None:
        """The deck the openings file gives this round, if it gives one."""
        if not self.openings or round_number > len(self.openings[deal]):
            return None
        return self.openings[deal][round_number - 1]

    def deck(self, deal: int, round_number: int) -> tuple[int, ...]:
        """The deck of round ``round_number`` (1-based) of deal ``deal`` (0-based): the
        openings file's, or the fair shuffle of its server seed, every seat's part derived
        from it."""
        given = self.given_deck(deal, round_number)
        if given is not None:
            return given
        seed = self.server_seed(deal, round_number)
        parts = client_seed(seed, round_number, [None] * self.players)
        return shuffled_deck(seed, parts, round_number)

    def bot_seed(self, deal: int, seating: int, side: str) -> int:
        digest = hashlib.sha256(f"{FORMAT}|{self.seed}|{deal}|{seating}|{side}".encode())
        return int.from_bytes(digest.digest()[:8], "big") >> 1


class RoundFigures(NamedTuple):
    """One round of one game, from A's and B's point of view (B: mean per B side)."""

    a_points: int
    b_points: float
    a_basras: int
    b_basras: float


class GameResult(NamedTuple):
    """One game: deal ``deal`` played with A on side ``seating``."""

    deal: int
    seating: int
    rounds: tuple[RoundFigures, ...]
    a_won: bool | None
    """With ``--matches``: whether A won the match; ``None`` in round mode."""
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]
    """Seconds each ``choose`` call took, per side."""
    a_deals: tuple[int, ...] = ()
    b_deals: tuple[int, ...] = ()
    """The deal of the round (1-based) each of those calls was made in."""


class Timed:
    """A player whose every ``choose`` is timed (the view is made before the clock starts)."""

    def __init__(self, inner: Player, times: list[float],
                 deals: list[int] | None = None) -> None:
        self.inner = inner
        self.times = times
        self.deals = deals

    def choose(self, view: SeatView, /) -> Play:
        start = time.perf_counter()
        choice = self.inner.choose(view)
        self.times.append(time.perf_counter() - start)
        if self.deals is not None:
            self.deals.append(view.deal_number)
        return choice


def play_game(driver: MatchDriver, players: Sequence[Player], seeds: RoundSource,
              rounds: int, decks: Callable[[int], tuple[int, ...] | None] | None = None
              ) -> None:
    """Play up to ``rounds`` rounds through ``driver``, stopping when the match is decided:
    each round committed to its server seed, dealt from its parts, and played by asking
    ``players`` (one a seat) in turn. A round for which ``decks`` gives a deck is dealt
    from that deck instead."""
    while driver.match.rounds_started < rounds and not driver.match.over:
        given = None if decks is None else decks(driver.next_round)
        if given is not None:
            driver.deal_deck(given)
        else:
            server_seed, parts = seeds(driver.next_round)
            driver.commit(server_seed)
            driver.deal(parts)
        driver.play_round(players)


def _play_game(cfg: ArenaConfig, deal: int, a_side: int, a: _Player, b: _Player
               ) -> GameResult:
    seating = cfg.seating
    driver: MatchDriver | None = None

    def truth() -> Round:  # what the oracle sees: the whole round
        assert driver is not None and driver.match.round is not None
        return driver.match.round

    a_bot = a.for_game(cfg.bot_seed(deal, a_side, "a"), truth)
    b_bot = b.for_game(cfg.bot_seed(deal, a_side, "b"), truth)
    a_times: list[float] = []
    b_times: list[float] = []
    a_deals: list[int] = []
    b_deals: list[int] = []
    a_seats = [seating.side_of(s) == a_side for s in range(cfg.players)]
    players = [Timed(a_bot, a_times, a_deals) if a else Timed(b_bot, b_times, b_deals)
               for a in a_seats]
    driver = MatchDriver(cfg.rules, seating, [(a_bot if a else b_bot).name for a in a_seats])
    rounds = 1 if cfg.mode == "rounds" else MAX_MATCH_ROUNDS
    play_game(driver, players, lambda number: (cfg.server_seed(deal, number), ()), rounds,
              lambda number: cfg.given_deck(deal, number))
    match = driver.match
    if cfg.mode == "matches" and not match.over:
        raise ArenaError(f"deal {deal + 1}: the match is undecided after "
                         f"{MAX_MATCH_ROUNDS} rounds")
    others = cfg.sides - 1
    figures = tuple(
        RoundFigures(r.points[a_side], (sum(r.points) - r.points[a_side]) / others,
                     r.basras[a_side], (sum(r.basras) - r.basras[a_side]) / others)
        for r in match.results)
    a_won = None if cfg.mode == "rounds" else match.winner == a_side
    return GameResult(deal, a_side, figures, a_won, tuple(a_times), tuple(b_times),
                      tuple(a_deals), tuple(b_deals))


def play_deals(cfg: ArenaConfig, deals: Sequence[int]) -> list[GameResult]:
    """Play ``deals`` (0-based numbers), each once per seating, in order."""
    with ExitStack() as stack:
        a = _Player(cfg.a, cfg.timeout)
        stack.callback(a.close)
        b = _Player(cfg.b, cfg.timeout)
        stack.callback(b.close)
        return [_play_game(cfg, deal, seating, a, b)
                for deal in deals for seating in range(cfg.sides)]


def _task(args: tuple[ArenaConfig, list[int]]
          ) -> tuple[list[int], list[GameResult] | tuple[str, str]]:
    """A worker's task: its deals and their games, or the one-line failure and its code."""
    cfg, deals = args
    try:
        return deals, play_deals(cfg, deals)
    except BasraError as exc:
        return deals, (" ".join(str(exc).split()), exc.code)


def _quiet() -> None:
    """A worker leaves Ctrl-C to the arena, which stops it (and keeps what is done)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


CHUNK_MOST = 8
"""Deals a worker plays in one task at most: the progress moves (and Ctrl-C keeps what
was done) every few deals, even in a long run."""


def _chunks(deals: int, jobs: int) -> list[list[int]]:
    size = max(1, min(CHUNK_MOST, math.ceil(deals / (jobs * 8))))
    return [list(range(i, min(i + size, deals))) for i in range(0, deals, size)]


Progress = Callable[[list[GameResult]], None]
"""Told the games of each finished deal (all its seatings), as they finish."""


@dataclass
class Played:
    """The games of the deals played so far, in deal and seating order; ``interrupted``
    when Ctrl-C stopped the arena before every deal was played."""

    games: list[GameResult]
    interrupted: bool = False

    @property
    def deals(self) -> int:
        return len({g.deal for g in self.games})


def run_games(cfg: ArenaConfig, jobs: int = 1, progress: Progress | None = None) -> Played:
    """Every game, in deal and seating order, with ``jobs`` worker processes (1: here);
    ``progress`` is told each deal's games as they finish. Ctrl-C stops the arena: the
    deals finished by then are kept (``interrupted``)."""
    done: dict[int, list[GameResult]] = {}

    def finished(games: list[GameResult]) -> None:
        for game in games:
            done.setdefault(game.deal, []).append(game)
        if progress is not None:
            for deal in sorted({g.deal for g in games}):
                progress(done[deal])

    def played(interrupted: bool = False) -> Played:
        return Played([g for deal in sorted(done) for g in done[deal]], interrupted)

    if jobs <= 1 or cfg.deals <= 1:
        try:
            for deal in range(cfg.deals):
                finished(play_deals(cfg, [deal]))
        except KeyboardInterrupt:
            return played(interrupted=True)
        return played()
    context = multiprocessing.get_context("spawn")
    try:
        pool = context.Pool(jobs, initializer=_quiet)
    except KeyboardInterrupt:  # before the workers were up
        return played(interrupted=True)
    try:
        for _, answer in pool.imap_unordered(
                _task, [(cfg, chunk) for chunk in _chunks(cfg.deals, jobs)]):
            if isinstance(answer, tuple):
                raise BasraError(answer[0], answer[1])
            finished(answer)
    except KeyboardInterrupt:
        pool.terminate()
        return played(interrupted=True)
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()
    return played()


__all__ = [
    "DEFAULT_ROUNDS",
    "FORMAT",
    "MAX_MATCH_ROUNDS",
    "ArenaConfig",
    "ArenaError",
    "GameResult",
    "Mode",
    "Played",
    "PlayerSpec",
    "Progress",
    "RoundFigures",
    "Timed",
    "parse_player",
    "play_deals",
    "play_game",
    "read_openings",
    "run_games",
]


def read_openings(path: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The deals of an openings file: a line a deal (blank lines and lines starting with
    ``#`` skipped), each one or more decks separated by ``|``, a deck being the 52 card
    names top first separated by spaces. Raises :class:`ArenaError` with the line number."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"openings: cannot read {path!r}: "
                         f"{getattr(exc, 'strerror', None) or exc}") from None
    deals = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        decks = []
        for part in text.split("|"):
            try:
                decks.append(check_deck([parse_card(c) for c in part.split()]))
            except BasraError as exc:
                raise ArenaError(f"openings: line {number}: {exc}") from None
        deals.append(tuple(decks))
    if not deals:
        raise ArenaError(f"openings: {path!r} holds no deal")
    return tuple(deals)
