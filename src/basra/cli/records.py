"""``basra records``: the server's finished matches as record files, anonymised, for mining
puzzles (``basra puzzles mine --records DIR``, docs/PUZZLES.md) or anything else that
reads records.

    basra records --db URL --variant egyptian --players 2 --limit 2000 --out DIR

Each finished table of the variant and seat count (the newest first) is rebuilt from the
store as the server rebuilds it and written as ``match-NNNNN.json`` (basra-record/1). What
could tell who played is left out: the players are named ``Player 1``, ``Player 2``, ...
(bots keep their level's name), and every round keeps its deck but not its fairness data
(whose seat parts may hold text a player typed). The table ids are not written either. The
files replay (``basra replay``) but no longer verify.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from basra.cliargs import OneLineParser, parse_or_status, whole_number
from basra.errors import BasraError
from basra.match.records import BOT_PREFIX, MatchRecord, dumps, round_deck
from basra.server.config import Settings
from basra.server.table.actor import Table
from basra.store import StoreError, open_store


def anonymised(record: MatchRecord) -> MatchRecord:
    """``record`` with no name a person chose and no fairness data: decks kept."""
    players = tuple(name if name.startswith(BOT_PREFIX) else f"Player {seat + 1}"
                    for seat, name in enumerate(record.players))
    rounds = tuple(dataclasses.replace(r, deck=round_deck(r), fairness=None)
                   for r in record.rounds)
    return dataclasses.replace(record, players=players, rounds=rounds)


async def export(args: argparse.Namespace) -> int:
    """Write the newest finished matches (``args``: the command's); how many were
    written."""
    variant, players, limit, out = args.variant, args.players, args.limit, args.out
    if out.exists() and any(out.iterdir()):
        raise OSError(f"{out} is not empty: write the records to a new folder")
    store = open_store(args.db, args.data_dir)
    await store.open()
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = skipped = 0
        settings = Settings()
        for table_id in await store.finished_tables(variant, players, limit):
            log = await store.load(table_id)
            try:
                record = None if log is None else \
                    Table.restore(log, store, settings).flow.export_record()
            except BasraError:  # a table the engine of today no longer replays
                record = None
            if record is None or not record.rounds:
                skipped += 1
                continue
            written += 1
            (out / f"match-{written:05d}.json").write_text(
                dumps(anonymised(record), compact=True) + "\n", "utf-8")
        if skipped:
            print(f"basra records: {skipped} matches could not be rebuilt: left out",
                  file=sys.stderr)
        return written
    finally:
        await store.close()


def main(argv: Sequence[str]) -> int:
    """Run ``basra records``; returns the exit status."""
    parser = OneLineParser(prog="basra records",
                           description="write the server's finished matches as anonymised "
                                       "record files")
    parser.add_argument("--db", metavar="URL", default=os.environ.get("BASRA_DB") or None,
                        help="database URL (default: $BASRA_DB, else SQLite in the data "
                             "directory)")
    parser.add_argument("--data-dir", type=Path, help="where SQLite keeps its file")
    parser.add_argument("--variant", default="egyptian")
    parser.add_argument("--players", type=whole_number(2, "players"), default=2)
    parser.add_argument("--limit", type=whole_number(1, "limit"), default=1000,
                        help="the newest this many matches (default 1000)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR")
    args = parse_or_status(parser, argv)
    if isinstance(args, int):
        return args
    try:
        written = asyncio.run(export(args))
    except (BasraError, StoreError, OSError) as exc:
        print(f"basra records: {exc}", file=sys.stderr)
        return 1
    print(f"{written} matches written to {args.out}")
    return 0
