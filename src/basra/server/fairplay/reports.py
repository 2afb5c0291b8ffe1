"""Reports: a player reports another from a table, a profile or a replay (a reason from
:data:`~basra.store.base.REPORT_REASONS`, a short note), sees it received and, later,
whether a moderator acted on it.

Bounded: each report is a stored row, so the route counts them per address and per player
(the ``reports`` guard), and here a reporter files at most :data:`PER_DAY` a day and one
open report about the same player for the same reason (asked again, the open one is
answered).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from basra.server.ids import new_id
from basra.server.wire.errors import ApiError
from basra.store.base import REPORT_REASONS, PlayerRow, ReportRow
from basra.store.ports import Store

PER_DAY = 20
"""Reports one player may file in 24 hours."""
NOTE_MOST = 500
"""Longest note, in characters."""
OUTCOMES = {None: "no action", "warn": "a warning", "mute": "phrases muted",
            "rename": "a new name required", "ban": "banned from rated play and tournaments",
            "close": "account closed"}
"""What a report's outcome says to its reporter."""


@dataclass(frozen=True, slots=True)
class Filing:
    """What a reporter says: the reason, a note, the match concerned."""

    reason: str
    note: str = ""
    table_id: str | None = None


def person_json(player: PlayerRow | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"id": player.id, "username": player.username, "nickname": player.nickname}


def report_json(report: ReportRow, player: PlayerRow | None,
                reporter: PlayerRow | None = None, *, for_moderator: bool = False
                ) -> dict[str, Any]:
    """A report as its reporter sees it (or, ``for_moderator``, with who filed it and the
    statistic of a flag)."""
    who = person_json(player) or {"id": report.player_id, "username": None,
                                  "nickname": "deleted player"}
    out: dict[str, Any] = {
        "id": report.id, "reason": report.reason, "note": report.note,
        "table": report.table_id, "created_at": report.created_at.isoformat(),
        "status": report.status, "outcome": report.outcome,
        "resolved_at": None if report.resolved_at is None else report.resolved_at.isoformat()}
    if for_moderator:
        out["player"] = who
        out["reporter"] = None if reporter is None else person_json(reporter)
        out["detail"] = report.detail
    else:
        out["player"] = {"username": who["username"], "nickname": who["nickname"]}
    return out


class Reports:
    """Filing and reading reports."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def file(self, reporter: PlayerRow, player: PlayerRow, filing: Filing,
                   now: datetime) -> ReportRow:
        reason, note, table_id = filing.reason, filing.note, filing.table_id
        if reason not in REPORT_REASONS:
            raise ApiError(f"a report's reason is one of {', '.join(REPORT_REASONS)}",
                           "report/bad")
        note = " ".join(note.split())
        if len(note) > NOTE_MOST:
            raise ApiError(f"a report's note is at most {NOTE_MOST} characters", "report/bad")
        if reason == "other" and not note:
            raise ApiError("say in the note what happened", "report/bad")
        if player.id == reporter.id:
            raise ApiError("you cannot report yourself", "report/self")
        mine = await self.store.reports(None, PER_DAY + 1, reporter_id=reporter.id)
        for report in mine:
            if (report.status == "open" and report.player_id == player.id
                    and report.reason == reason):
                return report  # already waiting for a moderator
        if sum(1 for r in mine if now - r.created_at < timedelta(days=1)) >= PER_DAY:
            raise ApiError(f"you have filed {PER_DAY} reports today: a moderator is reading "
                           "them", "report/too_many")
        report = ReportRow(new_id(), reporter.id, player.id, reason, note, "open", now,
                           table_id)
        await self.store.add_report(report)
        return report

    async def mine(self, reporter: PlayerRow, limit: int = 50) -> list[dict[str, Any]]:
        rows = await self.store.reports(None, limit, reporter_id=reporter.id)
        people = await self.store.players_by_id({row.player_id for row in rows})
        return [report_json(row, people.get(row.player_id)) for row in rows]


__all__ = ["NOTE_MOST", "OUTCOMES", "PER_DAY", "Filing", "Reports", "person_json", "report_json"]
