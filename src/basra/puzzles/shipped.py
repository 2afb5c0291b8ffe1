"""Puzzle files and the shipped puzzles: reading and writing ``basra-puzzles/1`` files
(JSON, gzip-compressed when the name ends in ``.gz``) and the cached loaders of the
package's own data (``basra/puzzles/data/VARIANT.json.gz``).

>>> sorted(VARIANTS)
['arabic101', 'egyptian', 'lebanese', 'serbian']
>>> by_id("xx-nothing") is None
True
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from basra.puzzles.model import FORMAT, PREFIX, Puzzle, PuzzleError

DATA = Path(__file__).parent / "data"
"""Where the shipped puzzle files live."""

VARIANTS: tuple[str, ...] = tuple(PREFIX)
"""The variants with shipped puzzles: every variant played by two."""


def dumps(variant: str, puzzles: Sequence[Puzzle], margin: int) -> str:
    """A puzzle file's text: a header, then one puzzle a line."""
    head = json.dumps({"format": FORMAT, "variant": variant, "margin": margin,
                       "count": len(puzzles)}, separators=(",", ":"))
    lines = [json.dumps(p.record(), separators=(",", ":"), ensure_ascii=False)
             for p in puzzles]
    return head[:-1] + ',"puzzles":[\n' + ",\n".join(lines) + "\n]}\n"


def write_file(path: str | Path, variant: str, puzzles: Sequence[Puzzle],
               margin: int) -> None:
    """Write a puzzle file; ``.gz`` names are compressed (with no time stamp, so the same
    puzzles make the same bytes)."""
    data = dumps(variant, puzzles, margin).encode("utf-8")
    target = Path(path)
    if target.name.endswith(".gz"):
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0,
                           compresslevel=9) as f:
            f.write(data)
        data = buffer.getvalue()
    target.write_bytes(data)


def read_file(path: str | Path) -> tuple[str, int, tuple[Puzzle, ...]]:
    """A puzzle file's variant, margin and puzzles; :class:`PuzzleError` when it does not
    read."""
    target = Path(path)
    try:
        raw = target.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PuzzleError(f"{path}: cannot read a puzzle file: {exc}",
                          "puzzle/bad_file") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f'{path}: not a puzzle file (format must be "{FORMAT}")',
                          "puzzle/bad_file")
    variant = str(data.get("variant"))
    if variant not in PREFIX:
        raise PuzzleError(f"{path}: no puzzles for variant {variant!r}", "puzzle/bad_file")
    puzzles = tuple(Puzzle.from_record(variant, p) for p in data.get("puzzles", ()))
    return variant, int(data.get("margin", 0)), puzzles


@cache
def load(variant: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``variant`` (none for a variant without a file), read once."""
    path = DATA / f"{variant}.json.gz"
    if variant not in PREFIX or not path.exists():
        return ()
    return read_file(path)[2]


@cache
def _index(variant: str) -> dict[str, Puzzle]:
    return {p.id: p for p in load(variant)}


def by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, or ``None``; the id's prefix names its variant."""
    prefix = puzzle_id.partition("-")[0]
    for variant, known in PREFIX.items():
        if known == prefix:
            return _index(variant).get(puzzle_id)
    return None


def all_puzzles() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, variant by variant."""
    return tuple(p for v in VARIANTS for p in load(v))


__all__ = ["DATA", "VARIANTS", "all_puzzles", "by_id", "dumps", "load", "read_file",
           "write_file"]
