"""An account's browser settings (issue 30; docs/PROTOCOL.md, section 1.10): the /settings
page keeps them in the browser, and for an account on the server too, so they follow it to
another device. Only the known names with one of their values are kept
(``settings/bad_value`` 422 otherwise); a guest's stay in its browser
(``account/required``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from basra.server.http.deps import Account, StoreDep, limit
from basra.server.http.routes.pages import LANGUAGES
from basra.server.wire.errors import ApiError

router = APIRouter()

SETTINGS: Mapping[str, tuple[object, ...]] = MappingProxyType({
    "theme": ("system", "light", "dark"),
    "deck": ("two", "four"),
    "contrast": ("normal", "high"),
    "cardSize": ("small", "medium", "large"),
    "motion": ("normal", "slow", "off"),
    "sound": (True, False),
    "autoContinue": (True, False),
    "confirmPlay": (True, False),
    "reader": (True, False),
    "language": LANGUAGES,
})
"""Every setting's name and its values (the browser's lib/settings.js, and the language)."""


def checked(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The settings sent, each a known name with one of its values, else
    ``settings/bad_value``."""
    out: dict[str, Any] = {}
    for name, value in changes.items():
        allowed = SETTINGS.get(name)
        if allowed is None:
            raise ApiError(f"no setting is called {name[:40]!r}", "settings/bad_value")
        # True == 1 in Python: a flag takes only a JSON boolean, a choice only a string.
        if not any(type(value) is type(v) and value == v for v in allowed):
            choices = ", ".join(str(v).lower() if isinstance(v, bool) else str(v)
                                for v in allowed)
            raise ApiError(f"{name}: one of {choices}", "settings/bad_value")
        out[name] = value
    return out


@router.get("/api/me/settings")
async def settings(player: Account, store: StoreDep) -> dict[str, Any]:
    """``{"settings": {...}}``: the account's kept settings (``{}`` before any is saved)."""
    kept = await store.player_prefs(player.id) or {}
    return {"settings": {k: v for k, v in kept.items() if k in SETTINGS}}


@router.put("/api/me/settings")
async def save(body: Annotated[dict[str, Any], Body()], player: Account, request: Request,
               store: StoreDep) -> dict[str, Any]:
    """Change some settings (the names sent; the others stay): the whole set kept."""
    changes = checked(body)
    limit(request, "tables", "settings saved")
    kept = await store.player_prefs(player.id) or {}
    merged = {k: v for k, v in {**kept, **changes}.items() if k in SETTINGS}
    await store.set_player_prefs(player.id, merged)
    return {"settings": merged}
