"""Engine-assistance detection (issue 31): the corpus, the model, the threshold.

``--build`` makes the corpus (slow: about two hours of one core's half on the shared
machine). Bots of every level (random, easy, medium, hard, expert; the searching ones at
their default budgets without a time cap, so every match is the same every time) play
seeded two-player egyptian matches, 30 of every pair of levels and of every level against
itself, and each match is analysed as the server analyses a finished match (its
``analysis_iterations``, seed 0). For each seat of each match the corpus keeps its
decisions with a choice, each as four whole numbers (:data:`FIELDS`): the gap (the best
play's value less the runner-up's, ``second_value``) and the cost of the play made in
hundredths of a point, the deal of the round, and whether the best play lays a card down.
It lands in ``benchmarks/data/assist_corpus.json.gz`` (written again every few matches:
``--build --resume`` goes on where a stopped build was).

Without ``--build`` it simulates players from the shipped corpus (about a minute):

- **honest players**: bots of every level (each game one of the level's games in the
  corpus; a fifth of the players, every level alike), and human-like players: each a
  per-player mixture of two neighbouring levels below the expert (random-easy, easy-medium,
  medium-hard: a share of its decisions played at the upper level, the rest at the lower)
  and slips (up to 5% of decisions played as the random bot plays). A decision "played at a
  level" is one of that level's decisions in the corpus of the same class (deal, what the
  best play does) at about the same gap, so the position stays and only the choice changes.
- **assisted players**: a human-like base that on a share ``p`` of its decisions plays as
  the expert bot played in the corpus (so with the expert's agreement with the analysis,
  not a perfect one: the analysis is a 300-iteration search, the expert a 3,000-iteration
  one playing for the match).

Every player has a rating: the bot levels' (:data:`basra.match.assist.LEVEL_RATINGS`, from
the ladder of docs/BENCHMARKS.md) interpolated by the points the player gives away a
decision, plus the rating's wander about the strength (:data:`RATING_NOISE`). An assisted
player starts at its honest strength's rating and its rating follows its assisted strength
as Glicko-2 would (:data:`CATCH_UP_GAMES`); ``--catch-up F`` starts it a share F of the way
there (a player who took help long before).

Each player plays ``--games`` (20) games and is judged after each as the server judges
(:func:`basra.match.assist.score` over the last :data:`basra.match.assist.GAMES`). The
report: the false flags at the shipped threshold, the score 1 honest player in 1,000
reaches, and the share of assisted players flagged at each share ``p`` within 5, 10, 15
and 20 games. ``--fit`` fits the model (honest players rated exactly as strong as they play)
and prints it as the module's constants, with the 1-in-1,000 score and the detection at
``p`` = 0.5 for each weight of the agreement.

    .venv/bin/python benchmarks/assist_detection.py --build [--resume]    # the corpus
    .venv/bin/python benchmarks/assist_detection.py --fit                 # the model
    .venv/bin/python benchmarks/assist_detection.py [--honest 100000] [--seed 2] [--json]
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from basra.bots import LEVELS, make_bot
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.match import assist
from basra.match.analysis import analyse
from basra.match.driver import MatchDriver
from basra.match.records import MatchRecord
from basra.ratings import Rating, rate_game
from basra.server.config import Settings

CORPUS = Path(__file__).parent / "data" / "assist_corpus.json.gz"
CORPUS_FORMAT = "basra-assist-corpus/2"
ANALYSIS_SEED = 0
"""The server's analysis seed (``basra.server.reads.analyses.SEED``)."""
MAX_ROUNDS = 12
"""A match still undecided after this many rounds is cut there (random against random)."""
SAVE_EVERY = 5


def server_iterations() -> int:
    """The budget the server analyses a finished match with (its default settings)."""
    return Settings().analysis_iterations


# ---------------------------------------------------------------------------- the corpus


def pairs(levels: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of levels, each level against itself too."""
    return [(a, b) for i, a in enumerate(levels) for b in levels[i:]]


def play_match(seed: int, levels: tuple[str, str]) -> MatchRecord:
    """One seeded egyptian match of two bots (seat 0 the first level); every round's deal
    from a server seed made from ``seed``; searching bots at their default budget without a
    time cap."""
    driver = MatchDriver(find_variant("egyptian"), Seating(2), [f"bot:{x}" for x in levels])
    bots = [make_bot(level, seed=f"assist|{seed}|{seat}", time_cap=0)
            for seat, level in enumerate(levels)]
    number = 0
    while driver.match.winner is None and number < MAX_ROUNDS:
        number += 1
        driver.commit(f"{seed:032x}{number:032x}")
        driver.deal()
        driver.play_round(bots)
    return driver.build_record()


FIELDS = ("gap", "cost", "deal", "lays")
"""What the corpus keeps of each decision with a choice, in this order (whole numbers)."""


def decision_of(play: dict[str, Any], seats: int) -> list[int]:
    """One decision of an analysis (basra-analysis/1) as the corpus keeps it: the gap (the
    best play's value less the runner-up's; 0 when every play was valued the same) and the
    cost in hundredths of a point, the deal of the round it was in (0 the first), and 1
    when the best play lays a card down (0 when it takes)."""
    second = play["second_value"]
    return [0 if second is None else round(100 * (play["best_value"] - second)),
            round(100 * play["cost"]), (play["number"] - 1) // (4 * seats),
            int(not play["best_take"])]


def seat_decisions(document: dict[str, Any], seat: int) -> list[list[int]]:
    """A seat's decisions with a choice from an analysis document (:func:`decision_of`)."""
    seats = len(document["players"])
    return [decision_of(p, seats) for p in document["plays"]
            if p["seat"] == seat and p["choices"] > 1]


def load_corpus(path: Path = CORPUS) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    if data.get("format") != CORPUS_FORMAT:
        raise SystemExit(f"{path}: not a {CORPUS_FORMAT} corpus")
    return data


def save_corpus(data: dict[str, Any], path: Path = CORPUS) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    with gzip.GzipFile(part, "wb", compresslevel=9, mtime=0) as f:
        f.write(json.dumps(data, separators=(",", ":")).encode())
    part.replace(path)


def build(matches_per_pair: int, resume: bool, iterations: int) -> None:
    """Plays and analyses the corpus's matches, round-robin over the pairs of levels (so a
    stopped build is balanced), saving every :data:`SAVE_EVERY` matches."""
    levels = list(LEVELS)
    schedule = [(seed, pair) for seed in range(1, matches_per_pair + 1)
                for pair in pairs(levels)]
    if resume and CORPUS.exists():
        data = load_corpus()
        if data["iterations"] != iterations:
            raise SystemExit("the corpus was analysed with another budget")
    else:
        data = {"format": CORPUS_FORMAT, "variant": "egyptian", "iterations": iterations,
                "analysis_seed": ANALYSIS_SEED, "levels": levels, "fields": list(FIELDS),
                "matches": []}
    done = {(m["seed"], tuple(m["levels"])) for m in data["matches"]}
    todo = [(s, p) for s, p in schedule if (s, p) not in done]
    print(f"{len(done)} matches in the corpus, {len(todo)} to play and analyse "
          f"({iterations} iterations a play)", file=sys.stderr)
    started = time.perf_counter()
    for n, (seed, pair) in enumerate(todo, 1):
        t0 = time.process_time()
        record = play_match(seed, pair)
        t1 = time.process_time()
        document = analyse(record, iterations=iterations, seed=ANALYSIS_SEED).to_json()
        t2 = time.process_time()
        data["matches"].append({"seed": seed, "levels": list(pair),
                                "rounds": len(record.rounds),
                                "seats": [seat_decisions(document, s) for s in (0, 1)]})
        if n % SAVE_EVERY == 0 or n == len(todo):
            save_corpus(data)
        elapsed = time.perf_counter() - started
        print(f"{n}/{len(todo)} seed {seed} {pair[0]}-{pair[1]}: {len(record.rounds)} rounds, "
              f"play {t1 - t0:.1f} s, analysis {t2 - t1:.1f} s (cpu); {elapsed / 60:.1f} min "
              f"so far, about {elapsed / n * (len(todo) - n) / 60:.0f} min left",
              file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- players

Decision = tuple[int, int, int]
"""A decision with a choice: its gap and cost in hundredths of a point, and the class it
would be in if clear (:func:`basra.match.assist.class_of`)."""
DEALS = find_variant("egyptian").plays_per_round // 8
"""Deals in a round of two-player egyptian."""
HUMAN_PAIRS: tuple[tuple[tuple[str, str], float], ...] = (
    (("random", "easy"), 0.2), (("easy", "medium"), 0.4), (("medium", "hard"), 0.4))
"""A human-like player mixes two neighbouring levels below the expert (with these odds)."""
MIXES = tuple(i / 10 for i in range(11))
"""The human-like player's share of decisions at the upper level."""
SLIPS = (0.0, 0.02, 0.05)
"""The human-like player's share of decisions played as the random bot would."""
BOT_SHARE = 0.2
"""The share of bots (every level alike, the expert too) among the honest players."""
SHARES = (0.25, 0.5, 0.75, 1.0)
"""Shares of decisions an assisted player takes from the expert."""
CHECKPOINTS = (5, 10, 15, 20, 30, 40)
NEAREST = 8
"""A decision played at another level is one of this many of its decisions nearest by gap
on each side."""


@dataclass(frozen=True, slots=True)
class Recipe:
    """How a simulated player plays: decisions at ``lower``, a share ``mix`` at ``upper``,
    a share ``slips`` as the random bot, a share ``assisted`` as the expert (first)."""

    lower: str
    upper: str | None = None
    mix: float = 0.0
    slips: float = 0.0
    assisted: float = 0.0

    @property
    def pure(self) -> bool:
        return not (self.mix or self.slips or self.assisted)


class Corpus:
    """The corpus as levels' games, and each level's decisions by class sorted by gap."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.iterations: int = data["iterations"]
        self.matches = len(data["matches"])
        self.games: dict[str, list[list[Decision]]] = {level: [] for level in data["levels"]}
        for match in data["matches"]:
            for level, decisions in zip(match["levels"], match["seats"], strict=True):
                self.games[level].append([
                    (gap, cost, assist.class_of(DEALS - 1 - deal, bool(lays)))
                    for gap, cost, deal, lays in decisions])
        self.sorted: dict[tuple[str, int], list[Decision]] = {}
        for level, games in self.games.items():
            for c in range(len(assist.CLASSES)):
                self.sorted[level, c] = sorted(d for game in games for d in game if d[2] == c)
        self.gaps = {key: [d[0] for d in ds] for key, ds in self.sorted.items()}

    def near(self, level: str, decision: Decision, rng: random.Random) -> Decision:
        """One of ``level``'s decisions of the same class at about the same gap."""
        gaps = self.gaps[level, decision[2]]
        i = bisect.bisect_left(gaps, decision[0]) + rng.randrange(-NEAREST, NEAREST)
        return self.sorted[level, decision[2]][min(max(i, 0), len(gaps) - 1)]

    def game(self, recipe: Recipe, rng: random.Random) -> list[Decision]:
        """One game of a player who plays by ``recipe``: a game of its lower or upper level
        (as it mixes them), each decision then played at the level the recipe draws."""
        upper = recipe.upper or recipe.lower
        base = upper if rng.random() < recipe.mix else recipe.lower
        game = rng.choice(self.games[base])
        if recipe.pure:
            return game
        out = []
        for decision in game:
            if rng.random() < recipe.assisted:
                level = "expert"
            else:
                u = rng.random()
                level = ("random" if u < recipe.slips else
                         upper if u < recipe.slips + (1 - recipe.slips) * recipe.mix else
                         recipe.lower)
            out.append(decision if level == base else self.near(level, decision, rng))
        return out


def summary(game: Sequence[Decision]) -> assist.GameSummary:
    """A simulated game as :func:`basra.match.assist.summarise` reads a real one."""
    clear_at = round(100 * assist.CLEAR_GAP)
    agreed_at = round(100 * assist.AGREED)
    clear = [0] * len(assist.CLASSES)
    agreed = [0] * len(assist.CLASSES)
    for gap, cost, c in game:
        if gap >= clear_at:
            clear[c] += 1
            agreed[c] += cost <= agreed_at
    return assist.GameSummary(len(game), sum(d[1] for d in game) / 100, tuple(clear),
                              tuple(agreed))


@dataclass(slots=True)
class Library:
    """Simulated games of one recipe, and what they give away a decision on average."""

    recipe: Recipe
    games: list[assist.GameSummary]
    cost: float


def library(corpus: Corpus, recipe: Recipe, size: int, rng: random.Random) -> Library:
    if recipe.pure:
        games = [summary(g) for g in corpus.games[recipe.lower]]
    else:
        games = [summary(corpus.game(recipe, rng)) for _ in range(size)]
    return Library(recipe, games, sum(g.cost for g in games) / sum(g.decisions for g in games))


def rating_of_cost(anchors: Sequence[tuple[float, float]], cost: float) -> float:
    """The rating of a player who gives away ``cost`` points a decision: the levels'
    ratings interpolated by their cost (``anchors``: (cost, rating), costliest first)."""
    if cost >= anchors[0][0]:
        return anchors[0][1]
    for (c0, r0), (c1, r1) in itertools.pairwise(anchors):
        if cost >= c1:
            return r0 + (c0 - cost) / (c0 - c1) * (r1 - r0)
    return anchors[-1][1]


@dataclass(slots=True)
class Player:
    """A simulated player: its group, its rating after each game, its games."""

    group: str
    ratings: list[float]
    games: list[assist.GameSummary]

    def scores(self) -> list[float | None]:
        """The score after each game, of its last :data:`basra.match.assist.GAMES` games
        with the rating then (None while too few decisions are clear to flag)."""
        out: list[float | None] = []
        classes = range(len(assist.CLASSES))
        decisions = 0
        cost = 0.0
        clear = [0] * len(assist.CLASSES)
        agreed = [0] * len(assist.CLASSES)
        judged = math.nan
        honest: tuple[assist.Honest, ...] = ()
        for n, (g, rating) in enumerate(zip(self.games, self.ratings, strict=True)):
            decisions += g.decisions
            cost += g.cost
            for c in classes:
                clear[c] += g.clear[c]
                agreed[c] += g.agreed[c]
            if n >= assist.GAMES:
                old = self.games[n - assist.GAMES]
                decisions -= old.decisions
                cost -= old.cost
                for c in classes:
                    clear[c] -= old.clear[c]
                    agreed[c] -= old.agreed[c]
            if sum(clear) < assist.MIN_CLEAR:
                out.append(None)
                continue
            if rating != judged:  # the strengths a rating allows, once a rating
                judged, honest = rating, assist.strengths(rating)
            out.append(min(h.score(decisions, cost, clear, agreed) for h in honest))
        return out


def first_flag(scores: Sequence[float | None], threshold: float) -> int | None:
    """The number of games after which a player is first flagged (None: never)."""
    for n, value in enumerate(scores, 1):
        if value is not None and value >= threshold:
            return n
    return None


RATING_NOISE = 40.0
"""The standard deviation of a rating about the player's strength. A steady player's
Glicko-2 rating under the site's parameters (basra.ratings: each game a period, the
deviation at its floor of 45) wanders about its strength with a standard deviation of 34
(``--glicko``: 200 players, 300 games each against opponents of known ratings); 40 allows
for a player's form changing too."""
CATCH_UP_GAMES = 76.0
"""How fast a rating follows a player whose strength jumps (one who starts taking help):
after ``k`` games it has moved ``1 - exp(-k / 76)`` of the way (``--glicko``: 12% after
10 games, 23% after 20, 41% after 40)."""


def glicko(players: int, rng: random.Random) -> dict[str, Any]:
    """How a rating (:mod:`basra.ratings`, as the site rates) follows a player's strength:
    ``players`` players of strength 1500 play 300 games against opponents of known ratings
    near them (the opponents' strengths 100 apart on average, their ratings 50 off); the
    standard deviation of the rating about the strength over the last 200 games, then how
    far the rating has moved after 1 to 40 games once the strength jumps by 240."""
    wander: list[float] = []
    moved: dict[int, list[float]] = {k: [] for k in (5, 10, 20, 40)}
    for _ in range(players):
        strength, rating = 1500.0, Rating()
        for game in range(340):
            if game == 300:
                start, strength = rating.rating, 1740.0
            opponent = 1500.0 + rng.gauss(0, 100)
            won = rng.random() < 1 / (1 + 10 ** ((opponent - strength) / 400))
            rating, _ = rate_game(rating, Rating(opponent + rng.gauss(0, 50), 60, 0.06),
                                  1.0 if won else 0.0)
            if 100 <= game < 300:
                wander.append(rating.rating - strength)
            if game >= 300 and game - 299 in moved:
                moved[game - 299].append((rating.rating - start) / 240)
    return {"wander": round(statistics.pstdev(wander), 1),
            "moved": {k: round(statistics.fmean(v), 3) for k, v in moved.items()}}


class Population:
    """The simulated players' libraries and ratings."""

    def __init__(self, corpus: Corpus, rng: random.Random, honest_size: int = 200,
                 assisted_size: int = 100, noise: float = RATING_NOISE,
                 catch_up: float = 0.0) -> None:
        self.corpus, self.rng, self.noise, self.catch_up = corpus, rng, noise, catch_up
        self.levels = {level: library(corpus, Recipe(level), 0, rng) for level in LEVELS}
        self.anchors = sorted(((lib.cost, assist.LEVEL_RATINGS[level])
                               for level, lib in self.levels.items()), reverse=True)
        self.human: dict[tuple[str, str, float, float], Library] = {}
        for (lower, upper), _ in HUMAN_PAIRS:
            for mix in MIXES:
                for slips in SLIPS:
                    recipe = Recipe(lower, upper, mix, slips)
                    self.human[lower, upper, mix, slips] = library(corpus, recipe,
                                                                   honest_size, rng)
        self.assisted: dict[tuple[str, str, float, float, float], Library] = {}
        for share in SHARES:
            for lower, upper, mix, slips in self.human:
                recipe = Recipe(lower, upper, mix, slips, share)
                self.assisted[lower, upper, mix, slips, share] = library(
                    corpus, recipe, assisted_size, rng)

    def rating(self, cost: float) -> float:
        return rating_of_cost(self.anchors, cost)

    def human_key(self) -> tuple[str, str, float, float]:
        rng = self.rng
        (lower, upper), = rng.choices([p for p, _ in HUMAN_PAIRS],
                                      [w for _, w in HUMAN_PAIRS])
        return lower, upper, rng.choice(MIXES), rng.choice(SLIPS)

    def honest(self, games: int) -> Player:
        """An honest player: a bot of any level, or a human-like player; rated by its
        strength with the rating's noise."""
        rng = self.rng
        if rng.random() < BOT_SHARE:
            level = rng.choice(list(LEVELS))
            lib, group = self.levels[level], f"bot {level}"
        else:
            key = self.human_key()
            lib, group = self.human[key], f"human {key[0]}-{key[1]}"
        rating = self.rating(lib.cost) + rng.gauss(0, self.noise)
        return Player(group, [rating] * games, rng.choices(lib.games, k=games))

    def cheat(self, share: float, games: int) -> Player:
        """A human-like player who takes the expert's play on ``share`` of its decisions
        from its first game on: its rating starts at its honest strength's (or
        :attr:`catch_up` of the way to its assisted strength's) and follows the assisted
        strength as a Glicko-2 rating does (:data:`CATCH_UP_GAMES`)."""
        rng = self.rng
        key = self.human_key()
        base = self.rating(self.human[key].cost)
        lib = self.assisted[(*key, share)]
        gain = self.rating(lib.cost) - base
        offset = base + rng.gauss(0, self.noise)
        ratings = [offset + gain * (1 - (1 - self.catch_up) * math.exp(-k / CATCH_UP_GAMES))
                   for k in range(1, games + 1)]
        return Player(f"assisted {share:g}", ratings, rng.choices(lib.games, k=games))


# ---------------------------------------------------------------------------- the model fit

NEAR = 50.0
"""The model's figures at a rating are those of the honest players rated this close."""


def _totals(p: Player) -> tuple[int, float, list[int], list[int]]:
    classes = range(len(assist.CLASSES))
    return (sum(g.decisions for g in p.games), sum(g.cost for g in p.games),
            [sum(g.clear[c] for g in p.games) for c in classes],
            [sum(g.agreed[c] for g in p.games) for c in classes])


def _weighted(a: Sequence[float], e: Sequence[float], n: Sequence[int], k: Sequence[int],
              ) -> tuple[float, float, float]:
    """A record's weighted excess agreement, its coin variance and its weight (as
    :func:`basra.match.assist.score` counts them)."""
    excess = binomial = weighted = 0.0
    for share, e_c, n_c, k_c in zip(a, e, n, k, strict=True):
        if n_c:
            a_c = min(max(share, assist.SURE), 1 - assist.SURE)
            var = a_c * (1 - a_c)
            w = max(0.0, e_c - a_c) / var
            excess += w * (k_c - n_c * a_c)
            binomial += w * w * n_c * var
            weighted += w * n_c
    return excess, binomial, weighted


def fit(population: Population, players: int, games: int) -> dict[str, Any]:
    """The rating model's constants from ``players`` honest players' ``games`` games, at
    each of :data:`basra.match.assist.RATINGS` from the players rated within
    :data:`NEAR` of it: each class's agreement and the cost a decision (their totals'
    ratios), one game's cost deviation (a decision's, from how each player's games vary
    about the player's own mean), and the spread between players beyond their games'
    noise; the agreement's dispersion against a coin's (pooled, from each player's games);
    and the expert bot's agreement by class (its corpus games)."""
    classes = range(len(assist.CLASSES))
    expert = population.levels["expert"].games
    expert_agreement = [sum(g.agreed[c] for g in expert) / max(1, sum(g.clear[c] for g in expert))
                        for c in classes]
    sample = [population.honest(games) for _ in range(players)]
    totals = [_totals(p) for p in sample]
    excess = binomial = 0.0
    for p, (_, _, n, k) in zip(sample, totals, strict=True):
        for c in classes:
            share = k[c] / n[c] if n[c] else 0.0
            excess += (sum((g.agreed[c] - g.clear[c] * share) ** 2 for g in p.games)
                       * games / (games - 1))
            binomial += n[c] * share * (1 - share)
    dispersion = excess / binomial
    near = [[i for i, p in enumerate(sample) if abs(p.ratings[-1] - knot) <= NEAR]
            or sorted(range(len(sample)), key=lambda i: abs(sample[i].ratings[-1] - knot))[:200]
            for knot in assist.RATINGS]
    agreement = [[sum(totals[i][3][c] for i in ids) / max(1, sum(totals[i][2][c] for i in ids))
                  for ids in near] for c in classes]
    cost, deviation, spread_a, spread_c = [], [], [], []
    for ids in near:
        m = sum(totals[i][0] for i in ids)
        c_r = sum(totals[i][1] for i in ids) / m
        var = sum(sum((g.cost - g.decisions * totals[i][1] / totals[i][0]) ** 2
                      for g in sample[i].games) for i in ids) * games / (games - 1)
        d = math.sqrt(var / m)
        res_a, noise_a, res_c, noise_c = [], [], [], []
        for i in ids:
            rating = sample[i].ratings[-1]
            a = [assist.between(rating, agreement[c]) for c in classes]
            ex, bi, we = _weighted(a, expert_agreement, totals[i][2], totals[i][3])
            if we:
                res_a.append(ex / we)
                noise_a.append(dispersion * bi / we / we)
            res_c.append(totals[i][1] / totals[i][0] - c_r)
            noise_c.append(d * d / totals[i][0])
        cost.append(c_r)
        deviation.append(d)
        spread_a.append(math.sqrt(max(MIN_SPREAD ** 2, statistics.pvariance(res_a)
                                      - statistics.fmean(noise_a))))
        spread_c.append(math.sqrt(max(MIN_SPREAD ** 2, statistics.pvariance(res_c)
                                      - statistics.fmean(noise_c))))
    return {"agreement": [[round(x, 4) for x in row] for row in agreement],
            "expert_agreement": [round(x, 4) for x in expert_agreement],
            "agreement_spread": [round(x, 4) for x in spread_a],
            "agreement_dispersion": round(dispersion, 3),
            "cost": [round(x, 4) for x in cost],
            "cost_deviation": [round(x, 3) for x in deviation],
            "cost_spread": [round(x, 4) for x in spread_c]}


MIN_SPREAD = 0.005
"""The least spread between players the fit gives (a rating's figures are never exact)."""


def use(model: dict[str, Any]) -> None:
    """Put a fitted model in :mod:`basra.match.assist` (for trying one before shipping)."""
    assist.AGREEMENT = tuple(tuple(row) for row in model["agreement"])
    assist.EXPERT_AGREEMENT = tuple(model["expert_agreement"])
    assist.AGREEMENT_SPREAD = tuple(model["agreement_spread"])
    assist.AGREEMENT_DISPERSION = model["agreement_dispersion"]
    assist.COST = tuple(model["cost"])
    assist.COST_DEVIATION = tuple(model["cost_deviation"])
    assist.COST_SPREAD = tuple(model["cost_spread"])


WEIGHTS = (0.6, 0.7, 0.8, 0.9, 1.0)
"""The agreement's weights in the score that ``--fit`` tries."""


def tune(population: Population, honest: int, assisted: int, games: int
         ) -> list[dict[str, float]]:
    """For each of :data:`WEIGHTS`, the score 1 honest player in 1,000 reaches and the
    share of players assisted on half their decisions who reach it (fresh players of
    ``population``, judged with the model in :mod:`basra.match.assist`)."""
    players = [population.honest(games) for _ in range(honest)]
    cheats = [population.cheat(0.5, games) for _ in range(assisted)]
    out = []
    for weight in WEIGHTS:
        assist.AGREEMENT_WEIGHT = weight
        maxima = [max((s for s in p.scores() if s is not None), default=-math.inf)
                  for p in players]
        threshold = quantile_threshold(maxima, 0.001)
        caught = sum(first_flag(p.scores(), threshold) is not None for p in cheats)
        out.append({"weight": weight, "threshold": round(threshold, 3),
                    "detection": round(caught / assisted, 4)})
    return out


def constants(model: dict[str, Any]) -> str:
    """The fitted model as the constants of :mod:`basra.match.assist`, to paste."""
    def row(values: Sequence[float]) -> str:
        return "(" + ", ".join(f"{v:.4g}" for v in values) + ")"
    lines = ["AGREEMENT = (", *[f"    {row(r)},  # {name}"
                                for r, name in zip(model["agreement"], assist.CLASSES,
                                                   strict=True)], ")",
             f"EXPERT_AGREEMENT = {row(model['expert_agreement'])}",
             f"AGREEMENT_DISPERSION = {model['agreement_dispersion']}",
             f"AGREEMENT_SPREAD = {row(model['agreement_spread'])}",
             f"COST = {row(model['cost'])}",
             f"COST_DEVIATION = {row(model['cost_deviation'])}",
             f"COST_SPREAD = {row(model['cost_spread'])}",
             "# weight: the score 1 honest player in 1,000 reaches, the detection at p = 0.5"]
    lines += [f"#   {w['weight']:g}: {w['threshold']:.2f}, {100 * w['detection']:.1f}%"
              for w in model["weights"]]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the report


def quantile_threshold(maxima: Sequence[float], rate: float) -> float:
    """The least score that at most ``rate`` of the players reach (their maxima)."""
    ordered = sorted(maxima, reverse=True)
    allowed = int(rate * len(ordered))
    if allowed >= len(ordered):
        return -math.inf
    return math.nextafter(ordered[allowed], math.inf)


def simulate(corpus: Corpus, honest: int, assisted: int, seed: int, games: int = assist.GAMES,
             noise: float = RATING_NOISE, catch_up: float = 0.0, threshold: float | None = None,
             progress: bool = True) -> dict[str, Any]:
    """Simulated honest and assisted players judged game by game: the false flags and the
    detection at each share, at the shipped threshold (or ``threshold``)."""
    shipped = assist.THRESHOLD if threshold is None else threshold
    rng = random.Random(seed)
    t0 = time.perf_counter()
    population = Population(corpus, rng, noise=noise, catch_up=catch_up)
    t1 = time.perf_counter()
    if progress:
        print(f"libraries made in {t1 - t0:.1f} s", file=sys.stderr, flush=True)
    maxima: list[float] = []
    flagged_honest: dict[str, list[int]] = {}
    counts: dict[str, int] = {}
    for i in range(honest):
        player = population.honest(games)
        scores = player.scores()
        maxima.append(max((s for s in scores if s is not None), default=-math.inf))
        counts[player.group] = counts.get(player.group, 0) + 1
        at = first_flag(scores, shipped)
        if at is not None:
            flagged_honest.setdefault(player.group, []).append(at)
        if progress and (i + 1) % 20000 == 0:
            print(f"{i + 1} honest players, {time.perf_counter() - t1:.1f} s", file=sys.stderr,
                  flush=True)
    t2 = time.perf_counter()
    false_flags = sum(len(v) for v in flagged_honest.values())
    rows = []
    for share in SHARES:
        firsts = [first_flag(population.cheat(share, games).scores(), shipped)
                  for _ in range(assisted)]
        caught = sorted(f for f in firsts if f is not None)
        rows.append({"share": share, "players": assisted,
                     "flagged_within": {str(n): round(sum(f <= n for f in caught) / assisted, 4)
                                        for n in CHECKPOINTS if n <= games},
                     "median_games": (caught[(assisted - 1) // 2]
                                      if len(caught) * 2 >= assisted else None)})
    t3 = time.perf_counter()
    if progress:
        print(f"honest {t2 - t1:.1f} s, assisted {t3 - t2:.1f} s", file=sys.stderr, flush=True)
    return {"corpus_matches": corpus.matches, "iterations": corpus.iterations, "seed": seed,
            "games": games, "rating_noise": noise, "catch_up": catch_up,
            "level_costs": {lvl: round(lib.cost, 4) for lvl, lib in population.levels.items()},
            "honest": honest, "threshold": shipped, "false_flags": false_flags,
            "false_flag_rate": false_flags / honest,
            "false_flags_by_group": {g: len(v) for g, v in sorted(flagged_honest.items())},
            "honest_by_group": dict(sorted(counts.items())),
            "threshold_1_in_1000": round(quantile_threshold(maxima, 0.001), 3),
            "assisted": rows,
            "seconds": {"libraries": round(t1 - t0, 1), "honest": round(t2 - t1, 1),
                        "assisted": round(t3 - t2, 1)}}


def print_report(report: dict[str, Any]) -> None:
    print(f"corpus: {report['corpus_matches']} matches analysed at {report['iterations']} "
          f"iterations; seed {report['seed']}, rating noise {report['rating_noise']:g}, "
          f"catch-up {report['catch_up']:g}")
    print("points given away a decision by level: " + ", ".join(
        f"{k} {v:.2f}" for k, v in report["level_costs"].items()))
    print(f"honest players: {report['honest']:,}; flagged within {report['games']} games at "
          f"the threshold {report['threshold']:g}: {report['false_flags']} "
          f"({1000 * report['false_flag_rate']:.2f} in 1,000)"
          + (f" [{', '.join(f'{g} {n}' for g, n in report['false_flags_by_group'].items())}]"
             if report["false_flags"] else ""))
    print(f"the score 1 honest player in 1,000 reaches: {report['threshold_1_in_1000']}")
    heads = [f"within {n}" for n in CHECKPOINTS if n <= report["games"]]
    print("| share assisted | players | " + " | ".join(heads) + " | median games |")
    print("|---" * (len(heads) + 3) + "|")
    for row in report["assisted"]:
        cells = [f"{100 * v:.1f}%" for v in row["flagged_within"].values()]
        print(f"| {row['share']:g} | {row['players']:,} | " + " | ".join(cells)
              + f" | {row['median_games'] if row['median_games'] is not None else '-'} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="store_true", help="play and analyse the corpus")
    parser.add_argument("--resume", action="store_true", help="go on with a stopped build")
    parser.add_argument("--matches-per-pair", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=server_iterations())
    parser.add_argument("--fit", action="store_true", help="print the rating model's constants")
    parser.add_argument("--honest", type=int, default=100_000)
    parser.add_argument("--tune-honest", type=int, default=40_000,
                        help="honest players for --fit's choice of the agreement's weight")
    parser.add_argument("--assisted", type=int, default=2_000, help="players at each share")
    parser.add_argument("--games", type=int, default=assist.GAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, default=RATING_NOISE,
                        help="the rating's standard deviation about the player's strength")
    parser.add_argument("--catch-up", type=float, default=0.0,
                        help="how far an assisted player's rating has moved to its assisted "
                             "strength (0 to 1)")
    parser.add_argument("--threshold", type=float, default=None)
    parser.add_argument("--window", type=int, default=assist.GAMES,
                        help="judge a player's last N games instead of the module's "
                             f"{assist.GAMES} (a what-if: the model is the shipped one)")
    parser.add_argument("--glicko", action="store_true",
                        help="how a Glicko-2 rating wanders about and follows a strength "
                             "(RATING_NOISE, CATCH_UP_GAMES)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.glicko:
        print(json.dumps(glicko(200, random.Random(args.seed))))
        return 0
    if args.build:
        build(args.matches_per_pair, args.resume, args.iterations)
        return 0
    corpus = Corpus(load_corpus())
    assist.GAMES = args.window
    if args.fit:
        # The model is what honest players of a known strength do (rated exactly); the
        # rating's noise is allowed for by judging within RATING_MARGIN of the rating.
        population = Population(corpus, random.Random(args.seed), noise=0.0)
        model = fit(population, args.honest, args.games)
        use(model)
        population.noise = args.noise
        model["weights"] = tune(population, args.tune_honest, args.assisted, args.games)
        print(json.dumps(model) if args.json else constants(model))
        return 0
    report = simulate(corpus, args.honest, args.assisted, args.seed, args.games, args.noise,
                      args.catch_up, args.threshold, progress=not args.json)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
