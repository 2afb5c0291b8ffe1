"""Helpers shared by the engine tests, so that a test reads like the rule book.

Cards are written as text ("5H", "10D"); a set of cards as one space-separated string
("5C 4D AH"). Positions are built from readable hands and floors with :func:`position`,
finished rounds from readable piles with :func:`finished_round`.

The facts of RULES.md that the tests check against (seatings, card points, power cards...)
are written out again here from the rule book, not read from :mod:`basra.game.rules`, so that a
wrong rule set cannot agree with itself.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from basra.game.cards import NAMES, cards_of, mask_of, parse_card
from basra.game.engine import Round, deal_round
from basra.game.rules import Rules, find_variant

pytest_plugins = ("web_helpers", "store_helpers")
"""The browser tests' fixtures (chromium, the players of a test) and the store tests'
databases."""

HOT_MODULES = ("game.cards", "game.captures", "game.rules", "game.engine", "bots.rollout",
               "bots.endgame")
"""The modules setup.py compiles with mypyc."""


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a compiled module older than its source: after editing one of the
    hot modules, rebuild with scripts/install (or run scripts/test)."""
    stale = []
    for name in HOT_MODULES:
        module = importlib.import_module(f"basra.{name}")
        compiled = Path(str(module.__file__))
        if compiled.suffix == ".py":
            continue
        source = compiled.parent / (name.rpartition(".")[2] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime + 1:
            stale.append(str(source))
    if stale:
        pytest.exit("compiled engine is older than " + ", ".join(stale)
                    + ": rebuild with scripts/install", returncode=4)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow (long random simulations)")


BROWSER_RERUNS = int(os.environ.get("BASRA_BROWSER_RERUNS", "1"))
"""How many times a failed browser test (tests/web) runs again before it counts as failed.
A real Chromium on a 2-core machine shared with the rest of the suite misses a deadline
now and then; a rerun is reported (``R`` and "rerun" in pytest's summary) and looked into,
and a test that fails again fails the check. Only the browser tests: the server's own are
never run again."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run only with ``--runslow`` or when ``-m`` names them; a browser
    test may run again once (``BROWSER_RERUNS``)."""
    web = Path(__file__).parent / "web"
    if BROWSER_RERUNS > 0:
        for item in items:
            if web in Path(str(item.fspath)).parents:
                item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, reruns_delay=1))
    if config.getoption("--runslow") or "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow (or -m slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


VARIANT_NAMES = ("egyptian", "arabic101", "lebanese", "serbian")

# RULES.md 6, "players": (player count, teams) pairs each variant allows.
SEATINGS: dict[str, tuple[tuple[int, bool], ...]] = {
    "egyptian": ((2, False), (4, True)),
    "arabic101": ((2, False),),
    "lebanese": ((2, False), (3, False), (4, False), (4, True)),
    "serbian": ((2, False), (4, True)),
}

ALL_SEATINGS: list[tuple[str, int, bool]] = [
    (v, n, t) for v in VARIANT_NAMES for n, t in SEATINGS[v]
]


def seating_id(seating: tuple[str, int, bool]) -> str:
    variant, n, teams = seating
    return f"{variant}-{n}{'-teams' if teams else ''}"


# RULES.md 6, "card points".
CARD_POINTS: dict[str, dict[str, int]] = {}
for _v in ("egyptian", "arabic101", "lebanese"):
    _t = {f"J{s}": 1 for s in "CDHS"} | {f"A{s}": 1 for s in "CDHS"}
    _t |= {"2C": 2, "10D": 3}
    CARD_POINTS[_v] = _t
CARD_POINTS["serbian"] = (
    {f"J{s}": 1 for s in "CDHS"} | {f"A{s}": 1 for s in "CDHS"} | {"2S": -2, "10D": -3}
)

# RULES.md 6, "power cards" and "forbidden on opening floor".
POWER_CARDS: dict[str, frozenset[str]] = {
    "egyptian": frozenset({"JC", "JD", "JH", "JS", "7D"}),
    "arabic101": frozenset({"JC", "JD", "JH", "JS", "7D"}),
    "lebanese": frozenset({"JC", "JD", "JH", "JS"}),
    "serbian": frozenset({"JC", "JD", "JH", "JS", "7D"}),
}
OPENING_FORBIDDEN: dict[str, frozenset[str]] = {
    "egyptian": frozenset({"JC", "JD", "JH", "JS", "7D"}),
    "arabic101": frozenset({"JC", "JD", "JH", "JS"}),
    "lebanese": frozenset({"JC", "JD", "JH", "JS"}),
    "serbian": frozenset({"JC", "JD", "JH", "JS", "7D"}),
}
SUM_SETS = {"egyptian": "one-set", "arabic101": "one-set", "lebanese": "one-set",
            "serbian": "max-cards"}


def card_points(variant: str, cards: int) -> int:
    """Card points of a set of cards, from RULES.md's table (not from the engine)."""
    table = CARD_POINTS[variant]
    return sum(table.get(NAMES[c], 0) for c in cards_of(cards))


# ---------------------------------------------------------------------------- cards


def C(text: str) -> int:
    """One card from its notation."""
    return parse_card(text)


def M(text: str) -> int:
    """A card set from space-separated notation; "" is the empty set."""
    return mask_of(parse_card(t) for t in text.split())


def names(cards: int) -> str:
    """A card set as sorted canonical notation, for readable assertion messages."""
    return " ".join(NAMES[c] for c in cards_of(cards))


def take_names(takes: Iterable[int]) -> list[str]:
    """Several takes as sorted readable strings."""
    return sorted(names(t) for t in takes)


def deck_with_top(text: str) -> list[int]:
    """A full deck whose top cards are ``text`` in that order, then the rest canonically."""
    top = [parse_card(t) for t in text.split()]
    assert len(set(top)) == len(top), "a card twice on top of the deck"
    return top + [c for c in range(52) if c not in top]


def rules_of(variant: str | Rules) -> Rules:
    return variant if isinstance(variant, Rules) else find_variant(variant)


# ------------------------------------------------------------------------ positions

_BITS = 52


def _pack(sets: Sequence[int]) -> int:
    packed = 0
    for i, s in enumerate(sets):
        packed |= s << (_BITS * i)
    return packed


def position(
    variant: str | Rules,
    hands: Sequence[str],
    floor: str = "",
    *,
    turn: int = 0,
    dealer: int | None = None,
    teams: bool = False,
    stock: str = "",
    piles: Sequence[str] | None = None,
    last_taker: int = -1,
    played: int | None = None,
) -> Round:
    """A round in the middle of play, built from readable card lists.

    ``hands[s]`` is seat ``s``'s hand, ``floor`` the floor, ``turn`` the seat to play.
    ``stock`` is what remains to be dealt (the next deal comes from its top). ``played``
    defaults to the number that makes the round end when the given hands and stock run
    out (every round has 48 plays), so the last card in hand is the round's last play.
    The dealer defaults to the seat before ``turn``.
    """
    rules = rules_of(variant)
    seats = len(hands)
    if dealer is None:
        dealer = (turn - 1) % seats
    rnd = deal_round(rules, seats, dealer, list(range(52)), teams)
    hand_sets = [M(h) for h in hands]
    stock_cards = tuple(parse_card(t) for t in stock.split())
    sides = 2 if teams else seats
    pile_sets = [M(p) for p in piles] if piles is not None else [0] * sides
    assert len(pile_sets) == sides
    in_hands = sum(h.bit_count() for h in hand_sets)
    if played is None:
        played = 48 - in_hands - len(stock_cards)
    every = [*hand_sets, M(floor), *pile_sets, mask_of(stock_cards)]
    union = 0
    for s in every:
        assert not union & s, f"a card in two places: {names(union & s)}"
        union |= s
    setup = rnd.setup._replace(stock=stock_cards)
    return rnd._replace(
        setup=setup,
        dealt=0,
        packed_hands=_pack(hand_sets),
        floor=M(floor),
        packed_piles=_pack(pile_sets),
        turn=turn,
        last_taker=last_taker,
        played=played,
    )


def finished_round(
    variant: str | Rules,
    piles: Sequence[int],
    *,
    seats: int | None = None,
    teams: bool = False,
    basras: Sequence[int] | None = None,
    bonus: Sequence[int] | None = None,
) -> Round:
    """A finished round whose sides hold ``piles`` (card sets), for scoring tests."""
    rules = rules_of(variant)
    if seats is None:
        seats = 4 if teams else len(piles)
    assert len(piles) == (2 if teams else seats)
    rnd = deal_round(rules, seats, 0, list(range(52)), teams)
    zeros = [0] * len(piles)
    basras = list(basras) if basras is not None else zeros
    bonus = list(bonus) if bonus is not None else zeros
    return rnd._replace(
        dealt=len(rnd.setup.stock),
        packed_hands=0,
        floor=0,
        packed_piles=_pack(piles),
        packed_basras=sum(n << (16 * i) for i, n in enumerate(basras)),
        packed_bonus=sum(n << (16 * i) for i, n in enumerate(bonus)),
        played=48,
    )


# Cards worth no points in any variant, in a fixed order, to pad piles.
_PLAIN = [c for c in range(52)
          if all(NAMES[c] not in CARD_POINTS[v] for v in VARIANT_NAMES)]


def split_piles(sizes: Sequence[int], given: dict[int, str] | None = None) -> list[int]:
    """Piles of the given sizes (adding up to 52). ``given[side]`` names cards that side
    holds; the rest is padded with cards worth no points in any variant first, then with
    whatever is left, in canonical order."""
    assert sum(sizes) == 52
    given = given or {}
    piles = [M(given.get(s, "")) for s in range(len(sizes))]
    used = 0
    for p in piles:
        assert not used & p
        used |= p
    pool = [c for c in _PLAIN if not used >> c & 1]
    pool += [c for c in range(52) if not used >> c & 1 and c not in pool]
    for s, size in enumerate(sizes):
        need = size - piles[s].bit_count()
        assert need >= 0, f"side {s} is given more than {size} cards"
        for c in pool[:need]:
            piles[s] |= 1 << c
        pool = pool[need:]
    return piles
