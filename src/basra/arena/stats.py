"""The figures of ``basra arena`` and how they are shown: from the games
(:mod:`basra.arena.games`) to the report (``--json``) and the table for people.

**Figures.** Per deal, the mean over its games of each game's per-round mean; then, over the
deals, the mean with a 95% t interval: round points per side (B's per B seat when B holds
several), the per-round point difference A-B (paired), basras per round per side. Match
wins (``--matches``) with a 95% Wilson interval. Think time per play per side: median and
95th percentile, in milliseconds, in all and by the deal of the round.

>>> wilson(0, 0)
(0.0, 1.0)
>>> percentile([1.0, 2.0, 3.0, 4.0], 0.5)
2.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NotRequired, TypedDict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from basra.arena.games import FORMAT, ArenaConfig, GameResult, Mode

Z95 = 1.959963984540054

_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t, two-sided 95%, for 1 to 30 degrees of freedom."""


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


class DealThink(TypedDict):
    deal: int
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
    think_ms_by_deal: dict[str, list[DealThink]]
    """Per side, think time by the deal of the round (1 the first)."""
    length: NotRequired[str]
    partial: NotRequired[dict[str, int]]
    """Stopped by Ctrl-C: the deals finished (the figures' own) and the deals asked for."""
    """``"short"`` for shorter matches (RULES.md 6.5); absent for full ones."""


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


def _by_deal(pairs: list[tuple[int, float]]) -> list[DealThink]:
    by: dict[int, list[float]] = {}
    for deal, seconds in pairs:
        by.setdefault(deal, []).append(seconds)
    out = []
    for deal, times in sorted(by.items()):
        think = _think(times)
        out.append(DealThink(deal=deal, plays=think["plays"], median=think["median"],
                             p95=think["p95"]))
    return out


def _per_deal(games: list[GameResult], field: int) -> list[float]:
    """Per deal, the mean over its games of each game's per-round mean of ``field``."""
    by_deal: dict[int, list[float]] = {}
    for g in games:
        per_round = math.fsum(float(r[field]) for r in g.rounds) / len(g.rounds)
        by_deal.setdefault(g.deal, []).append(per_round)
    return [math.fsum(v) / len(v) for _, v in sorted(by_deal.items())]


def deal_difference(games: list[GameResult]) -> float:
    """One deal's A - B points a round (its games' mean, as the report pairs them)."""
    return _per_deal(games, 0)[0] - _per_deal(games, 1)[0]


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
    rep = ArenaReport(
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
        think_ms_by_deal={
            "a": _by_deal([p for g in games for p in zip(g.a_deals, g.a_times, strict=True)]),
            "b": _by_deal([p for g in games for p in zip(g.b_deals, g.b_times, strict=True)])},
    )
    if cfg.length != "full":
        rep["length"] = cfg.length
    return rep


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
    unit = "rounds" if cfg.mode == "rounds" else (
        "matches" if cfg.length == "full" else f"{cfg.length} matches")
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
    by_deal = rep["think_ms_by_deal"]
    b_by_deal = {d["deal"]: d for d in by_deal["b"]}
    for d in by_deal["a"]:
        other = b_by_deal.get(d["deal"])
        table.add_row(f"  p95 in deal {d['deal']}", _show_ms(d["p95"]),
                      _show_ms(other["p95"] if other else None), "")
    Console().print(table)


__all__ = [
    "ArenaReport",
    "DealThink",
    "Interval",
    "Sides",
    "Think",
    "Wins",
    "deal_difference",
    "mean_interval",
    "percentile",
    "print_table",
    "report",
    "seating_text",
    "t95",
    "wilson",
]
