"""Lessons (issue 29; docs/PROTOCOL.md, section 1.9): the list with the signed-in account's
progress, one lesson (``basra-lessons/1``, made once by :mod:`basra.lessons`), and an
account marking one done. A guest's progress stays in its browser: marking is for accounts
(``account/required``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request

from basra.lessons import find_lesson, lesson_json, lessons_json
from basra.server.http.deps import Account, MaybePlayer, StoreDep, limit
from basra.server.wire.errors import ApiError

router = APIRouter()


def _known(lesson: str) -> str:
    if find_lesson(lesson) is None:
        raise ApiError(f"no lesson is called {lesson[:40]!r}", "lesson/unknown")
    return lesson


async def _done(store: StoreDep, player_id: str) -> dict[str, str]:
    done = await store.lessons_done(player_id)
    return {lesson: at.isoformat() for lesson, at in sorted(done.items())
            if find_lesson(lesson) is not None}


@router.get("/api/lessons")
async def lessons(player: MaybePlayer, store: StoreDep) -> dict[str, Any]:
    """Every lesson in order; ``done`` (lesson: when) for an account, null otherwise (a
    guest's ticks are its browser's)."""
    done = await _done(store, player.id) if player is not None and player.account else None
    return {**lessons_json(), "done": done}


@router.get("/api/lessons/{lesson}")
async def lesson(lesson: str) -> dict[str, Any]:
    found = lesson_json(_known(lesson))
    assert found is not None
    return found


@router.put("/api/me/lessons/{lesson}")
async def finish(lesson: str, player: Account, request: Request,
                 store: StoreDep) -> dict[str, Any]:
    """The account finished ``lesson`` (again is fine: the first time is kept)."""
    _known(lesson)
    limit(request, "tables", "lessons marked done")
    new = await store.finish_lesson(player.id, lesson, datetime.now(UTC))
    return {"lesson": lesson, "new": new, "done": await _done(store, player.id)}
