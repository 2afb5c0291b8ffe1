"""The site's public origin (``https://play.example.org``): what its pages' ``og:`` links
name and, unless named otherwise, whom its passkeys belong to (the relying party's id and
origin). It is configured (``basra serve --public-origin``, required on an address other
than loopback) or, on a loopback bind, ``http://localhost:PORT``; it is never taken from a
request's ``Host`` header, which any client writes as it likes.

>>> parse_origin("HTTPS://Play.Example.org:443/")
'https://play.example.org'
>>> bind_origin("127.0.0.1", 8000)
'http://localhost:8000'
>>> socket_origin("https://play.example.org")
'wss://play.example.org'
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from starlette.types import Scope

from basra.server.config import Settings

EXAMPLE = "https://play.example.org"
DEFAULT_PORTS = {"http": 80, "https": 443}
HOST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*")
"""An ASCII host name (an international one is written in punycode: ``xn--...``)."""
LOCALHOST = frozenset({"localhost", "127.0.0.1", "::1"})
"""Binds a browser reaches as ``localhost`` (a passkey's relying party is a name, never
an address)."""


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return None


def _netloc(host: str, port: int | None, scheme: str) -> str:
    address = _address(host)
    name = f"[{address.compressed}]" if isinstance(address, ipaddress.IPv6Address) else host
    return name if port is None or port == DEFAULT_PORTS[scheme] else f"{name}:{port}"


def parse_origin(text: str) -> str:
    """``text`` as an origin: ``http`` or ``https``, a host and maybe a port, nothing
    else (a trailing ``/`` is dropped), in lower case, without the scheme's default port.
    A :class:`ValueError` says in one line what is wrong."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        parts, port = None, None
    scheme = parts.scheme.lower() if parts is not None else ""
    host = (parts.hostname or "") if parts is not None else ""
    if parts is None or scheme not in DEFAULT_PORTS or not host:
        raise ValueError(f"{text!r} is not an origin like {EXAMPLE}")
    if (parts.username is not None or parts.password is not None or parts.query
            or parts.fragment or parts.path not in ("", "/")):
        raise ValueError(f"{text!r} is more than an origin: give the scheme, the host and "
                         f"the port only, like {EXAMPLE}")
    if _address(host) is None and HOST_NAME.fullmatch(host) is None:
        raise ValueError(f"{text!r} has no valid host name (an international name is "
                         "written in punycode, xn--...)")
    return f"{scheme}://{_netloc(host, port, scheme)}"


def is_loopback(host: str) -> bool:
    """Whether a bind address (``--host``) is this machine's own: ``localhost`` or a
    loopback address (``127.0.0.0/8``, ``::1``)."""
    address = _address(host)
    return host.lower() == "localhost" if address is None else address.is_loopback


def bind_origin(host: str, port: int) -> str:
    """The origin of a loopback bind: ``http://localhost:PORT`` for ``127.0.0.1``,
    ``::1`` and ``localhost``; another loopback address as it is."""
    if host.lower() in LOCALHOST:
        return f"http://localhost:{port}"
    return f"http://{_netloc(host, port, 'http')}"


def site_origin(settings: Settings, scope: Scope) -> str:
    """The site's origin: the configured one, else that of the address the connection
    came in on (the listening socket's, as the ASGI server tells it in ``scope["server"]``:
    never the ``Host`` header)."""
    if settings.public_origin:
        return settings.public_origin
    server = scope.get("server")
    if not server or server[1] is None:
        return "http://localhost"
    host, port = server
    return f"http://{_netloc(str(host), int(port), 'http')}"


def socket_origin(origin: str) -> str:
    """The websocket form of an origin (``wss://`` for ``https://``)."""
    scheme, rest = origin.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}"
