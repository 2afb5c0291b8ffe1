"""Fair play (issue 31; docs/MODERATION.md, docs/PROTOCOL.md section 1.11): reports,
the player's standing and new name after a forced rename, and the moderators' API."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import AfterValidator, BaseModel, Field

from basra.server.fairplay.moderation import RENAMED, Act
from basra.server.fairplay.reports import Filing, report_json
from basra.server.http.deps import (
    FairPlayDep,
    Player,
    StoreDep,
    get_guards,
    me_out,
)
from basra.server.identity.accounts import clean_username
from basra.server.identity.guests import clean_nickname
from basra.server.wire.errors import ApiError
from basra.store.base import PlayerRow, StandingChange, UsernameLookalike, UsernameTaken
from basra.store.ports import Store

router = APIRouter()

ID = r"^[A-Za-z0-9_-]{1,64}$"
"""An id as the server makes them (players, tables, reports)."""
PlayerId = Annotated[str, Path(pattern=ID)]


def plain(text: str | None) -> str | None:
    """Text with no control character (a NUL, say), else refused."""
    if text is not None and any(unicodedata.category(ch) == "Cc" and ch not in "\n\t"
                                for ch in text):
        raise ValueError("control characters are not allowed")
    return text


Plain = Annotated[str, AfterValidator(plain)]


class ReportIn(BaseModel):
    username: Plain | None = Field(default=None, max_length=100)
    table: str | None = Field(default=None, pattern=ID)
    seat: int | None = Field(default=None, ge=0, le=3)
    reason: Plain = Field(max_length=20)
    note: Plain = Field(default="", max_length=2000)


class ActionIn(BaseModel):
    action: Plain = Field(max_length=20)
    reason: Plain = Field(default="", max_length=2000)
    report: str | None = Field(default=None, pattern=ID)


class WordIn(BaseModel):
    word: Plain = Field(max_length=60)


class UsernameIn(BaseModel):
    username: Plain = Field(max_length=200)


async def reported(store: Store, body: ReportIn) -> PlayerRow:
    """The player a report is about: by username, or by their seat at a table (the
    match named must exist)."""
    if body.table is not None and await store.table(body.table) is None:
        raise ApiError("no such match", "report/not_found")
    if body.username:
        found = await store.account(body.username.strip())
        if found is not None:
            return found.player
    elif body.table is not None and body.seat is not None:
        log = await store.load(body.table)
        seat = None if log is None else next(
            (s for s in log.seats if s.seat == body.seat), None)
        if seat is not None and seat.player_id is not None:
            player = await store.player(seat.player_id)
            if player is not None:
                return player
    raise ApiError("no such player to report", "report/not_found")


@router.post("/api/reports", status_code=201)
async def report(body: ReportIn, request: Request, player: Player, store: StoreDep,
                 fairplay: FairPlayDep) -> dict[str, Any]:
    get_guards(request).reports.check(request.scope, "reports", player.id)
    about = await reported(store, body)
    filed = await fairplay.reports.file(player, about,
                                        Filing(body.reason, body.note, body.table),
                                        fairplay.clock())
    return {"report": report_json(filed, about)}


@router.get("/api/reports")
async def my_reports(player: Player, fairplay: FairPlayDep) -> dict[str, Any]:
    return {"reports": await fairplay.reports.mine(player)}


@router.put("/api/me/username")
async def new_username(body: UsernameIn, request: Request, player: Player, store: StoreDep,
                       fairplay: FairPlayDep) -> dict[str, Any]:
    """The name a player chooses after a moderator renamed them (only then)."""
    standing = await store.standing(player.id)
    if not standing.rename:
        raise ApiError("your name may be changed only after a moderator asks for it",
                       "fairplay/no_rename")
    name = clean_username(body.username) if player.account else clean_nickname(
        body.username)
    if name.casefold().startswith(RENAMED):
        raise ApiError("choose a name of your own", "report/bad")
    await fairplay.check_name(name)
    try:
        await store.set_names(player.id, name if player.account else None, name)
    except UsernameTaken:
        raise ApiError(f"the username {name!r} is taken", "account/username_taken") from None
    except UsernameLookalike as exc:
        raise ApiError(str(exc), "account/username_lookalike") from None
    await store.change_standing(player.id, StandingChange(rename=False))
    renamed = await store.player(player.id)
    assert renamed is not None
    return await me_out(request, renamed)


# ---------------------------------------------------------------------- moderators

@router.get("/api/mod/reports")
async def mod_reports(player: Player, fairplay: FairPlayDep, status: str | None = "open",
                      limit: int = 50) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    return await fairplay.moderation.queue(status or None, max(1, min(limit, 200)))


@router.get("/api/mod/players/{player_id}")
async def mod_player(player_id: PlayerId, player: Player,
                     fairplay: FairPlayDep) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    return await fairplay.dossier(player_id)


@router.post("/api/mod/players/{player_id}/actions")
async def mod_action(player_id: PlayerId, body: ActionIn, player: Player,
                     fairplay: FairPlayDep) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    return await fairplay.moderation.act(player, player_id,
                                         Act(body.action, body.reason, body.report),
                                         fairplay.clock())


@router.get("/api/mod/log")
async def mod_log(player: Player, fairplay: FairPlayDep,
                  before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
                  limit: int = 100) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    return {"log": await fairplay.moderation.log(max(1, min(limit, 500)), before)}


@router.get("/api/mod/words")
async def mod_words(player: Player, fairplay: FairPlayDep, store: StoreDep) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    return {"words": await store.name_words()}


@router.post("/api/mod/words", status_code=201)
async def add_word(body: WordIn, player: Player, fairplay: FairPlayDep) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    return {"words": await fairplay.add_word(player, body.word)}


@router.delete("/api/mod/words/{word}")
async def remove_word(word: Annotated[str, Path(max_length=60)], player: Player,
                      fairplay: FairPlayDep) -> dict[str, Any]:
    await fairplay.moderation.require(player)
    try:
        plain(word)
    except ValueError:
        raise ApiError("control characters are not allowed", "report/bad") from None
    return {"words": await fairplay.remove_word(player, word)}
