"""The engine-assistance flag: every rated match is analysed by the expert in the
background (:meth:`basra.server.reads.analyses.Analyses.request`, behind every analysis a
player asked for), and each person's decisions are summarised
(:func:`basra.match.assist.summarise`) and kept. Over a player's last
:data:`basra.match.assist.GAMES` rated matches the statistic
(:func:`basra.match.assist.assess`) compares their agreement with the expert on clear
decisions, and their mean cost, with what their rating predicts; an implausible record
raises a report for a moderator (no reporter: the server's), once while one is open. It
never punishes: a moderator reads the matches and decides.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from basra.match.assist import GAMES, GameSummary, assess, summarise
from basra.server.ids import new_id
from basra.store.base import AssistGameRow, ReportRow
from basra.store.ports import Store

log = logging.getLogger("basra.fairplay")

START_RATING = 1500.0
"""The rating a player's first rated match starts from (when the result has none)."""


class Assistance:
    """Per-game summaries and the flag, over the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def analysed(self, table_id: str, document: dict[str, Any], now: datetime) -> None:
        """A rated match's analysis is done: summarise each person's decisions, and flag
        whoever's record over their last matches is implausible."""
        table_log = await self.store.load(table_id)
        if table_log is None or not table_log.table.rated:
            return
        result = table_log.table.result or {}
        if result.get("aborted") or result.get("unrated"):
            return
        before = {r.get("seat"): r.get("before") for r in result.get("ratings") or ()}
        # The stored document names no players (a record's names are read with it).
        document = {**document, "players": [seat.seat for seat in table_log.seats]}
        for seat in table_log.seats:
            if seat.player_id is None:
                continue
            summary = summarise(document, seat.seat)
            rating = float(before.get(seat.seat) or START_RATING)
            await self.store.add_assist_game(AssistGameRow(
                seat.player_id, table_id, table_log.table.variant, now, rating,
                summary.to_json()))
            await self._judge(seat.player_id, now)

    async def assessment(self, player_id: str) -> dict[str, Any] | None:
        """The statistic over the player's last matches, as a moderator reads it (None:
        no rated match analysed yet)."""
        games = await self.store.assist_games(player_id, GAMES)
        if not games:
            return None
        summaries = [GameSummary.from_json(summary) for _, summary in games]
        found = assess(summaries, games[0][0])
        return {"games": len(games), **found.to_json()}

    async def _judge(self, player_id: str, now: datetime) -> None:
        found = await self.assessment(player_id)
        if found is None or not found.get("flagged"):
            return
        open_flags = [r for r in await self.store.reports("open", 50, player_id=player_id)
                      if r.reporter_id is None and r.reason == "cheating"]
        if open_flags:
            return
        log.info("player %s flagged for a moderator: %s", player_id, found.get("reason"))
        await self.store.add_report(ReportRow(
            new_id(), None, player_id, "cheating", str(found.get("reason") or ""), "open",
            now, None, detail=found))


__all__ = ["Assistance"]
