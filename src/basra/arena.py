"""``basra arena``: two players, many duplicate deals, figures with 95% intervals.

A *player* is a bot level, a hard bot with its budget, or an external program speaking
basra-engine/1 (:mod:`basra.bot_protocol`):

- ``random``, ``easy``, ``medium``, ``hard``: our bots;
- ``hard/N``: the hard bot with N search iterations a play; ``hard@S``: capped at S
  seconds a play; ``hard/N@S``: both. Without ``@S`` there is no time cap, so the hard bot
  is deterministic given its seed and the arena reproducible (with a cap, results depend
  on the machine's speed and load, and so on ``--jobs``). Plain ``hard`` is
  ``hard/1500``;
- ``cmd:COMMAND``: an external program, the command split like a shell would
  (``cmd:"python3 examples/random_bot.py"``). One process a side (a worker), reused from
  game to game and given a fresh ``seed`` option before each game when it announces one.

**Duplicate deals.** Every deal (a round's deck with ``--rounds``; a match's sequence of
decks with ``--matches``) is played once for each side A can take: A plays side 0, then
side 1, and so on, B playing every other side. With two sides (two players, or four in two
teams) that is each deal twice with the seats swapped; with three or four solo players A
takes each seat in turn against B in all the others. Luck in the cards cancels out: the
A-B difference is paired over each deal's games.

**Reproducible.** Every game is played through the match driver (:mod:`basra.driver`), and
every round is seeded as the server seeds a bot's round (FAIRNESS.md): round ``r`` of deal
``d`` (both 1-based) has the server seed ``SHA-256("basra-arena/1|SEED|MODE-d|r")`` (``MODE``
is ``rounds`` or ``matches``), nonce ``r``, and a client seed of every seat's part derived
from that server seed, so a deal's decks are the same whoever sits where. Each game gives
each side's bot its own seed derived from ``--seed``, the deal and the seating, so results do
not depend on ``--jobs``.

**Figures.** Per deal, the mean over its games of each game's per-round mean; then, over the
deals, the mean with a 95% t interval: round points per side (B's per B seat when B holds
several), the per-round point difference A-B (paired), basras per round per side. Match
wins (``--matches``) with a 95% Wilson interval. Think time per play per side: median and
95th percentile, in milliseconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import secrets
import shlex
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Literal, NamedTuple, TypedDict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from basra.bot_protocol import PLAY_TIMEOUT, ExternalBot
from basra.bots import LEVELS, make_bot
from basra.bots.base import Bot
from basra.bots.hard import DEFAULT_ITERATIONS
from basra.cliargs import OneLineParser, parse_or_status, seconds, whole_number
from basra.driver import MatchDriver, Player, RoundSource
from basra.engine import Play
from basra.errors import BasraError
from basra.rules import Rules, find_variant
from basra.seating import Seating
from basra.shuffle import client_seed, shuffled_deck
from basra.views import SeatView

Mode = Literal["rounds", "matches"]
FORMAT = "basra-arena/1"
DEFAULT_ROUNDS = 100
MAX_MATCH_ROUNDS = 1000
"""A match still undecided after this many rounds is an error (it never happens)."""
Z95 = 1.959963984540054

_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t, two-sided 95%, for 1 to 30 degrees of freedom."""


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
    """Read a player spec (``medium``, ``hard/3000``, ``hard/3000@2``, ``cmd:COMMAND``).
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
    if level not in LEVELS:
        raise ValueError(f"unknown player {text!r}: expected a level ({', '.join(LEVELS)}), "
                         "hard/ITERATIONS[@SECONDS] or cmd:COMMAND")
    if level != "hard" and (iter_text or cap_text or "/" in head or "@" in raw):
        raise ValueError(f"{text!r}: only hard takes a budget (hard/ITERATIONS[@SECONDS])")
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

    def for_game(self, seed: int) -> Bot:
        spec = self.spec
        if spec.command is not None:
            if self.external is None:
                self.external = ExternalBot(spec.command, timeout=self.timeout)
            if self.external.has_seed:
                self.external.set_option("seed", seed)
            return self.external
        assert spec.level is not None
        if spec.level == "hard":
            return make_bot("hard", seed, iterations=spec.iterations or DEFAULT_ITERATIONS,
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

    @property
    def rules(self) -> Rules:
        return find_variant(self.variant)

    @property
    def seating(self) -> Seating:
        return Seating(self.players, self.teams)

    @property
    def sides(self) -> int:
        return self.seating.sides

    def server_seed(self, deal: int, round_number: int) -> str:
        """The server seed of round ``round_number`` (1-based) of deal ``deal`` (0-based)."""
        text = f"{FORMAT}|{self.seed}|{self.mode}-{deal + 1}|{round_number}"
        return hashlib.sha256(text.encode()).hexdigest()

    def deck(self, deal: int, round_number: int) -> tuple[int, ...]:
        """The deck of round ``round_number`` (1-based) of deal ``deal`` (0-based): the fair
        shuffle of its server seed, every seat's part derived from it."""
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


class Timed:
    """A player whose every ``choose`` is timed (the view is made before the clock starts)."""

    def __init__(self, inner: Player, times: list[float]) -> None:
        self.inner = inner
        self.times = times

    def choose(self, view: SeatView, /) -> Play:
        start = time.perf_counter()
        choice = self.inner.choose(view)
        self.times.append(time.perf_counter() - start)
        return choice


def play_game(driver: MatchDriver, players: Sequence[Player], seeds: RoundSource,
              rounds: int) -> None:
    """Play up to ``rounds`` rounds through ``driver``, stopping when the match is decided:
    each round committed to its server seed, dealt from its parts, and played by asking
    ``players`` (one a seat) in turn."""
    while driver.match.rounds_started < rounds and not driver.match.over:
        server_seed, parts = seeds(driver.next_round)
        driver.commit(server_seed)
        driver.deal(parts)
        driver.play_round(players)


def _play_game(cfg: ArenaConfig, deal: int, a_side: int, a: _Player, b: _Player
               ) -> GameResult:
    seating = cfg.seating
    a_bot = a.for_game(cfg.bot_seed(deal, a_side, "a"))
    b_bot = b.for_game(cfg.bot_seed(deal, a_side, "b"))
    a_times: list[float] = []
    b_times: list[float] = []
    a_seats = [seating.side_of(s) == a_side for s in range(cfg.players)]
    players = [Timed(a_bot, a_times) if a else Timed(b_bot, b_times) for a in a_seats]
    driver = MatchDriver(cfg.rules, seating, [(a_bot if a else b_bot).name for a in a_seats])
    rounds = 1 if cfg.mode == "rounds" else MAX_MATCH_ROUNDS
    play_game(driver, players, lambda number: (cfg.server_seed(deal, number), ()), rounds)
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
    return GameResult(deal, a_side, figures, a_won, tuple(a_times), tuple(b_times))


def play_deals(cfg: ArenaConfig, deals: Sequence[int]) -> list[GameResult]:
    """Play ``deals`` (0-based numbers), each once per seating, in order."""
    with ExitStack() as stack:
        a = _Player(cfg.a, cfg.timeout)
        stack.callback(a.close)
        b = _Player(cfg.b, cfg.timeout)
        stack.callback(b.close)
        return [_play_game(cfg, deal, seating, a, b)
                for deal in deals for seating in range(cfg.sides)]


def _task(cfg: ArenaConfig, deals: Sequence[int]) -> list[GameResult] | tuple[str, str]:
    """A worker's task: the games, or the one-line failure and its code."""
    try:
        return play_deals(cfg, deals)
    except BasraError as exc:
        return (" ".join(str(exc).split()), exc.code)


def _chunks(deals: int, jobs: int) -> list[list[int]]:
    size = max(1, math.ceil(deals / (jobs * 4)))
    return [list(range(i, min(i + size, deals))) for i in range(0, deals, size)]


def run_games(cfg: ArenaConfig, jobs: int = 1) -> list[GameResult]:
    """Every game, in deal and seating order, with ``jobs`` worker processes (1: here)."""
    if jobs <= 1 or cfg.deals <= 1:
        return play_deals(cfg, range(cfg.deals))
    context = multiprocessing.get_context("spawn")
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures: list[Future[list[GameResult] | tuple[str, str]]] = [
            pool.submit(_task, cfg, chunk) for chunk in _chunks(cfg.deals, jobs)]
        try:
            for future in futures:
                done = future.result()
                if isinstance(done, tuple):
                    raise BasraError(done[0], done[1])
                results.extend(done)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return results


# --------------------------------------------------------------------------- figures


class Interval(TypedDict):
    """A mean with its 95% interval (``low``/``high`` are null with fewer than 2 deals)."""

    mean: float
    low: float | None
    high: float | None


class Wins(TypedDict):
    played: int
    a_wins: int
    b_wins: int
    a_rate: float
    low: float
    high: float
    a_rate_if_equal: float
    """A's expected share if both players were equally strong (1 / sides)."""


class Think(TypedDict):
    plays: int
    median: float | None
    p95: float | None


class Sides(TypedDict):
    a: Interval
    b: Interval


class ArenaReport(TypedDict):
    """What ``basra arena --json`` prints."""

    format: str
    variant: str
    players: int
    teams: bool
    a: str
    b: str
    mode: Mode
    deals: int
    games: int
    rounds: int
    seed: int
    points_per_round: Sides
    difference_per_round: Interval
    basras_per_round: Sides
    match_wins: Wins | None
    think_ms_per_play: dict[str, Think]


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("need at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95  # Cornish-Fisher expansion, good to 4 digits from 30 up
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with its 95% t interval."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean=_r(mean), low=None, high=None)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return Interval(mean=_r(mean), low=_r(mean - half), high=_r(mean + half))


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, center - half), min(1.0, center + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _r(x: float, digits: int = 4) -> float:
    return round(x, digits) + 0.0


def _think(times: list[float]) -> Think:
    if not times:
        return Think(plays=0, median=None, p95=None)
    return Think(plays=len(times), median=_r(percentile(times, 0.5) * 1000, 3),
                 p95=_r(percentile(times, 0.95) * 1000, 3))


def _per_deal(games: list[GameResult], field: int) -> list[float]:
    """Per deal, the mean over its games of each game's per-round mean of ``field``."""
    by_deal: dict[int, list[float]] = {}
    for g in games:
        per_round = math.fsum(float(r[field]) for r in g.rounds) / len(g.rounds)
        by_deal.setdefault(g.deal, []).append(per_round)
    return [math.fsum(v) / len(v) for _, v in sorted(by_deal.items())]


def report(cfg: ArenaConfig, games: list[GameResult]) -> ArenaReport:
    """The arena's figures from its games."""
    a_pts, b_pts = _per_deal(games, 0), _per_deal(games, 1)
    diff = [x - y for x, y in zip(a_pts, b_pts, strict=True)]
    wins: Wins | None = None
    if cfg.mode == "matches":
        a_wins = sum(1 for g in games if g.a_won)
        low, high = wilson(a_wins, len(games))
        wins = Wins(played=len(games), a_wins=a_wins, b_wins=len(games) - a_wins,
                    a_rate=_r(a_wins / len(games)), low=_r(low), high=_r(high),
                    a_rate_if_equal=_r(1 / cfg.sides))
    return ArenaReport(
        format=FORMAT,
        variant=cfg.variant,
        players=cfg.players,
        teams=cfg.teams,
        a=cfg.a.text,
        b=cfg.b.text,
        mode=cfg.mode,
        deals=cfg.deals,
        games=len(games),
        rounds=sum(len(g.rounds) for g in games),
        seed=cfg.seed,
        points_per_round=Sides(a=mean_interval(a_pts), b=mean_interval(b_pts)),
        difference_per_round=mean_interval(diff),
        basras_per_round=Sides(a=mean_interval(_per_deal(games, 2)),
                               b=mean_interval(_per_deal(games, 3))),
        match_wins=wins,
        think_ms_per_play={"a": _think([t for g in games for t in g.a_times]),
                           "b": _think([t for g in games for t in g.b_times])},
    )


def run(cfg: ArenaConfig, jobs: int = 1) -> ArenaReport:
    """Play the arena and report it."""
    return report(cfg, run_games(cfg, jobs))


# --------------------------------------------------------------------------- showing


def _show_interval(x: Interval, digits: int = 2) -> str:
    """``mean ± half``: t intervals are symmetric."""
    if x["low"] is None or x["high"] is None:
        return f"{x['mean']:.{digits}f}"
    return f"{x['mean']:.{digits}f} ± {(x['high'] - x['low']) / 2:.{digits}f}"


def _show_ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.0f}" if value >= 100 else f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def seating_text(cfg: ArenaConfig) -> str:
    """How each deal is seated, in words."""
    if cfg.teams:
        return "each deal twice, A's team on seats 0+2 then on seats 1+3"
    if cfg.players == 2:
        return "each deal twice, A on seat 0 then on seat 1"
    return (f"each deal {cfg.players} times, A on each seat in turn, "
            f"B on the other {cfg.players - 1}")


def print_table(cfg: ArenaConfig, rep: ArenaReport) -> None:
    """The report as a table for people."""
    seating = cfg.seating.describe()
    unit = "rounds" if cfg.mode == "rounds" else "matches"
    notes = [f"duplicate: {seating_text(cfg)}", f"{rep['games']} games, {rep['rounds']} rounds",
             "± : 95% interval over deals (paired for A - B)"]
    if rep["match_wins"] is not None:
        notes.append("match wins: 95% Wilson interval")
    if not cfg.teams and cfg.players > 2:
        notes.append("B: mean per B seat")
    table = Table(title=f"basra arena: {cfg.variant}, {seating}, {cfg.deals} deals "
                        f"({unit}), seed {cfg.seed}",
                  caption=escape("; ".join(notes)))
    table.add_column("")
    table.add_column(escape(f"A: {cfg.a.text}"), justify="right")
    table.add_column(escape(f"B: {cfg.b.text}"), justify="right")
    table.add_column("A - B", justify="right")
    pts, basras = rep["points_per_round"], rep["basras_per_round"]
    table.add_row("points per round", _show_interval(pts["a"]), _show_interval(pts["b"]),
                  _show_interval(rep["difference_per_round"]))
    table.add_row("basras per round", _show_interval(basras["a"], 3),
                  _show_interval(basras["b"], 3), "")
    wins = rep["match_wins"]
    if wins is not None:
        table.add_row("match wins",
                      escape(f"{wins['a_wins']} of {wins['played']}: {wins['a_rate']:.1%} "
                             f"[{wins['low']:.1%}, {wins['high']:.1%}]"),
                      f"{wins['b_wins']} of {wins['played']}",
                      f"even: {wins['a_rate_if_equal']:.1%}")
    think = rep["think_ms_per_play"]
    table.add_row("think ms a play, median", _show_ms(think["a"]["median"]),
                  _show_ms(think["b"]["median"]), "")
    table.add_row("think ms a play, p95", _show_ms(think["a"]["p95"]),
                  _show_ms(think["b"]["p95"]), "")
    Console().print(table)


# --------------------------------------------------------------------------- the command


def _player(text: str) -> PlayerSpec:
    try:
        return parse_player(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> OneLineParser:
    """The ``basra arena`` argument parser."""
    parser = OneLineParser(
        prog="basra arena",
        description="Play two players against each other on duplicate deals and report "
                    "points, basras, match wins and think time with 95% intervals.",
        epilog="PLAYER: random, easy, medium, hard; hard/ITERATIONS, hard@SECONDS or "
               "hard/ITERATIONS@SECONDS for a budget (no time cap unless @ is given); "
               "cmd:COMMAND for an external program speaking basra-engine/1.")
    parser.add_argument("--a", required=True, type=_player, metavar="PLAYER",
                        help="player A")
    parser.add_argument("--b", required=True, type=_player, metavar="PLAYER",
                        help="player B")
    parser.add_argument("--variant", default="egyptian",
                        help="egyptian (default), arabic101, lebanese or serbian")
    parser.add_argument("--players", type=whole_number(1), metavar="N",
                        help="number of players (default: 2, or 4 with --teams)")
    parser.add_argument("--teams", action="store_true",
                        help="four players in two teams (implied where 4 only play in teams)")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=whole_number(1), metavar="N",
                       help=f"play N duplicate deals of one round each (default "
                            f"{DEFAULT_ROUNDS})")
    count.add_argument("--matches", type=whole_number(1), metavar="N",
                       help="play N duplicate deals of a whole match each")
    parser.add_argument("--seed", type=whole_number(0, "seed"), metavar="S",
                        help="seed of the decks and bots (default: random, reported)")
    parser.add_argument("--jobs", type=whole_number(1), default=1, metavar="J",
                        help="worker processes (results do not depend on it)")
    parser.add_argument("--timeout", type=seconds("timeout"), default=PLAY_TIMEOUT, metavar="S",
                        help=f"seconds an external program may take a play (default "
                             f"{PLAY_TIMEOUT:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def config_from_args(args: argparse.Namespace) -> ArenaConfig:
    """The arena's configuration; raises :class:`~basra.errors.BasraError` for a bad
    combination (a usage error: exit status 2)."""
    rules = find_variant(args.variant)
    players = args.players or (4 if args.teams else min(rules.player_counts))
    seating = Seating.choose(rules, players, bool(args.teams))
    mode: Mode = "matches" if args.matches else "rounds"
    deals = args.matches or args.rounds or DEFAULT_ROUNDS
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    return ArenaConfig(a=args.a, b=args.b, variant=rules.name, players=players,
                       teams=seating.teams,
                       mode=mode, deals=deals, seed=seed, timeout=args.timeout)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``basra arena``. Exit status: 0, 1 when a player fails (one line on standard
    error), 2 for bad arguments."""
    parser = build_parser()
    args = parse_or_status(parser, argv)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    try:
        cfg = config_from_args(args)
    except BasraError as exc:
        return parser.complain(str(exc))
    try:
        rep = run(cfg, args.jobs)
    except BasraError as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("basra arena: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a traceback
        print(f"basra arena: internal error: {type(exc).__name__}: "
              f"{' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rep))
    else:
        print_table(cfg, rep)
    return 0


__all__ = [
    "ArenaConfig",
    "ArenaReport",
    "GameResult",
    "PlayerSpec",
    "build_parser",
    "main",
    "mean_interval",
    "parse_player",
    "play_deals",
    "play_game",
    "report",
    "run",
    "run_games",
    "wilson",
]


if __name__ == "__main__":
    sys.exit(main())
