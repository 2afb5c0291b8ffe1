"""The person's part of each round's client seed in ``basra play`` (FAIRNESS.md, "Seat
parts"), and what ``--seed`` derives for reproducible games.

The person's part is their own text, if any, cut to :data:`~basra.game.shuffle.OWN_TEXT_BYTES`
bytes, then fresh random bytes (:func:`~basra.game.shuffle.fresh_part`). With ``--seed`` (for
testing) the server seeds and those random bytes come from the seed instead, so the game is
reproducible and not provably fair.

>>> own_text_cut("é" * 40) == "é" * (OWN_TEXT_BYTES // 2)
True
"""

from __future__ import annotations

import hashlib

from basra.game.shuffle import OWN_TEXT_BYTES, part_problem


def _derived(seed: str, *parts: object) -> str:
    """A hex digest derived from ``--seed`` (reproducible games, for testing)."""
    text = "|".join(["basra-play", seed, *map(str, parts)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seeded_server_seed(seed: str, nonce: int) -> str:
    """With ``--seed``: round ``nonce``'s server seed, derived from the seed."""
    return _derived(seed, "server", nonce)


def seeded_part(seed: str, nonce: int, own_text: str = "") -> str:
    """With ``--seed``: the person's part of round ``nonce``'s client seed, its random bytes
    derived from the seed (their own text, if any, cut, a ``.`` and 8 bytes; else 16)."""
    noise = _derived(seed, "part", nonce)
    return f"{own_text_cut(own_text)}.{noise[:16]}" if own_text else noise[:32]


def own_text_cut(own_text: str) -> str:
    """The person's own text as it goes into their part: its first
    :data:`~basra.game.shuffle.OWN_TEXT_BYTES` bytes at most, cut at a character boundary."""
    return own_text.encode("utf-8")[:OWN_TEXT_BYTES].decode("utf-8", "ignore")


def own_text_problem(own_text: str) -> str | None:
    """Why ``own_text`` cannot go into the person's part of the client seed, or None."""
    if not own_text:
        return None
    problem = part_problem(f"{own_text_cut(own_text)}.{'0' * 16}")
    return None if problem is None else problem[0].upper() + problem[1:] + "."


__all__ = ["own_text_cut", "own_text_problem", "seeded_part", "seeded_server_seed"]
