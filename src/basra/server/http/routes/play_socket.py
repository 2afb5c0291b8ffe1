"""``/ws/tables/{id}``: the websocket on which a table talks to its seats (docs/PROTOCOL.md,
section 2). A connection's writer drains its outbox; its reader checks the message rate,
parses each message and hands it to the table's inbox. A table no longer in memory is
answered from the store: its last state once, then ``closed``."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from basra.server.http.deps import (
    get_guards,
    get_lobby,
    get_settings,
    get_store,
    limit_rebuild,
    player_of,
    socket_slot,
)
from basra.server.http.sockets import SocketRoute
from basra.server.identity.guests import token_hash
from basra.server.limits import TokenBucket, address_key, client_address
from basra.server.lobby.placement import RemoteTable
from basra.server.lobby.tables import LobbyError
from basra.server.table.actor import MOVED_CODE, Table
from basra.server.table.commands import Attach, Detach, Incoming
from basra.server.table.outbox import Outbox
from basra.server.wire.client_messages import (
    ClientMessage,
    PlayMessage,
    ProtocolError,
    SeedMessage,
    SimpleMessage,
    error_message,
    parse_client_message,
)
from basra.server.wire.errors import RateLimited
from basra.server.wire.server_messages import Closed, Error, ServerMessage, Welcome, encode
from basra.store.base import PlayerRow

ESSENTIAL = frozenset({"ready", "resign", "rematch"})
"""With plays and seeds, the messages that move a match on: never held by the address's
shared budget."""


def essential(message: ClientMessage) -> bool:
    return isinstance(message, PlayMessage | SeedMessage) or (
        isinstance(message, SimpleMessage) and message.type in ESSENTIAL)

HELLO_SECONDS = 10.0
"""How long a socket opened with ``?auth=1`` has to send its ``hello`` (its session token)."""


async def table_socket(websocket: WebSocket) -> None:
    """``/ws/tables/{table_id}``. A player's socket is opened with ``?auth=1`` and sends its
    session token as its first message, ``{"type": "hello", "token": ...}``: never in the
    address, which proxies and browsers keep in their logs and histories. A socket without
    ``auth`` is a spectator's."""
    table_id: str = websocket.path_params["table_id"]
    auth = websocket.query_params.get("auth")
    token = websocket.query_params.get("token")
    async with socket_slot(websocket) as admitted:
        if not admitted:
            return
        await websocket.accept()
        if token:
            await _refuse(websocket, "auth/token_in_url", "send the session token in the "
                          "socket's first message (hello), never in its address")
            return
        if auth:
            try:
                token = await hello_token(websocket)
            except ProtocolError as exc:
                await _refuse(websocket, exc.code, exc.message)
                return
        lobby = get_lobby(websocket)
        store = get_store(websocket)
        player = await player_of(store, token, get_guards(websocket).touches)
        session = await store.session_by_token(token_hash(token)) if player and token else None
        who = (player.id, session.id) if player and session else None
        account = bool(who and player and player.account)
        table = await lobby.live(table_id) if len(table_id) <= 64 else None
        if table is None:
            await _from_store(websocket, table_id, player)
        elif isinstance(table, Table):
            await _play(websocket, table, who, account)
        else:  # another process runs it
            await _forward(websocket, table, who, account)


async def hello_token(websocket: WebSocket) -> str:
    """The session token of the socket's first message, ``{"type": "hello", "token"}``,
    sent within :data:`HELLO_SECONDS`; a :class:`ProtocolError` if it is anything else."""
    try:
        async with asyncio.timeout(HELLO_SECONDS):
            frame = await websocket.receive()
    except TimeoutError:
        raise ProtocolError(f"no hello within {HELLO_SECONDS:g} s",
                            "auth/no_hello") from None
    text = frame.get("text")
    if text is None:
        raw = frame.get("bytes")
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else ""
    try:
        message = orjson.loads(text)
    except orjson.JSONDecodeError:
        message = None
    token = message.get("token") if isinstance(message, dict) else None
    if (not isinstance(message, dict) or message.get("type") != "hello"
            or not isinstance(token, str) or not 0 < len(token) <= 200):
        raise ProtocolError('the first message must be {"type": "hello", "token": TOKEN}',
                            "auth/no_hello")
    return token


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await _send(websocket, Error(code, message))
        await websocket.close(code=4400)


async def _send(websocket: WebSocket, message: ServerMessage) -> None:
    await websocket.send_text(encode(message))


async def _from_store(websocket: WebSocket, table_id: str,
                      player: PlayerRow | None) -> None:
    """A table no longer in memory: its last state once (a seated player's own view),
    then ``closed``; a live one that no process here runs now is closed with 1012."""
    try:
        limit_rebuild(websocket, table_id)
        table = await get_lobby(websocket).any_table(table_id)
    except LobbyError as exc:  # table/not_found
        await _send(websocket, Error(exc.code, exc.message))
        await websocket.close(code=4404)
        return
    except RateLimited as exc:
        await _send(websocket, Error(exc.code, exc.message))
        await websocket.close(code=4429)
        return
    if table.status in ("waiting", "playing"):
        # Live, yet no process here runs it now (between two nodes: its node died, or let
        # it go): as when a table moves, 1012 and no `closed`, so the client reconnects
        # and finds it where it is run next.
        await websocket.close(code=MOVED_CODE)
        return
    seat = table.seat_of_player(player.id if player else None)
    await _send(websocket, Welcome(table_id, seat))
    await _send(websocket, table.state_for(seat))
    await _send(websocket, Closed(table.status))
    await websocket.close(code=1000)


@contextlib.contextmanager
def _signed_in(websocket: WebSocket, outbox: Outbox,
               who: tuple[str, str] | None) -> Iterator[None]:
    """The socket is registered under its session while it is open (signing out ends
    it: :mod:`basra.server.identity.signed_in`)."""
    signed_in = get_lobby(websocket).signed_in
    if who is not None:
        signed_in.add(*who, outbox)
    try:
        yield
    finally:
        if who is not None:
            signed_in.remove(*who, outbox)


async def _play(websocket: WebSocket, table: Table, who: tuple[str, str] | None,
                account: bool = False) -> None:
    """One connection at a table (``who``: its player and session, if signed in): its
    writer drains its outbox; this reads, checks the message rate, parses and hands
    messages to the table."""
    outbox = _outbox(websocket)
    with _signed_in(websocket, outbox, who):
        await _play_on(websocket, table, outbox, who[0] if who else None, account)


async def _play_on(websocket: WebSocket, table: Table, outbox: Outbox,
                   player_id: str | None, account: bool = False) -> None:
    address = address_key(client_address(websocket.scope))
    # before any message of its own
    await table.inbox.put(Attach(outbox, player_id, address, account))
    writer = asyncio.create_task(outbox.run())

    async def deliver(message: ClientMessage, _text: str) -> None:
        await table.inbox.put(Incoming(outbox, message))

    reader = asyncio.create_task(_read(websocket, outbox, deliver))
    actor = table.task
    watched = {reader, writer} | ({actor} if actor is not None else set())
    try:
        await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        if actor is not None and actor.done() and outbox.queued == 0 and not outbox.closed:
            # The table left memory before it took this connection: answer from the store.
            await _stop(reader, writer)
            outbox.closed = True
            store = get_store(websocket)
            player = await store.player(player_id) if player_id else None
            await _from_store(websocket, table.row.id, player)
            return
        if not reader.done() and not writer.done():
            await asyncio.wait([reader, writer], return_when=asyncio.FIRST_COMPLETED)
    finally:
        await _stop(reader, writer)
        await table.inbox.put(Detach(outbox))
        await _close(websocket, outbox)


async def _forward(websocket: WebSocket, table: RemoteTable,
                   who: tuple[str, str] | None, account: bool = False) -> None:
    """A socket here for a table another process runs. What the client sends is checked
    and rate-limited here and passed on; what the table sends comes back to this socket's
    outbox (:class:`basra.server.lobby.placement.RemoteTable`)."""
    outbox = _outbox(websocket)
    with _signed_in(websocket, outbox, who):
        await _forward_on(websocket, table, outbox, (who[0] if who else None, account))


async def _forward_on(websocket: WebSocket, table: RemoteTable, outbox: Outbox,
                      player: tuple[str | None, bool]) -> None:
    """``player``: the player's id (None: a spectator) and whether it is an account."""
    link = table.connect(outbox, player[0], address_key(client_address(websocket.scope)),
                         player[1])

    async def deliver(_message: ClientMessage, text: str) -> None:
        link.pass_on(text)

    writer = asyncio.create_task(outbox.run())
    reader = asyncio.create_task(_read(websocket, outbox, deliver))
    try:
        await asyncio.wait([reader, writer], return_when=asyncio.FIRST_COMPLETED)
    finally:
        await _stop(reader, writer)
        link.close()
        await _close(websocket, outbox)


def _outbox(websocket: WebSocket) -> Outbox:
    settings = get_settings(websocket)
    return Outbox(websocket, limit=settings.send_queue_limit,
                  stall_seconds=settings.stall_seconds)


async def _stop(*tasks: asyncio.Task[None]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _close(websocket: WebSocket, outbox: Outbox) -> None:
    """The connection is over: the outbox closes the socket with its own code if it
    began to, else it is closed here (within bounds either way: no task is left)."""
    closing = outbox.closing
    outbox.closed = True
    with contextlib.suppress(Exception):
        if closing is not None:
            async with asyncio.timeout(outbox.stall_seconds + 1):
                await asyncio.shield(closing)
        else:
            async with asyncio.timeout(1.0):
                await websocket.close()


async def _read(websocket: WebSocket, outbox: Outbox,
                deliver: Callable[[ClientMessage, str], Awaitable[None]]) -> None:
    limits = get_settings(websocket).limits
    bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
    # The address's budget across all its sockets (many sockets do not multiply it).
    shared = get_guards(websocket).messages
    address = address_key(client_address(websocket.scope))
    syncs = TokenBucket(limits.syncs_per_minute / 60, limits.sync_burst)
    # Dropped messages drain this one: flood_close drops within 10 s close the socket,
    # however they are spaced.
    patience = TokenBucket(limits.flood_close / 10, limits.flood_close)
    warned = 0.0
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while not outbox.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            over = "" if bucket.take() else (
                f"at most {limits.messages_per_second:g} messages a second")
            message: ClientMessage | None = None
            if not over:
                # A text frame, or a binary one (taken as UTF-8 JSON): never a KeyError.
                text: str | None = frame.get("text")
                raw: str | bytes = text if text is not None else frame.get("bytes") or b""
                try:
                    message = parse_client_message(raw)
                except ProtocolError as exc:
                    outbox.put(error_message(exc))
                    continue
                # The game's own messages always pass the address's budget (a flood from
                # the same address, a tab or a neighbour, never holds a seat's play up).
                if not essential(message) and shared.take(address) is not None:
                    over = "too many messages from your address"
            if over:
                if not patience.take():
                    outbox.close("message flood", code=1008)
                    return
                now = time.monotonic()
                if now - warned >= 1.0:  # one warning a second, not one a message
                    warned = now
                    outbox.put(Error("protocol/rate_limited",
                                     f"{over}: this one was dropped"))
                continue
            assert message is not None
            if isinstance(message, SimpleMessage) and message.type == "sync" \
                    and not syncs.take():
                outbox.put(Error("protocol/rate_limited", f"at most "
                                 f"{limits.syncs_per_minute:g} full states a minute: "
                                 "this sync was dropped"))
                continue
            await deliver(message, raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))


async def drain(websocket: WebSocket, outbox: Outbox) -> None:
    """A page's socket that sends nothing that matters (an event's page, a signed-in
    page): read and drop until it closes, a few frames a second at most."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while not outbox.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            await asyncio.sleep(0.2)


SOCKET = SocketRoute("/ws/tables/{table_id}", table_socket)
"""The table's socket (:mod:`basra.server.http.sockets`)."""
