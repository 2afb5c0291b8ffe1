"""Web Push (issue 28): notifications to a player's browsers whose page is closed, where they
opted in. VAPID (RFC 8292) and the message encryption (RFC 8291) are pywebpush's; ours is
only which key signs, whom to push and what is said.

The server's VAPID key is made once and kept in ``vapid.pem`` beside the SQLite database (or
read from ``BASRA_VAPID_KEY``, a PEM, for a cluster whose nodes must share it); its public
half is what a browser subscribes with (``GET /api/push/key``). A subscription the push
service says is gone (404 or 410) is forgotten. Pushes run in the background, a few at a
time, each with a timeout: a slow push service never holds a request or a table up.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

import orjson
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02, b64urlencode
from pywebpush import WebPushException, webpush_async

from basra.store.ports import SocialStore

log = logging.getLogger("basra.push")

KEY_FILE = "vapid.pem"
KEY_VARIABLE = "BASRA_VAPID_KEY"
PUSH_SECONDS = 10.0
AT_ONCE = 8
"""Pushes under way at most (the others wait their turn)."""
TTL_SECONDS = 3600
"""How long a push service keeps a push for a browser that is off."""


def vapid_key(data_dir: Path | None) -> Vapid02:
    """The server's VAPID key: ``BASRA_VAPID_KEY``'s PEM, else ``vapid.pem`` in
    ``data_dir`` (made the first time), else a new one for this process's life."""
    pem = os.environ.get(KEY_VARIABLE)
    if pem:
        return Vapid02.from_pem(pem.encode())
    path = data_dir / KEY_FILE if data_dir is not None else None
    if path is not None and path.exists():
        return Vapid02.from_file(str(path))
    key = Vapid02()
    key.generate_keys()
    if path is None:
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    # Made once, whole: written aside, then linked in (atomic, and refused if another
    # node starting on the same folder linked its own first: then that one is the key).
    aside = path.with_name(f".{KEY_FILE}.{os.getpid()}")
    aside.write_bytes(key.private_pem())
    aside.chmod(0o600)
    try:
        os.link(aside, path)
    except FileExistsError:
        return Vapid02.from_file(str(path))
    finally:
        aside.unlink(missing_ok=True)
    return key


def public_key(key: Vapid02) -> str:
    """The key's public half as browsers take it (``applicationServerKey``): the
    uncompressed point, base64url."""
    raw = key.public_key.public_bytes(serialization.Encoding.X962,
                                      serialization.PublicFormat.UncompressedPoint)
    text: str = b64urlencode(raw)
    return text


class Pusher:
    """Web Push to a player's subscribed browsers."""

    def __init__(self, store: SocialStore, key: Vapid02, subject: str) -> None:
        self.store = store
        self.key = key
        self.subject = subject
        """The VAPID ``sub`` claim: a ``mailto:`` or the site's ``https:`` origin."""
        self.public = public_key(key)
        self.turns = asyncio.Semaphore(AT_ONCE)
        self.tasks: set[asyncio.Task[None]] = set()
        self.sent = 0
        self.failed = 0

    def push(self, player_id: str, message: dict[str, Any]) -> None:
        """Push ``message`` (``title``, ``body``, ``url``) to each of the player's
        subscriptions, in the background."""
        task = asyncio.create_task(self._push(player_id, orjson.dumps(message).decode()))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _push(self, player_id: str, data: str) -> None:
        try:
            subscriptions = await self.store.pushes(player_id)
        except Exception:
            log.exception("push: the subscriptions of %s could not be read", player_id)
            return
        for sub in subscriptions:
            async with self.turns:
                await self._one(sub.endpoint, sub.p256dh, sub.auth, data)

    async def _one(self, endpoint: str, p256dh: str, auth: str, data: str) -> None:
        info = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
        try:
            async with asyncio.timeout(PUSH_SECONDS):
                await webpush_async(info, data, vapid_private_key=self.key,
                                    vapid_claims={"sub": self.subject}, ttl=TTL_SECONDS,
                                    timeout=PUSH_SECONDS)
            self.sent += 1
        except WebPushException as exc:
            self.failed += 1
            status = exc.response.status if exc.response is not None else None
            if status in (404, 410):  # the browser unsubscribed: forget it
                await self.store.remove_push(endpoint)
            else:
                log.warning("push to %s failed: %s", endpoint[:60], exc)
        except Exception as exc:  # timeout, refused connection
            self.failed += 1
            log.warning("push to %s failed: %s", endpoint[:60], exc)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
