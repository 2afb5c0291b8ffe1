"""The security headers of every HTTP answer (pages, the API, static files, errors, the
service worker): one pure ASGI middleware, outermost, that adds each header the answer does
not set itself.

- ``Content-Security-Policy``: scripts, styles, images, fonts, workers and the manifest
  from the site itself only (the pages have no inline script, style element or style
  attribute; the client sets styles through the CSSOM, which the policy allows), images
  also as ``data:`` URLs (the tab's icon on your turn), connections to the site and its
  websocket, no plugins, no ``<base>``, forms posted to the site only, and no framing.
- ``X-Frame-Options: DENY`` (framing, for browsers without ``frame-ancestors``),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` (a page's address,
  an invite code in it, never leaves the site) and ``Cross-Origin-Opener-Policy:
  same-origin``.

The policy names the site's websocket origin (:func:`basra.server.origin.site_origin`,
never the request's ``Host``) beside ``'self'``, for browsers whose ``'self'`` does not
cover ``ws:``/``wss:``.
"""

from __future__ import annotations

from functools import lru_cache

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from basra.server.config import Settings
from basra.server.origin import site_origin, socket_origin

FIXED = (("x-content-type-options", "nosniff"), ("x-frame-options", "DENY"),
         ("referrer-policy", "same-origin"), ("cross-origin-opener-policy", "same-origin"))
"""The headers that do not depend on the site."""


def content_security_policy(origin: str) -> str:
    """The policy of a site at ``origin``.

    >>> content_security_policy("https://play.example.org").split("; ")[4]
    "connect-src 'self' wss://play.example.org"
    """
    return "; ".join((
        "default-src 'self'", "script-src 'self'", "style-src 'self'",
        "img-src 'self' data:", f"connect-src 'self' {socket_origin(origin)}",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'"))


@lru_cache(maxsize=16)
def security_headers(origin: str) -> tuple[tuple[str, str], ...]:
    """Every header the middleware adds, for a site at ``origin``."""
    return (("content-security-policy", content_security_policy(origin)), *FIXED)


class SecurityHeaders:
    """Adds :func:`security_headers` to every HTTP answer (a header the answer sets
    itself is kept); websockets and the lifespan pass through untouched. Pure ASGI: a
    streamed body streams on."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(site_origin(self.settings, scope))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                for name, value in extra:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, with_headers)
