"""Moderators: the report queue, a player's file, the actions and the append-only log
(docs/MODERATION.md).

A moderator is a player whose standing holds the ``moderator`` role, given by the operator
(``basra admin grant NAME moderator``). Every action takes a reason and is appended to the
log (who, when, to whom, what, why) before it is answered; the reports it settles are
closed with its outcome, and their reporters told. A ban from rated play and tournaments
gives the banned player's rated opponents back the points they lost to them in the last
:data:`REFUND_DAYS` days (lichess's refund): computed from the ratings each rated match
stored before and after, applied, shown in the answer and the log, and told to each.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from basra.server.fairplay.leavers import FORGIVEN_AFTER
from basra.server.fairplay.reports import person_json, report_json
from basra.server.wire.errors import ApiError
from basra.store.base import (
    DELETED_NAME,
    ModLogRow,
    PlayerRow,
    ReportRow,
    Resolution,
    StandingChange,
    StandingRow,
    UsernameLookalike,
    UsernameTaken,
)
from basra.store.ports import Store

Notify = Callable[[str, str, dict[str, Any]], Awaitable[object]]
"""Tell a player something through the bell (player, kind, body)."""

ACTIONS = ("dismiss", "warn", "mute", "unmute", "rename", "ban", "unban", "close")
"""What a moderator may do to a player."""
SETTLES = {"warn", "mute", "rename", "ban", "close"}
"""The actions that close the player's open reports as ``actioned``."""
REFUND_DAYS = 90
"""How far back a ban gives rated opponents their lost points back."""
REASON_MOST = 500
COUNTED = 1000
"""Open reports counted at most (the queue says "1000+" past it): a count that costs the
same however long the queue grows."""
RENAMED = "renamed-"
"""The start of the neutral usernames a forced rename gives (no player may choose one)."""
RENAME_TRIES = 5


@dataclass(frozen=True, slots=True)
class Act:
    """A moderator's action: what, why, and the report it answers (if one)."""

    action: str
    reason: str
    report_id: str | None = None


def standing_json(standing: StandingRow) -> dict[str, Any]:
    return {"role": standing.role, "muted": standing.muted, "rated_ban": standing.rated_ban,
            "rename": standing.rename, "warnings": standing.warnings}


def log_json(entry: ModLogRow) -> dict[str, Any]:
    return {"id": entry.id, "at": entry.at.isoformat(),
            "moderator": {"id": entry.moderator_id, "name": entry.moderator_name},
            "player": {"id": entry.player_id, "name": entry.player_name},
            "action": entry.action, "reason": entry.reason, "report": entry.report_id,
            "detail": entry.detail}


def player_name(player: PlayerRow) -> str:
    return player.username or player.nickname


class Moderation:
    """The moderators' side, over the store; ``notify`` reaches players' bells;
    ``rename`` picks a neutral name for a forced rename; ``signed_out`` ends a closed
    account's sessions everywhere."""

    def __init__(self, store: Store, notify: Notify, rename: Callable[[], str],
                 signed_out: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.notify = notify
        self.rename = rename
        self.signed_out = signed_out

    async def require(self, player: PlayerRow) -> None:
        """Refuse anyone who is not a moderator."""
        if (await self.store.standing(player.id)).role != "moderator":
            raise ApiError("this page is for moderators", "fairplay/not_moderator")

    async def _player(self, player_id: str) -> PlayerRow:
        player = await self.store.player(player_id)
        if player is None:
            raise ApiError("no such player", "report/not_found")
        return player

    # ------------------------------------------------------------------ reading

    async def queue(self, status: str | None, limit: int) -> dict[str, Any]:
        if status not in (None, "open", "dismissed", "actioned"):
            raise ApiError("status is open, dismissed or actioned", "report/bad")
        rows = await self.store.reports(status, limit)  # type: ignore[arg-type]
        people = await self.store.players_by_id(
            {pid for row in rows for pid in (row.player_id, row.reporter_id) if pid})
        waiting = await self.store.open_report_count(COUNTED + 1)
        return {"open": min(waiting, COUNTED), "open_more": waiting > COUNTED,
                "reports": [self._report(row, people) for row in rows]}

    @staticmethod
    def _report(row: ReportRow, people: Mapping[str, PlayerRow | None]) -> dict[str, Any]:
        reporter = people.get(row.reporter_id) if row.reporter_id else None
        return report_json(row, people.get(row.player_id), reporter, for_moderator=True)

    async def dossier(self, player_id: str, now: datetime,
                      assist: dict[str, Any] | None) -> dict[str, Any]:
        """Everything a moderator reads about a player before acting."""
        player = await self._player(player_id)
        finished, left = await self.store.completion(player_id)
        reports = await self.store.reports(None, 50, player_id=player_id)
        people = {**await self.store.players_by_id(
            {row.reporter_id for row in reports if row.reporter_id}), player_id: player}
        matches = [{"table": h.table_id, "variant": h.variant, "rated": h.rated,
                    "finished_at": h.finished_at.isoformat(), "players": list(h.players),
                    "seat": h.seat, "winner": h.winner, "totals": list(h.totals),
                    "change": h.change, "left": h.seat in (h.result.get("left") or ())}
                   for h in await self.store.history(player_id, 20)]
        return {
            "player": {**(person_json(player) or {}),
                       "created_at": player.created_at.isoformat(),
                       "closed": player.nickname == DELETED_NAME and not player.account},
            "standing": standing_json(await self.store.standing(player_id)),
            "completion": completion_json(finished, left),
            "leaves": [at.isoformat() for at in
                       await self.store.leaves(player_id, now - 4 * FORGIVEN_AFTER)],
            "reports": [self._report(row, people) for row in reports],
            "log": [log_json(e) for e in await self.store.mod_log(player_id, 50)],
            "matches": matches,
            "assist": assist}

    async def log(self, limit: int, before: int | None) -> list[dict[str, Any]]:
        return [log_json(e) for e in await self.store.mod_log(None, limit, before)]

    # ------------------------------------------------------------------ acting

    async def act(self, moderator: PlayerRow, player_id: str, act: Act,
                  now: datetime) -> dict[str, Any]:
        """Do ``act`` to the player, log it, settle their reports: the answer."""
        if act.action not in ACTIONS:
            raise ApiError(f"an action is one of {', '.join(ACTIONS)}", "report/bad")
        reason = " ".join(act.reason.split())
        if not reason or len(reason) > REASON_MOST:
            raise ApiError(f"say why, in at most {REASON_MOST} characters", "report/bad")
        player = await self._player(player_id)
        if player.id == moderator.id:
            raise ApiError("a moderator does not act on themself, nor on reports about "
                           "themself", "report/self")
        if act.action != "dismiss":
            if not player.account and player.nickname == DELETED_NAME:
                raise ApiError("this account is closed", "fairplay/closed")
            if (await self.store.standing(player_id)).role == "moderator":
                raise ApiError("a moderator's standing is the operator's to change "
                               "(basra admin)", "fairplay/moderator")
        if act.report_id is not None:
            report = await self.store.report(act.report_id)
            if report is None or report.player_id != player_id:
                raise ApiError("no such report about this player", "report/not_found")
        standing, detail = await self._apply(act.action, player, reason, now)
        entry = ModLogRow(now, moderator.id, player_name(moderator), player_id,
                          player_name(player), act.action, reason, act.report_id,
                          detail or None)
        entry = replace(entry, id=await self.store.append_mod_log(entry))
        if act.action == "close":
            await self.store.delete_account(player_id)
            await self.store.revoke_sessions(player_id)
            if self.signed_out is not None:
                self.signed_out(player_id)
        if act.action == "dismiss" or act.action in SETTLES:
            await self._settle(entry)
        return {"entry": log_json(entry), "refunds": detail.get("refunds", []),
                "standing": standing_json(standing)}

    async def _apply(self, action: str, player: PlayerRow, reason: str,
                     now: datetime) -> tuple[StandingRow, dict[str, Any]]:
        """What the action changes in the player's standing (one statement each: two
        moderators at once both keep theirs), and what the log keeps of it."""
        detail: dict[str, Any] = {}
        change = StandingChange()
        if action == "warn":
            change = StandingChange(warn=True)
            await self.notify(player.id, "warning", {"reason": reason})
        elif action in ("mute", "unmute"):
            change = StandingChange(muted=action == "mute")
        elif action == "rename":
            change = StandingChange(rename=True)
            detail = await self._rename(player, reason)
        elif action in ("ban", "unban"):
            change = StandingChange(rated_ban=action == "ban")
            if action == "ban":  # each lost match refunded once ever (the ledger)
                detail["refunds"] = await self._refund(player, now)
        elif action == "close":
            detail["closed"] = player_name(player)
        return await self.store.change_standing(player.id, change), detail

    async def _rename(self, player: PlayerRow, reason: str) -> dict[str, Any]:
        """A neutral name at once (an account's username too: its profile shows it); the
        player chooses a new one when they next come."""
        for _ in range(RENAME_TRIES):
            username = (f"{RENAMED}{secrets.randbelow(10**8):08d}" if player.account
                        else None)
            new = username or self.rename()
            try:
                await self.store.set_names(player.id, username, new)
                break
            except (UsernameTaken, UsernameLookalike):  # drawn twice: draw again
                continue
        else:
            raise ApiError("no neutral name was free: try again", "fairplay/closed")
        await self.notify(player.id, "warning", {
            "reason": f"A moderator changed your name to {new} ({reason}): choose a new one",
            "renamed": new})
        return {"old_name": player_name(player), "new_name": new}

    async def _settle(self, entry: ModLogRow) -> None:
        """Close the player's open reports (the one acted on, if named) with the action's
        outcome, and tell each reporter."""
        outcome = None if entry.action == "dismiss" else entry.action
        waiting = await self.store.reports("open", 500, player_id=entry.player_id)
        if entry.report_id is not None:
            waiting = [r for r in waiting if r.id == entry.report_id]
        await self.store.resolve_reports(
            entry.player_id, Resolution("dismissed" if outcome is None else "actioned",
                                        entry.moderator_id, entry.at, outcome),
            entry.report_id)
        told: set[str] = set()
        for report in waiting:
            if report.reporter_id and report.reporter_id not in told:
                told.add(report.reporter_id)
                await self.notify(report.reporter_id, "report_answered",
                                  {"outcome": outcome, "player": entry.player_name,
                                   "report": report.id})

    async def _refund(self, player: PlayerRow, now: datetime) -> list[dict[str, Any]]:
        """Give each rated opponent back what they lost to ``player`` lately (matches not
        refunded before)."""
        out = []
        refunded = await self.store.refund_losses(player.id, now - timedelta(days=REFUND_DAYS),
                                                  now)
        people = await self.store.players_by_id({r.victim_id for r in refunded})
        for line in refunded:
            victim = people.get(line.victim_id)
            out.append({"id": line.victim_id, "username": victim and victim.username,
                        "nickname": victim.nickname if victim else DELETED_NAME,
                        "variant": line.variant, "points": round(line.points, 1),
                        "matches": line.matches, "rating": round(line.rating)})
            await self.notify(line.victim_id, "refund", {"points": round(line.points, 1),
                                                         "variant": line.variant,
                                                         "player": player_name(player)})
        return out


def completion_json(finished: int, left: int) -> dict[str, Any]:
    """How many matches a player finished and left, and the share they completed."""
    return {"finished": finished, "left": left,
            "rate": None if finished == 0 else round((finished - left) / finished, 3)}


__all__ = [
    "ACTIONS",
    "REFUND_DAYS",
    "Act",
    "Moderation",
    "completion_json",
    "log_json",
    "standing_json",
]
