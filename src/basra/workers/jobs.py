"""Cluster mode's bot jobs: the Redis keys, the job and its answers, the timing rules.

A search (``hard``, ``expert``) becomes a job on a Redis stream that any bot worker takes
(:mod:`~.redis_bots` sends it, :mod:`~.worker` answers it). Plain data: no Redis client here.

Keys (``prefix`` is the site's, ``Settings.redis_prefix``, ``basra:`` unless told otherwise;
``basra serve --redis-prefix`` and ``basra bot-worker --redis-prefix`` must agree):

``{prefix}bots:jobs``
    A stream, read by the consumer group ``workers``. Each entry has one field, ``job``: a
    JSON object ``{"id": 32 hex digits, "level": "hard", "seed": "<bot seed>|<round>|<play
    number>", "iterations": N, "deadline": <time.time() seconds>, "view": SeatView.to_json()}``
    (the view is read back with :func:`basra.game.views.view_from_json`: plain data, never a
    pickle, comes from the network). A job of level ``analysis`` asks the expert's values of
    every legal play instead (:func:`encode_values`).
``{prefix}bots:reply:{id}``
    A list on which the worker pushes the answer, ``Play.to_json()`` as JSON
    (``{"card": "5H", "take": ["4C", "AD"]}``), with the job's acknowledgement in the same
    transaction; the server waits on it with ``BLPOP``. It expires after
    :data:`REPLY_TTL` seconds (an answer that came too late is never read).

Timing. The deadline counts from the start of the bot's turn, as with the local pool: a job
that waited searches for what is left of it. The server waits until the deadline and
:data:`GRACE` more; if no answer has come (no worker, all busy, Redis down, a bad answer) the
``medium`` bot decides inline (well under a millisecond), a warning is logged, and the job is
withdrawn from the stream: the table never stalls. A worker that takes a job whose deadline
has passed searches with the least budget (one rollout per legal play, then it answers) while
the server may still be waiting (up to :data:`GRACE` late), and drops a job later than that
(the server has fallen back already). The deadline is wall-clock time (``time.time()``) of
the server node, compared with the worker's own clock: the machines' clocks are assumed
NTP-synced (a skew of a few milliseconds is nothing against the grace).

A worker killed mid-search. A stream with a consumer group, not a list, because a job taken
is not gone: it stays pending in the group, under the worker's consumer name, until the
answer acknowledges it. The worker's supervisor (:class:`basra.workers.worker.Workers`)
starts a replacement under the same name, which first takes back its name's pending jobs
(and searches what is left of their time). Jobs left pending by a worker host that is gone
altogether are claimed by the other workers once idle for :data:`STALE_SECONDS` and dropped
(long past their deadline).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from basra.bots import LEVELS
from basra.bots.base import SearchBot
from basra.game.cards import parse_card, parse_card_set
from basra.game.engine import Play
from basra.game.views import SeatView, view_from_json
from basra.match.analysis import Values
from basra.workers.service import LEAST_BUDGET

PREFIX = "basra:"
"""The site's keys' default prefix (``Settings.redis_prefix``'s)."""
GROUP = "workers"
"""The consumer group of every bot worker."""
GRACE = 0.5
"""Seconds past a decision's deadline the server still waits for its answer; a worker drops
a job later than that."""
GUARD = 0.5
"""Seconds past the grace after which a Redis that does not answer at all is given up."""
REPLY_TTL = 10
"""Seconds an answer waits on its reply key to be read."""
MAX_JOBS = 10_000
"""The jobs stream is trimmed to about this many entries."""
MAX_BUDGET = 30.0
"""A job's deadline may be at most this far ahead of the worker's clock (a worker searches
no longer than this): a later one is refused as malformed."""
STALE_SECONDS = 60.0
"""A job pending this long with a worker that is gone is claimed by another and dropped; a
consumer idle this long with nothing pending is deleted from the group."""
CONNECT_TIMEOUT = 5.0

_JOB_ID = re.compile(r"[0-9a-f]{32}")
ANALYSIS = "analysis"
"""The level of a job that asks the expert's values of every legal play (a play of a match
being analysed) instead of a decision: its answer is :func:`encode_values`."""
ANALYSIS_SECONDS = 20.0
"""How long the server waits for one play of an analysis (a worker's clock may lag the
node's by up to ``MAX_BUDGET - ANALYSIS_SECONDS`` before it takes the job for malformed)."""


@dataclass(frozen=True, slots=True)
class Keys:
    """The Redis keys of one site's bot jobs (``prefix``: the site's)."""

    prefix: str = PREFIX

    @property
    def jobs(self) -> str:
        return f"{self.prefix}bots:jobs"

    def reply(self, job_id: str) -> str:
        return f"{self.prefix}bots:reply:{job_id}"


@dataclass(frozen=True, slots=True)
class Job:
    """One search asked of the bot workers."""

    id: str
    level: str
    seed: str
    iterations: int
    deadline: float
    """``time.time()`` seconds at which the search must have answered."""
    view: SeatView

    def encode(self) -> bytes:
        return json.dumps({"id": self.id, "level": self.level, "seed": self.seed,
                           "iterations": self.iterations, "deadline": self.deadline,
                           "view": self.view.to_json()}, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes | str, now: float) -> Job:
        """A job read from the stream; ``ValueError`` for anything but a well-formed search
        of a searching level, a deadline at most :data:`MAX_BUDGET` ahead of ``now`` and a
        view with a legal play."""
        try:
            raw = json.loads(data)
            if not isinstance(raw, dict):
                raise ValueError("not a JSON object")
            job_id, level, seed = raw["id"], raw["level"], raw["seed"]
            iterations, deadline = raw["iterations"], raw["deadline"]
            if not (isinstance(job_id, str) and _JOB_ID.fullmatch(job_id)):
                raise ValueError("bad id")
            if not (isinstance(level, str) and (level == ANALYSIS or (level in LEVELS
                    and issubclass(LEVELS[level], SearchBot)))):
                raise ValueError(f"not a searching level: {level!r}")
            if not isinstance(seed, str):
                raise ValueError("bad seed")
            if type(iterations) is not int or iterations < 1:
                raise ValueError("bad iterations")
            if (type(deadline) not in (int, float) or not math.isfinite(deadline)
                    or deadline > now + MAX_BUDGET):
                raise ValueError("bad deadline")
            seen = view_from_json(raw["view"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"missing or malformed field {exc}") from None
        if not seen.legal:
            raise ValueError("a view with no legal play")
        return cls(job_id, level, seed, iterations, float(deadline), seen)


def budget_at(deadline: float, now: float) -> float | None:
    """What a worker taking a job at ``now`` searches for: what is left before the deadline,
    at the least :data:`~.service.LEAST_BUDGET`; None (drop it) past the deadline by more
    than :data:`GRACE`, when the server no longer waits."""
    if now - deadline > GRACE:
        return None
    return max(deadline - now, LEAST_BUDGET)


def encode_values(values: Values) -> bytes:
    """An analysis job's answer: every legal play with its value."""
    return json.dumps([[play.to_json(), value] for play, value in values],
                      separators=(",", ":")).encode()


def decode_values(data: bytes | str, view: SeatView) -> Values:
    """An analysis job's answer read back; ``ValueError`` unless it values exactly
    ``view``'s legal plays."""
    try:
        out = [(Play(parse_card(str(raw["card"])),
                     parse_card_set(str(c) for c in raw["take"])), float(value))
               for raw, value in json.loads(data)]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not an analysis: {exc}") from None
    if sorted(p for p, _ in out) != sorted(view.legal):
        raise ValueError("an analysis that does not value the legal plays")
    return out


def encode_play(play: Play) -> bytes:
    return json.dumps(play.to_json(), separators=(",", ":")).encode()


def decode_play(data: bytes | str, view: SeatView) -> Play:
    """An answer read back; ``ValueError`` unless it is one of ``view``'s legal plays."""
    try:
        raw = json.loads(data)
        play = Play(parse_card(str(raw["card"])), parse_card_set(str(c) for c in raw["take"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a play: {exc}") from None
    if play not in view.legal:
        raise ValueError(f"{play} is not a legal play")
    return play


__all__ = ["ANALYSIS", "ANALYSIS_SECONDS", "CONNECT_TIMEOUT", "GRACE", "GROUP", "GUARD",
           "MAX_BUDGET", "MAX_JOBS", "PREFIX", "REPLY_TTL", "STALE_SECONDS", "Job", "Keys",
           "budget_at", "decode_play", "decode_values", "encode_play", "encode_values"]
