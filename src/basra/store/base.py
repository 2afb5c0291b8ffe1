"""The store: where the server keeps players, tables, rounds and plays, durably.

An async interface with two back ends behind one implementation (:mod:`basra.store.sql`):
SQLite, the embedded default, and PostgreSQL. A table's match is never stored as a state:
it is its rounds (with their fairness data) and its plays, an append-only log that the
server replays through the engine to rebuild the table after a restart. A play is
identified by (table, round, index), so storing the same play twice is refused
(:class:`DuplicatePlay`) and no accepted play is ever applied twice.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

TableKind = Literal["bot", "quick", "private"]
TableStatus = Literal["waiting", "playing", "finished", "abandoned"]


class StoreError(Exception):
    """A store operation that cannot be done (the message says why, in the database's own
    words). Not a :class:`~basra.errors.BasraError`: it is the operator's failure, not bad
    input, so the server logs it and answers ``server/internal`` without its message."""


class DuplicatePlay(StoreError):
    """A play with the same (table, round, index) is already stored."""


class UsernameTaken(StoreError):
    """Another account has this username (compared case-insensitively)."""


class UsernameLookalike(StoreError):
    """Another account's username looks like this one (the same
    :func:`~basra.confusables.lookalike_key`: Unicode's confusable skeleton)."""


class AlreadyClaimed(StoreError):
    """The player is an account already (or deleted): it cannot be claimed again."""


DELETED_NAME = "deleted player"
"""How a deleted account's seats are named from then on (its matches stay)."""


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """The expert's analysis of a finished match, as stored (0004)."""

    table_id: str
    status: str
    """``running`` (a node took it), ``done`` or ``failed``."""
    claim: str
    """The token of the node's claim that runs (or ran) it."""
    iterations: int
    seed: int
    requested_at: datetime
    updated_at: datetime
    """Moved by the node running it as it goes; a ``running`` row left this still for long
    was a node that died (:meth:`Store.claim_analysis` takes it over)."""
    analysis: dict[str, Any] | None = None
    """basra-analysis/1, once ``done``."""
    message: str | None = None
    """Why it ``failed``, in one line."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    nickname: str
    """The display name (for an account too: its username is how it signs in)."""
    created_at: datetime
    username: str | None = None
    """An account's username as typed when claimed; None for a guest."""
    has_password: bool = False

    @property
    def account(self) -> bool:
        return self.username is not None


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as sign-in reads it."""

    player: PlayerRow
    password_hash: str | None


SessionKind = Literal["guest", "password", "passkey"]


SESSION_IDLE = timedelta(days=30)
"""An account's session unused this long has expired (signed out)."""
GUEST_SESSION_IDLE = timedelta(days=180)
"""A guest's session unused this long has expired (the guest is gone with it: a guest has
no other way in)."""
SESSION_MAX_AGE = timedelta(days=365)
"""Any session this old has expired, however often it is used."""
SESSION_TOUCH = timedelta(hours=1)
"""How often a session's ``last_seen_at`` is moved at most (one write an hour)."""


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A signed-in device: the store keeps the SHA-256 of its token, never the token."""

    id: str
    player_id: str
    kind: SessionKind
    """How it began: a new guest, a password or a passkey sign-in."""
    created_at: datetime
    user_agent: str | None = None
    address: str | None = None
    last_seen_at: datetime | None = None
    """When it was last used (kept to the hour: :data:`SESSION_TOUCH`); None: not since it
    began."""
    proved_at: datetime | None = None
    """When its holder last proved who they are, with the password or a passkey: at sign-in,
    or later (:meth:`Store.prove_session`); None: never (a guest's, a token's alone)."""


@dataclass(frozen=True, slots=True)
class PasskeyRow:
    credential_id: str
    """The credential's id, base64url without padding."""
    player_id: str
    public_key: bytes
    """COSE-encoded public key."""
    sign_count: int
    name: str
    created_at: datetime
    transports: tuple[str, ...] = ()
    last_used_at: datetime | None = None
    added_by: str | None = None
    """The session it was added from (None before issue 25)."""
    added_from: str | None = None
    """That session's browser (its user agent), kept after the session ends."""


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """A WebAuthn challenge handed out and not yet answered (each is used once)."""

    id: str
    challenge: bytes
    purpose: Literal["register", "sign-in", "prove"]
    player_id: str | None
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating in one variant (:mod:`basra.ratings`)."""

    variant: str
    rating: float
    deviation: float
    volatility: float
    games: int
    rated_at: datetime
    """When its last rated game ended (idle days count from here)."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What rating a finished two-player match needs: who sat where and who won.
    ``players``: the account ids of seats 0 and 1; ``first_score``: seat 0's score (1,
    0.5 or 0)."""

    variant: str
    players: tuple[str, str]
    first_score: float


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One rated match in a player's history: the rating after it."""

    table_id: str
    variant: str
    finished_at: datetime
    rating: float
    deviation: float
    change: float


@dataclass(frozen=True, slots=True)
class LeaderRow:
    player_id: str
    username: str
    nickname: str
    rating: float
    deviation: float
    games: int
    rated_at: datetime


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    player_id: str | None
    """The seated person, or None for a bot seat or an empty one."""
    bot_level: str | None
    """The bot that plays the seat when no person does (None: empty or a person)."""
    client_seed: str
    """The seat's current client seed (FAIRNESS.md), as the player set it."""
    nickname: str | None = None
    """The seated person's nickname (filled in when read with the seat)."""
    account: bool = False
    """Whether the seated person has an account (filled in when read with the seat)."""
    username: str | None = None
    """The seated account's username (filled in when read with the seat; None: a guest)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    kind: TableKind
    variant: str
    seats: int
    teams: bool
    clock_seconds: float
    bot_level: str
    """Level of the bots that fill seats and play for dropped or timed-out players."""
    status: TableStatus
    created_at: datetime
    invite_code: str | None = None
    owner_id: str | None = None
    finished_at: datetime | None = None
    result: dict[str, Any] | None = None
    """For a finished match: {"winner": side, "totals": [...], "sets": [...]}, and for a
    rated one "ratings": per seat {"before", "after", "change", "deviation"}."""
    rematch_of: str | None = None
    rated: bool = False
    """Whether the match moves its players' ratings (two accounts, two seats)."""


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    """1-based: the round's nonce (FAIRNESS.md)."""
    server_seed: str
    commitment: str
    client_seed: str | None
    """Fixed when the round starts; None while the round is pending."""
    started_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PlayRow:
    round_number: int
    index: int
    """1-based position of the play in its round."""
    seat: int
    card: str
    take: tuple[str, ...]
    by_bot: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """What :meth:`Store.play_record` counts of one player."""

    finished: int
    """Matches finished (any kind)."""
    aborted: int
    """Rated matches the player aborted (never played, or resigned too early: the result's
    ``aborted_by`` names their seat) in the window asked for."""


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A finished match as a player's history shows it."""

    table_id: str
    variant: str
    seat: int
    players: tuple[str, ...]
    """Names per seat (nicknames, or bot:LEVEL)."""
    teams: bool
    winner: int | None
    totals: tuple[int, ...]
    finished_at: datetime
    rated: bool = False
    """Whether the match moved its players' ratings (a rated table's aborted match
    did not)."""
    change: float | None = None
    """This player's rating change, for a rated match: the whole rating after less the
    whole rating before (the ``+12`` the match end showed)."""
    result: dict[str, Any] = field(default_factory=dict)
    """The stored result as it is (rounds, basras and points per side, ...)."""
    usernames: tuple[str | None, ...] = ()
    """Per seat: the account's username (None: a guest, a bot, an empty seat)."""


@dataclass(frozen=True, slots=True)
class TableLog:
    """Everything stored about a table: enough to rebuild it."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    rounds: tuple[RoundRow, ...]
    plays: tuple[PlayRow, ...] = field(default=())


class Store(ABC):
    """The server's durable storage. Every method commits before it returns."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date (Alembic migrations)."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def ping(self) -> bool:
        """Whether the database answers (for the readiness endpoint)."""

    # players
    @abstractmethod
    async def create_player(self, player_id: str, nickname: str, token_hash: str) -> PlayerRow:
        ...

    @abstractmethod
    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        """The player a live session's token names (never a deleted one; an expired
        session, :data:`SESSION_IDLE`, names nobody)."""

    @abstractmethod
    async def touch_session(self, token_hash: str) -> None:
        """The session was used now (its ``last_seen_at``; callers keep it to the hour)."""

    @abstractmethod
    async def rename_player(self, player_id: str, nickname: str) -> None:
        """A player's new nickname (the tables they sit at from now on show it)."""

    @abstractmethod
    async def player(self, player_id: str) -> PlayerRow | None: ...

    # accounts and sessions
    @abstractmethod
    async def claim_account(self, player_id: str, username: str,
                            password_hash: str | None) -> PlayerRow:
        """Make a guest an account: its username (unique case-insensitively, else
        :class:`UsernameTaken`; looking like no other account's, else
        :class:`UsernameLookalike`) and password hash; its history and sessions stay."""

    @abstractmethod
    async def account(self, username: str) -> AccountRow | None:
        """The account of this username (any case), if any and not deleted."""

    @abstractmethod
    async def lookalike(self, username: str) -> str | None:
        """The username of an account (not deleted) that looks like this one (the same
        :func:`~basra.confusables.lookalike_key`), if any."""

    @abstractmethod
    async def set_password(self, player_id: str, password_hash: str) -> None: ...

    @abstractmethod
    async def delete_account(self, player_id: str) -> None:
        """Forget the person: name, username, password, sessions, passkeys and ratings
        go; the matches stay, their seats named :data:`DELETED_NAME`."""

    @abstractmethod
    async def add_session(self, session: SessionRow, token_hash: str) -> None: ...

    @abstractmethod
    async def session_by_token(self, token_hash: str) -> SessionRow | None: ...

    @abstractmethod
    async def sessions(self, player_id: str) -> list[SessionRow]:
        """The player's sessions, newest first."""

    @abstractmethod
    async def prove_session(self, session_id: str, token_hash: str) -> bool:
        """Its holder proved who they are now (its ``proved_at``), and it goes on with a new
        token (hashing to ``token_hash``): a copy of the old one names nobody any more.
        False if the session is gone."""

    @abstractmethod
    async def revoke_sessions(self, player_id: str, session_id: str | None = None,
                              keep: str | None = None) -> int:
        """End one session of the player's (``session_id``), or all of them but ``keep``;
        how many ended."""

    @abstractmethod
    async def add_passkey(self, passkey: PasskeyRow) -> None: ...

    @abstractmethod
    async def passkey(self, credential_id: str) -> PasskeyRow | None: ...

    @abstractmethod
    async def passkeys(self, player_id: str) -> list[PasskeyRow]: ...

    @abstractmethod
    async def passkey_used(self, credential_id: str, sign_count: int) -> None: ...

    @abstractmethod
    async def remove_passkey(self, player_id: str, credential_id: str) -> bool: ...

    @abstractmethod
    async def put_challenge(self, challenge: ChallengeRow) -> None: ...

    @abstractmethod
    async def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        """The challenge, removed (each is answered once); None if unknown. Expired ones
        are returned too: the caller checks ``expires_at``."""

    # ratings
    @abstractmethod
    async def ratings(self, player_id: str) -> list[RatingRow]: ...

    @abstractmethod
    async def rating_history(self, player_id: str, limit: int = 500) -> list[RatingPoint]:
        """The player's rated matches, oldest first (the last ``limit``)."""

    @abstractmethod
    async def leaderboard(self, variant: str, since: datetime, limit: int = 100,
                          max_deviation: float = 75.0) -> list[LeaderRow]:
        """The best-rated accounts of a variant whose deviation is under
        ``max_deviation`` and who played a rated game since ``since``."""

    # tables and seats
    @abstractmethod
    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None: ...

    @abstractmethod
    async def table(self, table_id: str) -> TableRow | None: ...

    @abstractmethod
    async def table_by_code(self, invite_code: str) -> TableRow | None: ...

    @abstractmethod
    async def analysis(self, table_id: str) -> AnalysisRow | None:
        """The stored analysis of a match (done, failed or running), if it was asked for."""

    @abstractmethod
    async def claim_analysis(self, table_id: str, iterations: int, seed: int,
                             stale_before: datetime) -> str | None:
        """Take the analysis of ``table_id`` to run it: a new claim's token when no row
        was there (one is made, ``running``), a ``failed`` row is tried again, or a
        ``running`` row's ``updated_at`` is before ``stale_before`` (its node died: it is
        taken over); None when it is done or running elsewhere. Two nodes asking at once:
        one gets a token."""

    @abstractmethod
    async def update_analysis(self, table_id: str, claim: str, status: str,
                              analysis: dict[str, Any] | None = None,
                              message: str | None = None) -> bool:
        """A running analysis under ``claim`` goes on (``running``: only ``updated_at``
        moves) or ends (``done`` with the document, ``failed`` with a message). False (and
        nothing written) when the row is no longer ``running`` under that claim: another
        node took it over."""

    @abstractmethod
    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the table made as a rematch of ``table_id``, if any."""

    @abstractmethod
    async def set_status(self, table_id: str, status: TableStatus) -> None: ...

    @abstractmethod
    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store a seat's occupant, bot level and client seed (replacing the old row)."""

    @abstractmethod
    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: RatedGame | None = None) -> dict[str, Any]:
        """Mark a table finished with its result (sets status and finished_at); for a
        rated match, rate it in the same transaction (:func:`basra.ratings.rate_game`
        on the ratings as stored then) and add ``ratings`` to the result. Returns the
        result as stored."""

    @abstractmethod
    async def live_tables(self) -> list[str]:
        """Ids of tables waiting or playing: the ones to rebuild after a restart."""

    @abstractmethod
    async def load(self, table_id: str) -> TableLog | None:
        """The table with its seats, rounds and plays (in order)."""

    # rounds and plays
    @abstractmethod
    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        """A pending round: its server seed is drawn and its commitment published."""

    @abstractmethod
    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        """Fix the round's client seed: the deck is determined from now on."""

    @abstractmethod
    async def add_play(self, table_id: str, play: PlayRow) -> None:
        """Append a play; raises :class:`DuplicatePlay` if (round, index) exists."""

    # history
    @abstractmethod
    async def history(self, player_id: str, limit: int = 50) -> list[HistoryRow]:
        """The player's finished matches, newest first."""

    @abstractmethod
    async def play_record(self, player_id: str, since: datetime) -> PlayRecord:
        """How much the player has played: matches finished in all, and rated matches they
        aborted since ``since``."""

    @abstractmethod
    async def rated_between(self, first: str, second: str, since: datetime) -> int:
        """Rated matches the two players finished against each other since ``since``."""
