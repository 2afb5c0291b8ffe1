"""What ``GET /metrics`` tells Prometheus about this node (docs/DEPLOY.md).

Two kinds of metric:

- **Counted as things happen**, for the whole process (a process is a node): plays
  (``by_bot``), the play-to-broadcast latency, bot think time and the bot queue, store
  commit time, lease moves. They live in :data:`REGISTRY`, this package's own registry
  (not ``prometheus_client``'s global one), defined once at import: several apps in one
  process (the tests) share them and never register a name twice.
- **Read at scrape time** from the app that is asked: its tables by status, its open
  websockets and quick-match tickets, and the node's identity (``basra_node_info``).

Names and labels (all prefixed ``basra_``):

======================================  =========  ======================================
``plays_total{by_bot}``                 counter    plays committed and broadcast
``play_broadcast_seconds``              histogram  a play's check done to its broadcast
                                                   queued to every connection
``bot_think_seconds{level}``            histogram  a bot's turn start to its choice
``bot_queue``                           gauge      bot decisions waiting or thinking now
``store_commit_seconds{operation}``     histogram  a store write, asked for to committed
``loop_lag_seconds``                    histogram  how late the event loop ran a timer
                                                   (sampled every 50 ms): a stall of the
                                                   loop delays every table on the node
``lease_moves_total{event}``            counter    a table's lease: acquired,
                                                   renewed_late, lost, adopted
``tables{status}``                      gauge      tables held in memory: waiting,
                                                   playing, finished
``connections``                         gauge      websockets open on this node
``tickets``                             gauge      quick-match tickets waiting
``node_info{node, version, loop}``      info       this node: its id, the version and
                                                   the event loop's class
======================================  =========  ======================================
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.registry import Collector

from basra import __version__
from basra.store import sql

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The Prometheus text format's content type."""

REGISTRY = CollectorRegistry()
"""The metrics counted as things happen in this process."""

FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Buckets (seconds) of what should take milliseconds: a commit, a play's way out."""
THINK = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1.5, 2.5, 5.0)
"""Buckets (seconds) of a bot's decision: a searching bot's budget is 0.9 s."""

PLAYS = Counter("basra_plays", "Plays committed to the store and broadcast.",
                ["by_bot"], registry=REGISTRY)
PLAY_BROADCAST = Histogram(
    "basra_play_broadcast_seconds",
    "From a checked play (a player's message or a bot's move, taken off the table's "
    "inbox) to its broadcast queued to every connection: the store's commit included.",
    buckets=FAST, registry=REGISTRY)
BOT_THINK = Histogram(
    "basra_bot_think_seconds",
    "From a bot's turn start to its choice (waiting for a worker included; the least "
    "time a bot takes to play, --bot-delay, not).",
    ["level"], buckets=THINK, registry=REGISTRY)
BOT_QUEUE = Gauge("basra_bot_queue", "Bot decisions waiting for a worker or thinking now.",
                  registry=REGISTRY)
STORE_COMMIT = Histogram(
    "basra_store_commit_seconds",
    "A store write transaction, from asking for it to its commit (waiting for SQLite's "
    "write lock included).",
    ["operation"], buckets=FAST, registry=REGISTRY)
PAIRING_WAVE = Histogram(
    "basra_tournament_pairing_seconds",
    "CPU time (the event loop's thread) of one pairing of a tournament's free entrants "
    "(an arena's wave) or of a Swiss round: choosing the pairs and building their rows, "
    "up to the store's write; not the write, nor the tables made after.",
    ["format"], buckets=FAST, registry=REGISTRY)
PRESENCE_FANOUT = Counter(
    "basra_presence_fanout_seconds",
    "CPU time (the event loop's thread) of presence's fan-out here: a page's follows kept "
    "for it when its player's first page opens or last one goes, and each coming or going "
    "handed to the followers' pages here (looked up, encoded, queued).",
    registry=REGISTRY)
PRESENCE_TOLD = Counter("basra_presence_told", "Presence messages queued to pages here.",
                        registry=REGISTRY)
LOOP_LAG = Histogram(
    "basra_loop_lag_seconds",
    "How much later than asked the event loop woke a sampler that sleeps 50 ms at a time: "
    "whatever held the loop (a long callback, a garbage pass) delayed every table as long.",
    buckets=FAST, registry=REGISTRY)
LAG_SAMPLE_SECONDS = 0.05
"""How often :func:`sample_loop_lag` looks."""
LEASE_EVENTS = ("acquired", "renewed_late", "lost", "adopted")
"""What may happen to a table's lease (cluster mode): this node took a table's lease,
renewed it later than it should, lost it, or adopted a table whose node died."""
LEASE_MOVES = Counter("basra_lease_moves", "Moves of tables' leases on this node.",
                      ["event"], registry=REGISTRY)

for _by_bot in ("false", "true"):
    PLAYS.labels(by_bot=_by_bot)
for _event in LEASE_EVENTS:
    LEASE_MOVES.labels(event=_event)

_node: dict[str, str] = {}
"""``{"id": NODE}`` once :func:`node_info` named this node."""


def default_node_id() -> str:
    """``HOSTNAME:PID``: this process, wherever it runs."""
    return f"{socket.gethostname()}:{os.getpid()}"


def node_info(node_id: str | None = None) -> str:
    """Name this node in ``basra_node_info`` (None: :func:`default_node_id`); the name."""
    _node["id"] = node_id or default_node_id()
    return _node["id"]


def node_id() -> str:
    """This node's id: the one :func:`node_info` gave, else :func:`default_node_id`."""
    return _node.get("id") or default_node_id()


# ------------------------------------------------------------------------ the hooks


def played(by_bot: bool, started: float) -> None:
    """A play's broadcast is queued: ``started`` (``time.perf_counter()``) was its check."""
    PLAYS.labels(by_bot="true" if by_bot else "false").inc()
    PLAY_BROADCAST.observe(time.perf_counter() - started)


async def sample_loop_lag(every: float = LAG_SAMPLE_SECONDS) -> None:
    """Observe the loop's lag (:data:`LOOP_LAG`) until cancelled (``basra serve`` runs it
    for its whole life)."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - asked - every))


def bot_chose(level: str, seconds: float) -> None:
    """A bot of ``level`` chose, ``seconds`` after its turn started."""
    BOT_THINK.labels(level=level).observe(seconds)


def paired(fmt: str, cpu_seconds: float) -> None:
    PAIRING_WAVE.labels(format=fmt).observe(cpu_seconds)


def presence_fanned(cpu_seconds: float, told: int = 0) -> None:
    PRESENCE_FANOUT.inc(cpu_seconds)
    if told:
        PRESENCE_TOLD.inc(told)


def lease_moved(event: str) -> None:
    """Count a move of a table's lease: ``event`` is one of :data:`LEASE_EVENTS`."""
    if event not in LEASE_EVENTS:
        raise ValueError(f"a lease event is one of {', '.join(LEASE_EVENTS)}, not {event!r}")
    LEASE_MOVES.labels(event=event).inc()


def committed(operation: str, seconds: float) -> None:
    """The store's commit hook (:data:`basra.store.sql.COMMIT_HOOKS`)."""
    STORE_COMMIT.labels(operation=operation).observe(seconds)


if committed not in sql.COMMIT_HOOKS:
    sql.COMMIT_HOOKS.append(committed)


# ------------------------------------------------------------------------ a scrape


def loop_name() -> str:
    """The running event loop's class: ``uvloop.Loop`` under ``basra serve``."""
    kind = type(asyncio.get_running_loop())
    return f"{kind.__module__}.{kind.__qualname__}"


@dataclass(frozen=True, slots=True)
class Held:
    """What a node holds now, counted by whoever holds it (the metrics route)."""

    tables: Mapping[str, int]
    """Tables in memory by status (waiting, playing, finished)."""
    connections: int
    """Websockets open."""
    tickets: int
    """Quick-match tickets held here."""


class NodeCollector(Collector):
    """What a node holds now, read when Prometheus asks, then the process's counts."""

    def __init__(self, held: Held, loop: str) -> None:
        self.held = held
        self.loop = loop

    def collect(self) -> Iterable[Metric]:
        yield from REGISTRY.collect()
        yield from self.now()

    def now(self) -> Iterator[Metric]:
        node = InfoMetricFamily("basra_node", "This node: its id, the version and the "
                                "event loop it runs on.")
        node.add_metric([], {"node": node_id(), "version": __version__, "loop": self.loop})
        yield node
        tables = GaugeMetricFamily("basra_tables", "Tables held in memory on this node.",
                                   labels=["status"])
        counts = {"waiting": 0, "playing": 0, "finished": 0, **self.held.tables}
        for status, count in counts.items():
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily("basra_connections", "Websockets open on this node.",
                                value=self.held.connections)
        yield GaugeMetricFamily("basra_tickets", "Quick-match tickets waiting on this node.",
                                value=self.held.tickets)


def scrape(held: Held) -> bytes:
    """The Prometheus text of one scrape of a node holding ``held`` (in its event loop)."""
    return generate_latest(NodeCollector(held, loop_name()))


__all__ = [
    "CONTENT_TYPE",
    "LEASE_EVENTS",
    "REGISTRY",
    "Held",
    "bot_chose",
    "committed",
    "lease_moved",
    "node_id",
    "node_info",
    "played",
    "scrape",
]
