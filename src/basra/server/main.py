"""``basra serve``: start the site people play on (uvicorn running :func:`create_app`)."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from basra.cliargs import OneLineParser, seconds, whole_number
from basra.game.captures import set_memo_limit
from basra.logs import setup_logging
from basra.procs import watch_parent
from basra.server.app import create_app
from basra.server.config import Limits, RatedRules, Settings
from basra.server.gc_pacing import snapshots_on_signal
from basra.server.http.guard import guarded_http, open_files_limit
from basra.server.http.listen import listening_socket
from basra.server.origin import EXAMPLE, bind_origin, is_loopback, parse_origin
from basra.server.tournaments.schedule import DEFAULT_FILE as DEFAULT_SCHEDULE

log = logging.getLogger("basra.serve")

SERVER_MEMO_LIMIT = 4096
"""The capture memos' size in a server process (:func:`basra.game.captures.set_memo_limit`):
it lists the legal plays of its tables' positions only (the bots think elsewhere, with
theirs)."""


SECONDS_OPTIONS = (
    ("--clock", 30.0, "seconds a turn"),
    ("--grace", 10.0, "seconds before a bot plays a dropped player's seat"),
    ("--seed-window", 5.0, "seconds players may set client seeds before the first round"),
    ("--summary-window", 15.0, "seconds the next round waits while its players read the "
                               "round's summary, unless all continue sooner"),
    ("--bot-delay", 0.7, "a bot's least time to play"),
    ("--bot-offer", 20.0, "quick-match wait before a bot is offered"),
    ("--rematch-window", 60.0, "seconds a finished table stays in memory for a rematch, "
                               "then it is served from the database"),
    ("--saying-gap", 2.0, "least seconds between two quick phrases of one player"),
    ("--views-fresh", 10.0, "seconds a profile's or leaderboard's answer is served again as "
                            "it is"),
    ("--fresh-proof", 300.0, "seconds a proof of who holds a session (the password or a "
                             "passkey) lets it add a passkey or a password, remove a "
                             "passkey, export and delete the account"),
)
"""The options that take seconds: flag, default, help (which the default ends)."""


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="basra serve",
                           description="Start the Basra server (SQLite by default).")
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", metavar="URL", default=os.environ.get("BASRA_DB") or None,
                        help="database URL, e.g. postgresql+asyncpg://user@host/db "
                             "(default: $BASRA_DB, else SQLite in the data directory)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where SQLite keeps its file (default $BASRA_DATA_DIR or ./data)")
    for flag, default, what in SECONDS_OPTIONS:
        parser.add_argument(flag, type=seconds(zero=True), default=default, metavar="S",
                            help=f"{what} (default {default:g})")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                        help="a reverse proxy (address or CIDR network) whose "
                             "X-Forwarded-For names the client; repeat for several "
                             "(default: none, the header is ignored)")
    parser.add_argument("--bot-workers", type=whole_number(0), default=None, metavar="N",
                        help="worker processes where searching bots (hard, expert) think "
                             "(default: one per core, shared by --workers; 0, in cluster "
                             "mode: none here, basra bot-worker processes think)")
    parser.add_argument("--redis", metavar="URL", default=os.environ.get("BASRA_REDIS") or None,
                        help="cluster mode: this Redis (redis://host:6379/0) joins every "
                             "node of the site; with a shared --db (PostgreSQL) "
                             "(default: $BASRA_REDIS, which keeps a password out of ps)")
    parser.add_argument("--redis-prefix", default="basra:", metavar="TEXT",
                        help="where the site's keys start in Redis (default basra:)")
    parser.add_argument("--workers", type=whole_number(1), default=1, metavar="N",
                        help="run N server processes on this address (cluster mode: "
                             "needs --redis; default 1)")
    parser.add_argument("--public-origin", type=public_origin, default=None, metavar="URL",
                        help="the address people open the site at, e.g. "
                             f"{EXAMPLE}: its links and passkeys name it (required "
                             "unless --host is loopback; there the default is "
                             "http://localhost:PORT)")
    parser.add_argument("--passkey-rp-id", default=None, metavar="DOMAIN",
                        help="the site's domain for passkeys (default: the host of "
                             "--public-origin)")
    parser.add_argument("--passkey-origin", action="append", default=[], metavar="URL",
                        help="an origin passkeys may be used from, e.g. "
                             f"{EXAMPLE} (repeatable; default: --public-origin)")
    parser.add_argument("--analysis-iterations", type=whole_number(1), default=300,
                        metavar="N", help="the expert's budget for each play of a match it "
                        "analyses (default 300; basra analyse --iterations N --seed 0 "
                        "gives the same analysis)")
    parser.add_argument("--no-assist-analysis", action="store_true",
                        help="do not analyse every rated match in the background (the "
                             "engine-assistance flag then sees only matches players asked "
                             "to analyse)")
    parser.add_argument("--no-limits", action="store_true",
                        help="no per-address limits (load tests on loopback only)")
    parser.add_argument("--open-rated", action="store_true",
                        help="rated play for every account at once, with no least play, "
                             "no pair limit (trials and tests only: it lets ratings be "
                             "farmed)")
    parser.add_argument("--tournament-schedule", metavar="FILE",
                        help="the events the server makes by itself (a TOML file: "
                             "docs/TOURNAMENTS.md); 'none' for none (default: hourly "
                             "arenas, a daily swiss, a weekly marathon)")
    parser.add_argument("--tournament-last-pairing", type=float, default=180.0,
                        metavar="S", help="an arena pairs nobody in its last S seconds "
                        "(default 180)")
    parser.add_argument("--log-level", default="info",
                        choices=["debug", "info", "warning", "error"])
    return parser


def public_origin(text: str) -> str:
    """An argparse type: an origin (:func:`basra.server.origin.parse_origin`)."""
    try:
        return parse_origin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def settings_from(args: argparse.Namespace) -> Settings:
    limits = Limits.unlimited() if args.no_limits else Limits()
    limits = replace(limits, trusted_proxies=tuple(args.trusted_proxy))
    return Settings(db_url=args.db, data_dir=args.data_dir, clock_seconds=args.clock,
                    grace_seconds=args.grace, seed_window_seconds=args.seed_window,
                    summary_seconds=args.summary_window,
                    bot_delay_seconds=args.bot_delay,
                    quick_match_bot_offer_seconds=args.bot_offer,
                    rematch_window_seconds=args.rematch_window, limits=limits,
                    bot_workers=args.bot_workers, redis_url=args.redis,
                    redis_prefix=args.redis_prefix, gc_pacing=True,
                    public_origin=args.public_origin, passkey_rp_id=args.passkey_rp_id,
                    views_fresh_seconds=args.views_fresh,
                    fresh_proof_seconds=args.fresh_proof,
                    saying_gap_seconds=args.saying_gap,
                    analysis_iterations=args.analysis_iterations,
                    assist_analysis=not args.no_assist_analysis,
                    passkey_origins=tuple(args.passkey_origin),
                    rated_rules=RatedRules.open() if args.open_rated else RatedRules(),
                    tournament_schedule=schedule_file(args.tournament_schedule),
                    tournament_last_pairing_seconds=args.tournament_last_pairing)


def schedule_file(text: str | None) -> Path | None:
    """``--tournament-schedule``: a file, ``none``, or (unset) the packaged schedule."""
    if text is None:
        return DEFAULT_SCHEDULE
    return None if text.lower() == "none" else Path(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    proxies = []
    for proxy in args.trusted_proxy:
        try:  # 10.1.2.3/24 means 10.1.2.0/24 (uvicorn would take it for a name)
            network = ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            parser.error(f"--trusted-proxy: {proxy!r} is not an address or network")
        proxies.append(str(network) if "/" in proxy else proxy)
    args.trusted_proxy = proxies
    if args.bot_workers == 0 and not args.redis:
        parser.error("--bot-workers 0 needs --redis (basra bot-worker processes then "
                     "think for the site)")
    if args.bot_workers is None and args.workers > 1:  # the cores, shared by the nodes
        args.bot_workers = max(1, (os.cpu_count() or 1) // args.workers)
    if args.workers > 1 and not args.redis:
        parser.error("--workers N runs a cluster on this machine: it needs --redis URL "
                     "(and a shared --db, PostgreSQL)")
    if args.public_origin is None and not is_loopback(args.host):
        parser.error(f"--host {args.host} is not loopback: add --public-origin {EXAMPLE} "
                     "(the address people open the site at; its links and passkeys "
                     "name it)")
    setup_logging(args.log_level)
    if args.public_origin is None and args.trusted_proxy:
        log.warning("behind a proxy without --public-origin: links and passkeys name "
                    "http://localhost:%d, not the address people open", args.port)
    if args.redis and not (args.db or "").startswith("postgresql"):
        log.warning("cluster mode on SQLite: every node must reach the same file; "
                    "PostgreSQL is the cluster's database")
    settings = settings_from(args)
    try:
        open_files = open_files_limit()
    except RuntimeError as exc:
        parser.error(str(exc))
    try:
        sock = listening_socket(args.host, args.port, settings)
    except OSError as exc:
        parser.error(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    if settings.public_origin is None:  # loopback: the port as bound (--port 0 too)
        settings = replace(settings,
                           public_origin=bind_origin(args.host, sock.getsockname()[1]))
    log.info("serving on http://%s:%d (open files up to %d)", args.host, args.port,
             open_files)
    if args.workers > 1:
        return supervise(args.workers, settings, sock, args.log_level)
    run_node(settings, sock, args.log_level)
    return 0


def run_node(settings: Settings, sock: socket.socket, log_level: str,
             parent: int | None = None) -> None:
    """One server process on ``sock`` until it is stopped (SIGINT, SIGTERM), or until
    its ``parent`` (the supervisor of ``--workers``) is gone."""
    if parent is not None:
        watch_parent(parent)
    setup_logging(log_level)
    if trace := os.environ.get("BASRA_TRACEMALLOC_DIR"):
        snapshots_on_signal(trace)
    set_memo_limit(SERVER_MEMO_LIMIT)
    server = uvicorn.Server(server_config(create_app(settings), log_level, settings))
    # uvicorn raises a captured Ctrl-C or SIGINT again once it has shut down cleanly
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])


def supervise(workers: int, settings: Settings, sock: socket.socket, log_level: str) -> int:
    """``--workers N``: N node processes share the listening socket (the kernel spreads
    the connections); one that dies is started again; SIGINT or SIGTERM stops them all."""
    context = multiprocessing.get_context("spawn")
    stopping = False

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(target=run_node,
                                  args=(settings, sock, log_level, os.getpid()),
                                  name="basra node")
        process.start()
        return process

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    nodes = [start() for _ in range(workers)]
    while not stopping:
        time.sleep(0.5)
        for i, node in enumerate(nodes):
            if not node.is_alive() and not stopping:
                log.warning("node process %s ended (exit %s): starting another", node.pid,
                            node.exitcode)
                nodes[i] = start()
    for node in nodes:
        if node.pid is not None and node.is_alive():
            os.kill(node.pid, signal.SIGTERM)
    for node in nodes:
        node.join(30)
    return 0


def server_config(app: FastAPI, log_level: str,
                  settings: Settings | None = None) -> uvicorn.Config:
    """How uvicorn runs the app: frames up to 16 KiB, no compression of websocket messages
    (permessage-deflate: a table's messages are deltas of a few hundred bytes, and
    compressing each one for each connection cost 0.1 ms a message, some 8% of the
    server's CPU with 2,000 live tables: more than the bytes it saved are worth), no access
    log (its lines would carry the tokens of websocket URLs), no proxy headers of its own
    (the app reads ``X-Forwarded-For`` from ``--trusted-proxy`` only), and HTTP
    connections with deadlines and a cap per address (:mod:`basra.server.http.guard`)."""
    return uvicorn.Config(app, log_config=None, log_level=log_level, ws_max_size=16 * 1024,
                          proxy_headers=False, lifespan="on", access_log=False,
                          ws_per_message_deflate=False,
                          http=guarded_http(settings or Settings()))
