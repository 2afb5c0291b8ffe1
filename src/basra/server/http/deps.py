"""What the routes share, held on ``app.state`` and handed to them with ``Depends``: the
settings, the per-address limits (the sign-in limiter among them), the store and the lobby
(both opened by the app's lifespan), and the guest a request is signed in as, with its
session, or as an account."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Header, WebSocket
from redis.asyncio import Redis
from starlette.requests import HTTPConnection

from basra.server.config import Limits, Settings
from basra.server.fairplay.service import FairPlay
from basra.server.identity.accounts import SignInLimiter, me_json
from basra.server.identity.guests import token_hash
from basra.server.identity.hashing import Hashing
from basra.server.identity.sessions import require_proof
from basra.server.learning.puzzles import Puzzles
from basra.server.limits import (
    AddressAndPlayerLimit,
    AddressBuckets,
    AddressLimit,
    SocketCounts,
    address_key,
    client_address,
)
from basra.server.lobby.tables import Lobby
from basra.server.social.service import Social
from basra.server.tournaments.service import Tournaments
from basra.server.wire.errors import ApiError, error_response
from basra.store.base import SESSION_TOUCH, PlayerRow, SessionRow, StoreError
from basra.store.ports import Store


class SessionTouches:
    """Marks sessions used (``last_seen_at``, which their expiry counts from) at most once
    per :data:`~basra.store.base.SESSION_TOUCH` each, from this process, in the
    background: a request never waits for it. It remembers the sessions touched within
    that window only (at most ``most``)."""

    def __init__(self, most: int = 100_000) -> None:
        self.last: OrderedDict[str, float] = OrderedDict()
        self.most = most
        self.pending: set[asyncio.Task[None]] = set()

    def used(self, store: Store, hashed: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        last = self.last.get(hashed)
        if last is not None and now - last < SESSION_TOUCH.total_seconds():
            return
        self.last[hashed] = now
        self.last.move_to_end(hashed)
        # Oldest first: those touched over the window ago would be touched again anyway.
        window = SESSION_TOUCH.total_seconds()
        while self.last and (len(self.last) > self.most
                             or now - next(iter(self.last.values())) >= window):
            self.last.popitem(last=False)
        task = asyncio.create_task(self._touch(store, hashed))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    def fresh(self, hashed: str, now: float | None = None) -> None:
        """A session made just now: its ``last_seen_at`` is now already, so its first uses
        write nothing (as if touched)."""
        self.last[hashed] = time.monotonic() if now is None else now
        self.last.move_to_end(hashed)

    @staticmethod
    async def _touch(store: Store, hashed: str) -> None:
        # On failure the next use tries again within the hour; nothing is lost.
        with contextlib.suppress(StoreError):
            await store.touch_session(hashed)


@dataclass
class Guards:
    """The per-address limits of one app (docs/PROTOCOL.md, section 5)."""

    guests: AddressLimit
    tables: AddressLimit
    sockets: SocketCounts
    sign_ins: SignInLimiter = field(default_factory=lambda: _sign_ins(Limits()))
    """Failed sign-ins per address and per account (password and passkey)."""
    challenges: AddressLimit = field(default_factory=lambda: _challenges(Limits()))
    """Passkey challenges handed out (each is a stored row), as many as new tables."""
    exports: AddressBuckets = field(default_factory=lambda: AddressBuckets(1.0, 1))
    """Data exports, keyed by player: one a minute."""
    exporting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    """Exports rebuild one record at a time between them (never held while sending)."""
    views: AddressLimit = field(default_factory=lambda: _views(Limits()))
    """Profiles and leaderboards asked for, per address."""
    invites: AddressLimit = field(default_factory=lambda: _invites(Limits()))
    """Invite codes looked up (the invite page and joining), per address: a code cannot
    be guessed at speed."""
    messages: AddressBuckets = field(default_factory=lambda: _messages(Limits()))
    """Websocket messages per address, across all its sockets."""
    hashing: Hashing = field(default_factory=Hashing)
    """Password hashes, in turn per address (:mod:`basra.server.identity.hashing`)."""
    touches: SessionTouches = field(default_factory=SessionTouches)
    """Sessions marked used (their expiry counts from it)."""
    rebuilds: AddressLimit = field(default_factory=lambda: _rebuilds(Limits()))
    """Answers about a table that left memory and is not kept rebuilt (its info, record,
    replay or last state: each rebuilds it from the store), per address."""
    puzzles: AddressAndPlayerLimit = field(default_factory=lambda: _puzzles(Limits()))
    """Puzzle requests, per address and per player."""
    reports: AddressAndPlayerLimit = field(default_factory=lambda: _reports(Limits()))
    """Reports filed (each a stored row), per address and per player."""

    @classmethod
    def of(cls, settings: Settings) -> Guards:
        limits = settings.limits
        return cls(AddressLimit("new guests", limits.guests_per_minute, limits.guest_burst),
                   AddressLimit("new tables", limits.tables_per_minute, limits.table_burst),
                   SocketCounts(limits.sockets_per_address),
                   _sign_ins(limits), _challenges(limits),
                   AddressBuckets(limits.exports_per_minute, 1), asyncio.Semaphore(1),
                   _views(limits), _invites(limits), _messages(limits), Hashing(),
                   SessionTouches(), _rebuilds(limits), _puzzles(limits), _reports(limits))


def _sign_ins(limits: Limits) -> SignInLimiter:
    return SignInLimiter(limits.sign_ins_per_address, limits.sign_ins_per_account,
                         limits.sign_in_window_seconds,
                         (limits.sign_in_attempts_per_minute, limits.sign_in_attempt_burst))


def _views(limits: Limits) -> AddressLimit:
    return AddressLimit("profile, leaderboard and replay views", limits.views_per_minute,
                        limits.view_burst)


def _messages(limits: Limits) -> AddressBuckets:
    return AddressBuckets(limits.address_messages_per_second * 60,
                          limits.address_message_burst)


def _invites(limits: Limits) -> AddressLimit:
    return AddressLimit("invite codes tried", limits.invites_per_minute, limits.invite_burst)


def _rebuilds(limits: Limits) -> AddressLimit:
    return AddressLimit("matches read from the store", limits.rebuilds_per_minute,
                        limits.rebuild_burst)


def _puzzles(limits: Limits) -> AddressAndPlayerLimit:
    return AddressAndPlayerLimit("puzzle requests", limits.puzzles_per_minute,
                                 limits.puzzle_burst)


def _reports(limits: Limits) -> AddressAndPlayerLimit:
    return AddressAndPlayerLimit("reports", limits.reports_per_minute, limits.report_burst)


def _challenges(limits: Limits) -> AddressLimit:
    return AddressLimit("passkey requests", limits.tables_per_minute, limits.table_burst)


@dataclass
class Services:
    """``app.state.services``: everything the routes use."""

    settings: Settings
    guards: Guards
    store: Store | None = None
    lobby: Lobby | None = None
    tournaments: Tournaments | None = None
    social: Social | None = None
    redis: Redis | None = None
    """Cluster mode's Redis client (None in one process on its own)."""
    puzzles: Puzzles | None = None
    fairplay: FairPlay | None = None


def services(conn: HTTPConnection) -> Services:
    found: Services = conn.app.state.services
    return found


def get_settings(conn: HTTPConnection) -> Settings:
    return services(conn).settings


def get_guards(conn: HTTPConnection) -> Guards:
    return services(conn).guards


def get_store(conn: HTTPConnection) -> Store:
    store = services(conn).store
    assert store is not None, "the store opens with the app's lifespan"
    return store


def get_lobby(conn: HTTPConnection) -> Lobby:
    lobby = services(conn).lobby
    assert lobby is not None, "the lobby opens with the app's lifespan"
    return lobby


def get_tournaments(conn: HTTPConnection) -> Tournaments:
    tournaments = services(conn).tournaments
    assert tournaments is not None, "the tournaments open with the app's lifespan"
    return tournaments


def get_social(conn: HTTPConnection) -> Social:
    social = services(conn).social
    assert social is not None, "the social parts open with the app's lifespan"
    return social


async def _social(conn: HTTPConnection) -> Social:
    return get_social(conn)


SocialDep = Annotated[Social, Depends(_social)]


def get_fairplay(conn: HTTPConnection) -> FairPlay:
    fairplay = services(conn).fairplay
    assert fairplay is not None, "fair play opens with the app's lifespan"
    return fairplay


async def _fairplay(conn: HTTPConnection) -> FairPlay:
    return get_fairplay(conn)


FairPlayDep = Annotated[FairPlay, Depends(_fairplay)]


async def me_out(conn: HTTPConnection, player: PlayerRow) -> dict[str, Any]:
    """Who the player is, as ``GET /api/me`` and every sign-in answer it: the account and
    ratings (:func:`~basra.server.identity.accounts.me_json`), the standing and leaver
    state (:meth:`~basra.server.fairplay.service.FairPlay.me_json`)."""
    return {**await me_json(get_store(conn), player),
            **await get_fairplay(conn).me_json(player)}


@contextlib.asynccontextmanager
async def socket_slot(websocket: WebSocket) -> AsyncIterator[bool]:
    """One of the address's open sockets (section 5's limit) for the socket's life: whether
    it was admitted (if not, the handshake was refused with ``rate/limited`` and a
    ``Retry-After``)."""
    sockets = get_guards(websocket).sockets
    address = address_key(client_address(websocket.scope))
    if not sockets.acquire(address):
        await websocket.send_denial_response(error_response(
            "rate/limited", "too many open connections from your address",
            headers={"Retry-After": "10"}))
        yield False
        return
    try:
        yield True
    finally:
        sockets.release(address)


def limit(conn: HTTPConnection, kind: str, what: str | None = None) -> None:
    """Count one action of ``kind`` (``guests`` or ``tables``) for the client's address;
    raises :class:`~basra.server.wire.errors.RateLimited` past the limit. Called in a route's
    body (after its input is checked), so a refused request costs nothing."""
    guards = get_guards(conn)
    (guards.guests if kind == "guests" else guards.tables).check(conn.scope, what)


def limit_rebuild(conn: HTTPConnection, table_id: str) -> None:
    """Count an answer about ``table_id`` for the client's address when it needs the table
    rebuilt from the store (:class:`~basra.server.wire.errors.RateLimited` past the limit); a
    live or kept table costs nothing and is not counted."""
    if get_lobby(conn).needs_build(table_id):
        get_guards(conn).rebuilds.check(conn.scope)


async def player_of(store: Store, token: str | None,
                    touches: SessionTouches | None = None) -> PlayerRow | None:
    """The guest a session token names, if any (its session marked used, through
    ``touches``)."""
    if not token:
        return None
    hashed = token_hash(token)
    player = await store.player_by_token(hashed)
    if player is not None and touches is not None:
        touches.used(store, hashed)
    return player



def bearer(authorization: str | None) -> str:
    return (authorization or "").removeprefix("Bearer ").strip()


async def maybe_player(conn: HTTPConnection,
                       authorization: Annotated[str | None, Header()] = None
                       ) -> PlayerRow | None:
    """The guest a request's ``Authorization: Bearer TOKEN`` names, or None."""
    return await player_of(get_store(conn), bearer(authorization), get_guards(conn).touches)


async def current_player(player: Annotated[PlayerRow | None, Depends(maybe_player)]
                         ) -> PlayerRow:
    """The guest a request's ``Authorization: Bearer TOKEN`` names, or 401."""
    if player is None:
        raise ApiError("sign in as a guest first", "auth/required")
    return player


# FastAPI runs a plain function given to ``Depends`` in its thread pool, a thread hop for
# each on every request: the dependencies are coroutines, which it calls in the loop.


async def _store(conn: HTTPConnection) -> Store:
    return get_store(conn)


async def _lobby(conn: HTTPConnection) -> Lobby:
    return get_lobby(conn)


async def _guards(conn: HTTPConnection) -> Guards:
    return get_guards(conn)


async def _settings(conn: HTTPConnection) -> Settings:
    return get_settings(conn)


async def tournaments_dep(conn: HTTPConnection) -> Tournaments:
    return get_tournaments(conn)


StoreDep = Annotated[Store, Depends(_store)]
LobbyDep = Annotated[Lobby, Depends(_lobby)]
GuardsDep = Annotated[Guards, Depends(_guards)]
SettingsDep = Annotated[Settings, Depends(_settings)]
Player = Annotated[PlayerRow, Depends(current_player)]
MaybePlayer = Annotated[PlayerRow | None, Depends(maybe_player)]


async def current_session(conn: HTTPConnection, player: Player,
                          authorization: Annotated[str | None, Header()] = None
                          ) -> SessionRow:
    """The session (the device) a request is signed in with, or 401."""
    session = await get_store(conn).session_by_token(token_hash(bearer(authorization)))
    if session is None or session.player_id != player.id:
        raise ApiError("sign in as a guest first", "auth/required")
    return session


async def current_account(player: Player) -> PlayerRow:
    """The signed-in player if they have an account, else 403 ``account/required``."""
    if not player.account:
        raise ApiError("this needs an account: claim your guest as one first",
                       "account/required")
    return player


CurrentSession = Annotated[SessionRow, Depends(current_session)]
"""The :class:`~basra.store.base.SessionRow` of the request's token (401 without one)."""
Account = Annotated[PlayerRow, Depends(current_account)]
"""The signed-in player, who must be an account (403 ``account/required``)."""


async def proved_player(conn: HTTPConnection, player: Player,
                        session: CurrentSession) -> PlayerRow:
    """The signed-in player, whose session proved who holds it within the last few
    minutes (403 ``auth/proof_needed``; :func:`~basra.server.identity.sessions.require_proof`)."""
    await require_proof(get_store(conn), player, session,
                        get_settings(conn).fresh_proof_seconds)
    return player


async def proved_account(conn: HTTPConnection, player: Account,
                         session: CurrentSession) -> PlayerRow:
    """An account whose session holds a fresh proof (see :func:`proved_player`)."""
    await require_proof(get_store(conn), player, session,
                        get_settings(conn).fresh_proof_seconds)
    return player


ProvedPlayer = Annotated[PlayerRow, Depends(proved_player)]
"""The signed-in player, with a fresh proof if they have anything to prove with."""
ProvedAccount = Annotated[PlayerRow, Depends(proved_account)]
"""The signed-in account, with a fresh proof if it has anything to prove with."""
