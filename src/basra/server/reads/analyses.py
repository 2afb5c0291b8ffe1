"""The expert's analysis of finished matches, asked for from the replay page and done once.

A request claims the match's row in the store (:meth:`basra.store.base.Store.claim_analysis`:
one node wins; a row a dead node left ``running`` is taken over, a ``failed`` one tried
again) and queues it here. One analysis runs at a time per server process: every play of
the record (:func:`basra.match.analysis.positions`, the record replayed through the driver) that
had a choice is valued by the expert in the bot workers (``BotService.values``: a worker
process of this server, or in cluster mode a job on the bot stream any bot worker takes),
one play at a time, so a table's bot waits behind one play's search at most. The result
is :func:`basra.match.analysis.analyse`'s own document (basra-analysis/1): with the same
iterations and seed ``basra analyse`` gives the same numbers. It is stored, ``done``, and
every later request is answered from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from basra.match.analysis import Analysis, Position, Values, positions
from basra.match.records import MatchRecord
from basra.server.wire.errors import ApiError
from basra.server.wire.server_messages import dumps
from basra.store.ports import Store

if TYPE_CHECKING:
    from basra.workers.service import BotService

log = logging.getLogger("basra.match.analysis")

SEED = 0
"""Every analysis's seed (``basra analyse --seed 0``)."""
STALE_SECONDS = 120.0
"""A ``running`` row not moved for this long was a node that died: it may be taken over."""
TOUCH_SECONDS = 10.0
"""How often a node moves the ``updated_at`` of the analyses it runs and holds waiting."""
QUEUE_MOST = 50
"""Analyses one process holds waiting; more are refused (``analysis/busy``)."""
PER_ASKER = 2
"""Analyses one player (or, without a session, one address) may have waiting or running
here at once; one more is refused (``analysis/too_many``). The queue takes askers in turn:
an asker's second analysis waits behind everyone's first."""


BACKGROUND_MOST = 200
"""Rated matches waiting here to be analysed in the background (the engine-assistance
statistic, docs/MODERATION.md); more are not queued (logged)."""


FAILED_MESSAGE = "the expert could not finish this analysis: ask again"
CACHED = 64
"""Done analyses kept encoded (a done analysis never changes)."""


class Analyses:
    """This process's analyses: the queue, the one running, and what the store holds."""

    def __init__(self, store: Store, bots: BotService, iterations: int) -> None:
        self.store = store
        self.bots = bots
        self.iterations = iterations
        self.queue: list[tuple[str, str, MatchRecord]] = []
        """Waiting here, in order: (table, claim, record); the first is the one running."""
        self.askers: dict[str, str] = {}
        """Who asked for each analysis in the queue."""
        self.progress: dict[str, tuple[int, int]] = {}
        """The analysis running here: plays done, plays in all."""
        self.task: asyncio.Task[None] | None = None
        self.done: OrderedDict[str, bytes] = OrderedDict()
        """Done analyses' answers, encoded."""
        self.background_ids: set[str] = set()
        """The queued analyses nobody asked for (rated matches, for the assistance
        statistic): they wait behind every asked one."""
        self.on_done: list[Callable[[str, dict[str, Any]], Awaitable[None]]] = []
        """Told each analysis this process finished (the table, the document)."""

    async def status(self, table_id: str) -> dict[str, Any] | bytes:
        """``none``, ``queued`` (with its ``position``), ``running`` (``done`` of
        ``total``), ``done`` (with the ``analysis``: encoded, as sent) or ``failed`` (with
        a ``message``)."""
        if table_id in self.progress:
            done, total = self.progress[table_id]
            return {"status": "running", "done": done, "total": total}
        for position, (queued, _, _) in enumerate(self.queue, 1):
            if queued == table_id:
                return {"status": "queued", "position": position}
        cached = self.done.get(table_id)
        if cached is not None:
            self.done.move_to_end(table_id)
            return cached
        row = await self.store.analysis(table_id)
        if row is None:
            return {"status": "none"}
        if row.status == "done":
            body = dumps({"status": "done", "analysis": row.analysis})
            self.done[table_id] = body
            while len(self.done) > CACHED:
                self.done.popitem(last=False)
            return body
        if row.status == "failed":
            return {"status": "failed", "message": row.message}
        if row.updated_at < stale_before():
            return {"status": "none"}
        return {"status": "running", "done": None, "total": None}  # on another node

    async def document(self, table_id: str) -> dict[str, Any] | None:
        """The match's analysis (basra-analysis/1) once it is done, else None."""
        row = await self.store.analysis(table_id)
        if row is None or row.status != "done":
            return None
        return row.analysis

    async def request(self, table_id: str, record: MatchRecord,
                      asker: str = "") -> dict[str, Any] | bytes:
        """Analyse a finished match unless it is done, or under way here or elsewhere
        (``asker``: who asks, a player's id or an address, for their share)."""
        known = await self.status(table_id)
        item = next((q for q in self.queue[1:] if q[0] == table_id), None)
        if item is not None and table_id in self.background_ids:
            # Waiting in the background: someone asks for it now, so it goes in turn.
            if asker and self._held_by(asker) >= PER_ASKER:
                raise ApiError(f"you have {PER_ASKER} matches with the expert already: ask "
                               "again once one is done", "analysis/too_many")
            self.queue.remove(item)
            self.background_ids.discard(table_id)
            self.askers[table_id] = asker
            self._insert(item)
            return await self.status(table_id)
        if isinstance(known, bytes) or known["status"] in ("queued", "running"):
            return known
        if asker and self._held_by(asker) >= PER_ASKER:
            raise ApiError(f"you have {PER_ASKER} matches with the expert already: ask "
                           "again once one is done", "analysis/too_many")
        if len(self.queue) - len(self.background_ids) >= QUEUE_MOST:
            raise ApiError("the expert has too many matches to analyse: ask again in a few "
                           "minutes", "analysis/busy")
        claim = await self.store.claim_analysis(table_id, self.iterations, SEED,
                                                stale_before())
        if claim is not None:
            self.askers[table_id] = asker
            self._insert((table_id, claim, record))
            if self.queue[0][0] == table_id:
                # First in line: it runs now, so its answer counts the plays at once.
                rounds = getattr(record, "rounds", ())  # a test's stand-in has none
                self.progress[table_id] = (0, sum(len(r.plays) for r in rounds))
        if self.queue and (self.task is None or self.task.done()):
            self.task = asyncio.create_task(self._run(), name="analyses")
        return await self.status(table_id)

    async def background(self, table_id: str, record: MatchRecord) -> bool:
        """Queue a rated match's analysis nobody asked for, behind every asked one (at most
        :data:`BACKGROUND_MOST` wait); whether it was queued."""
        if len(self.background_ids) >= BACKGROUND_MOST:
            log.warning("analysis of %s not queued: %d rated matches wait already",
                        table_id, len(self.background_ids))
            return False
        if any(queued == table_id for queued, _, _ in self.queue):
            return False
        claim = await self.store.claim_analysis(table_id, self.iterations, SEED,
                                                stale_before())
        if claim is None:
            return False
        self.background_ids.add(table_id)
        self.queue.append((table_id, claim, record))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run(), name="analyses")
        return True

    def waiting_behind(self, table_id: str) -> bool:
        """Whether the match waits in the background (nobody asked for it yet)."""
        return table_id in self.background_ids

    def _held_by(self, asker: str) -> int:
        return sum(1 for table_id, _, _ in self.queue if self.askers.get(table_id) == asker)

    def _insert(self, item: tuple[str, str, MatchRecord]) -> None:
        """Into the queue in turn: ordered by how many of their asker's are ahead of them
        (then by arrival), so that an asker's n-th waits behind every other asker's n-th.
        The first (running) never moves."""
        if not self.queue:
            self.queue.append(item)
            return
        mine = self.askers.get(item[0], "")
        rank = self._held_by(mine)  # the running one counts: it is its asker's turn
        ahead = {self.askers.get(self.queue[0][0], ""): 1}
        # Asked analyses go before every background one (except one running already).
        at = next((i for i in range(1, len(self.queue))
                   if self.queue[i][0] in self.background_ids), len(self.queue))
        for index in range(1, at):
            other = self.askers.get(self.queue[index][0], "")
            if ahead.get(other, 0) > rank:
                at = index
                break
            ahead[other] = ahead.get(other, 0) + 1
        self.queue.insert(at, item)

    async def _run(self) -> None:
        while self.queue:
            table_id, claim, record = self.queue[0]
            try:
                document = await self._analyse(table_id, claim, record)
                if document is not None and not await self.store.update_analysis(
                        table_id, claim, "done", analysis=document):
                    log.warning("analysis of %s: another node took it over", table_id)
                elif document is not None:
                    log.info("match %s analysed", table_id)
                    await self._tell(table_id, document)
            except asyncio.CancelledError:
                raise
            except Exception:  # the row says it failed (the log says why); the queue goes on
                log.exception("the analysis of %s failed", table_id)
                with contextlib.suppress(Exception):
                    await self.store.update_analysis(table_id, claim, "failed",
                                                     message=FAILED_MESSAGE)
            finally:
                self.progress.pop(table_id, None)
                self.queue.pop(0)
                self.askers.pop(table_id, None)
                self.background_ids.discard(table_id)

    async def _tell(self, table_id: str, document: dict[str, Any]) -> None:
        for listener in self.on_done:
            try:
                await listener(table_id, document)
            except Exception:  # a listener's fault never stops the queue
                log.exception("a listener of the analysis of %s failed", table_id)

    async def _analyse(self, table_id: str, claim: str,
                       record: MatchRecord) -> dict[str, Any] | None:
        """The document (None: another node took the analysis over meanwhile)."""
        plays = await asyncio.to_thread(lambda: list(positions(record)))
        self.progress[table_id] = (0, len(plays))
        judged = []
        touched = time.monotonic()
        for position in plays:
            values = None
            if len(position.view.legal) > 1:
                values = await self._values(position)
            judged.append(position.judged(values))
            self.progress[table_id] = (len(judged), len(plays))
            if time.monotonic() - touched > TOUCH_SECONDS:
                if not await self._touch():
                    return None
                touched = time.monotonic()
        analysis = Analysis(record.rules.name, tuple(record.players), self.iterations, SEED,
                            tuple(judged))
        document = analysis.to_json()
        # The names are the record's, as they are when it is read (a deleted account's
        # seat is "deleted player" from then on): not kept in the stored analysis.
        del document["players"]
        return document

    async def _values(self, position: Position) -> Values:
        """One play's values; asked again once when the workers did not answer."""
        try:
            return await self.bots.values(position.view, position.seed(SEED),
                                          self.iterations)
        except RuntimeError:
            log.warning("a play of an analysis got no answer: asked again")
            return await self.bots.values(position.view, position.seed(SEED),
                                          self.iterations)

    async def _touch(self) -> bool:
        """Move every queued row's ``updated_at`` (waiting is not dying); False when the
        running one was taken over by another node."""
        running = True
        for index, (table_id, claim, _) in enumerate(list(self.queue)):
            if not await self.store.update_analysis(table_id, claim, "running"):
                if index == 0:
                    running = False
                else:
                    self.queue = [q for q in self.queue if q[0] != table_id]
                    self.askers.pop(table_id, None)
                    self.background_ids.discard(table_id)
        return running

    async def close(self) -> None:
        """Stop (a match under way is left ``running`` and taken over once stale)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None


def stale_before() -> datetime:
    return datetime.now(UTC) - timedelta(seconds=STALE_SECONDS)


__all__ = ["PER_ASKER", "QUEUE_MOST", "SEED", "STALE_SECONDS", "Analyses"]
