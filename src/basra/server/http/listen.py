"""The listening socket of ``basra serve``, made here rather than by uvicorn so that every
connection it accepts inherits two bounds (Linux copies them from the listening socket):

- a small kernel send buffer (``SO_SNDBUF``), so that a peer that stops reading fills it in
  a few messages and the connection's writer notices within its stall limit, instead of
  the kernel quietly holding megabytes for it;
- ``TCP_USER_TIMEOUT``, so that the kernel drops a connection whose sent data stays
  unacknowledged (a peer that vanished, or that never opens its receive window again).
"""

from __future__ import annotations

import socket

from basra.server.config import Settings


def listening_socket(host: str, port: int, settings: Settings) -> socket.socket:
    """A bound, listening TCP socket for ``host:port`` with the bounds above."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if settings.socket_send_buffer > 0:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, settings.socket_send_buffer)
        user_timeout = getattr(socket, "TCP_USER_TIMEOUT", None)
        if user_timeout is not None and settings.tcp_user_timeout_seconds > 0:
            sock.setsockopt(socket.IPPROTO_TCP, user_timeout,
                            int(settings.tcp_user_timeout_seconds * 1000))
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
