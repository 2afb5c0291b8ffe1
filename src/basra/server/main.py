"""``basra serve``: start the site people play on (uvicorn running :func:`create_app`)."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from pathlib import Path

import uvicorn

from basra.cliargs import OneLineParser, seconds
from basra.server.app import create_app
from basra.server.config import Settings
from basra.server.logs import setup_logging

log = logging.getLogger("basra.serve")




def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="basra serve",
                           description="Start the Basra server (SQLite by default).")
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="database URL, e.g. postgresql+asyncpg://user@host/db "
                             "(default: SQLite in the data directory)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where SQLite keeps its file (default $BASRA_DATA_DIR or ./data)")
    parser.add_argument("--clock", type=seconds(zero=True), default=30.0, metavar="S",
                        help="seconds a turn (default 30)")
    parser.add_argument("--grace", type=seconds(zero=True), default=10.0, metavar="S",
                        help="seconds before a bot plays a dropped player's seat (default 10)")
    parser.add_argument("--seed-window", type=seconds(zero=True), default=5.0, metavar="S",
                        help="seconds players may set client seeds before a round (default 5)")
    parser.add_argument("--bot-delay", type=seconds(zero=True), default=0.7, metavar="S",
                        help="a bot's least time to play (default 0.7)")
    parser.add_argument("--bot-offer", type=seconds(zero=True), default=20.0, metavar="S",
                        help="quick-match wait before a bot is offered (default 20)")
    parser.add_argument("--log-level", default="info",
                        choices=["debug", "info", "warning", "error"])
    return parser


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(db_url=args.db, data_dir=args.data_dir, clock_seconds=args.clock,
                    grace_seconds=args.grace, seed_window_seconds=args.seed_window,
                    bot_delay_seconds=args.bot_delay,
                    quick_match_bot_offer_seconds=args.bot_offer)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    setup_logging(args.log_level)
    app = create_app(settings_from(args))
    log.info("serving on http://%s:%d", args.host, args.port)
    uvicorn.run(app, host=args.host, port=args.port, log_config=None,
                log_level=args.log_level, ws_max_size=16 * 1024)
    return 0
