"""A refused message, end to end: exactly its error code comes back and the table does not
move. The tests of rematches, seat parts and bot tables share it."""

from __future__ import annotations

from typing import Any

from server_harness import Guest, changes


async def refused(guest: Guest, message: dict[str, Any], code: str) -> None:
    """The message gets exactly that error, and the table does not move (when no one
    else moves it meanwhile)."""
    version, _ = await guest.ping()  # all read up to now
    count = len(guest.errors)
    await guest.send(message)
    pong, before = await guest.ping()
    assert [e["code"] for e in guest.errors[count:]] == [code], (message, guest.errors)
    assert pong == version and not changes(before)
