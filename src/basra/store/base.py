"""The store's rows and errors: what goes in and comes out of every port.

The ports themselves (one protocol per aggregate, and :class:`~basra.store.ports.Store`,
all of them) are in :mod:`basra.store.ports`; two back ends behind one implementation
(:mod:`basra.store.sql`): SQLite, the embedded default, and PostgreSQL. A table's match
is never stored as a state: it is its rounds (with their fairness data) and its plays, an
append-only log that the server replays through the engine to rebuild the table after a
restart. A play is identified by (table, round, index), so storing the same play twice is
refused (:class:`DuplicatePlay`) and no accepted play is ever applied twice. A tournament is
likewise what is stored of it: its entrants, its pairings (an entrant once a round,
:class:`DuplicatePairing`) and their results (each decided once).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from basra.game.engine import side_of

TableKind = Literal["bot", "quick", "private", "tournament"]
TableStatus = Literal["waiting", "playing", "finished", "abandoned"]
ENDED: tuple[TableStatus, ...] = ("finished", "abandoned")
"""The statuses of a table whose match is over (decided or given up)."""


class StoreError(Exception):
    """A store operation that cannot be done (the message says why, in the database's own
    words). Not a :class:`~basra.errors.BasraError`: it is the operator's failure, not bad
    input, so the server logs it and answers ``server/internal`` without its message."""


def aware(moment: datetime | None, what: str) -> datetime | None:
    """``moment`` if it is timezone-aware (or None); a StoreError if it is naive: the store
    cannot know a naive time's zone, so every back end refuses one alike."""
    if moment is not None and moment.tzinfo is None:
        raise StoreError(f"{what} {moment} has no timezone: the store keeps aware UTC times")
    return moment


class DuplicatePlay(StoreError):
    """A play with the same (table, round, index) is already stored."""


class DuplicatePairing(StoreError):
    """An entrant would be paired twice in the same round of a tournament (a swiss round,
    an arena wave): the pairing that was first stands."""


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
    was a node that died (:meth:`~basra.store.ports.AnalysisStore.claim_analysis`
    takes it over)."""
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
    or later (:meth:`~basra.store.ports.IdentityStore.prove_session`); None: never (a
    guest's, a token's alone)."""


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
    """What rating a finished match needs: who sat where and how each side placed.
    ``players``: the account id of each seat, in seat order; ``places``: each side's place
    at the end (0 the winner; equal places drew); ``teams``: seats 0 and 2 against 1 and 3
    (:func:`basra.ratings.rate_sides` is the rule)."""

    variant: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    teams: bool = False

    @classmethod
    def two(cls, variant: str, players: tuple[str, str], first_score: float) -> RatedGame:
        """A two-player match: seat 0's score 1, 0.5 or 0."""
        places = (0, 0) if first_score == 0.5 else (0, 1) if first_score else (1, 0)
        return cls(variant, players, places)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.teams)

    @property
    def sides(self) -> list[list[int]]:
        """Each side's seats."""
        out: list[list[int]] = [[] for _ in self.places]
        for seat in range(len(self.players)):
            out[self.side_of(seat)].append(seat)
        return out


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
    length: str = "full"
    """The match played: ``full``, or RULES.md 6.5's ``short`` one
    (:data:`basra.game.rules.MATCH_LENGTHS`)."""
    tournament_id: str | None = None
    """The tournament that made the table (its kind is ``tournament``), if any."""
    listed: bool = False
    """An open table: listed in the lobby for anyone to sit at (a private table's option)."""


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
    """What :meth:`~basra.store.ports.HistoryStore.play_record` counts of one player."""

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
    took_part: bool = True
    """Whether the player took part: a whole hand of plays of their own, or a rating
    moved (else the match is not theirs to count: :mod:`basra.store.sql.history`)."""


@dataclass(frozen=True, slots=True)
class TableLog:
    """Everything stored about a table: enough to rebuild it."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    rounds: tuple[RoundRow, ...]
    plays: tuple[PlayRow, ...] = field(default=())


TournamentFormat = Literal["arena", "swiss"]
TournamentStatus = Literal["upcoming", "running", "finished", "cancelled"]
EntrantStatus = Literal["active", "paused", "withdrawn"]


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """An arena or a Swiss event, as stored (0008)."""

    id: str
    name: str
    variant: str
    format: TournamentFormat
    status: TournamentStatus
    starts_at: datetime
    created_at: datetime
    minutes: int | None = None
    """An arena's duration."""
    rounds: int | None = None
    """A Swiss event's rounds to play (3 to 11)."""
    round: int = 0
    """A Swiss event's round paired now (0: not started); an arena's last wave."""
    rated: bool = False
    length: str = "short"
    """The match its tables play (:data:`basra.game.rules.MATCH_LENGTHS`; RULES.md 6.5)."""
    clock_seconds: float | None = None
    """Its tables' clock (None: the server's)."""
    min_rating: int | None = None
    max_rating: int | None = None
    private: bool = False
    """Not listed: reached by its link."""
    password_hash: str | None = None
    """The password's hash (argon2, made by the caller); None: no password."""
    created_by: str | None = None
    """The player who made it; None: the server's schedule."""
    schedule_key: str | None = None
    """What the schedule made it as (``hourly-arena-egyptian@2026-12-06T03:00Z``): one
    tournament a key, however many nodes make it at once."""
    started_at: datetime | None = None
    finished_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """Who plays in a tournament: one player now, two for pairs events later."""

    tournament_id: str
    id: str
    """The entrant's id (a solo event's: its player's id)."""
    players: tuple[str, ...]
    """The players making it up (each in one entrant of a tournament at most)."""
    name: str
    """The display name (a nickname, or "A & B")."""
    rating: float
    """The rating when joined (a pair's: the mean)."""
    status: EntrantStatus
    joined_at: datetime
    absences: int = 0
    """A Swiss event's rounds missed at pairing time."""
    usernames: tuple[str | None, ...] = ()
    """Per player, the account's username (None: a guest): filled in when read, as the
    players are then (what is given is not stored)."""
    place: int | None = None
    """The final place (1: the winner), written when the event finishes."""


@dataclass(frozen=True, slots=True)
class PairingRow:
    """Entrants paired in a round (a Swiss round, an arena wave), and their result."""

    tournament_id: str
    id: str
    round: int
    entrants: tuple[str, ...]
    """The entrants' ids in seat order; one alone is a bye (``table_id`` None)."""
    table_id: str | None
    """The table they play at: written after the pairing, so a pairing may name a table
    that is not stored (its node died in between)."""
    created_at: datetime
    points: tuple[float, ...] | None = None
    """Per entrant 1, 0.5 or 0; None while undecided (``decided_at`` None too)."""
    absent: tuple[str, ...] = ()
    """The entrants a bot played for from the start (in seat order)."""
    ratings: tuple[float, ...] = ()
    """Per entrant, the rating when paired (or none at all)."""
    decided_at: datetime | None = None


def checked_pairing(tournament_id: str, pairing: PairingRow) -> PairingRow:
    """The pairing as every back end keeps it (its absent entrants in seat order, its
    numbers floats), or a StoreError for one that none would keep: of another tournament,
    without entrants, with ratings or points not one an entrant, with points but no
    ``decided_at`` (or the reverse), with an absent entrant not among its own, with a naive
    time."""
    what = f"cannot store pairing {pairing.id} of tournament {tournament_id}"
    if pairing.tournament_id != tournament_id:
        raise StoreError(f"{what}: it is of tournament {pairing.tournament_id}")
    if not pairing.entrants:
        raise StoreError(f"{what}: it pairs nobody")
    if len(pairing.ratings) not in (0, len(pairing.entrants)):
        raise StoreError(f"{what}: not one rating an entrant")
    if (pairing.points is None) != (pairing.decided_at is None):
        raise StoreError(f"{what}: points and decided_at go together")
    aware(pairing.created_at, "created_at")
    aware(pairing.decided_at, "decided_at")
    absent = checked_result(what, pairing.entrants, pairing.points, pairing.absent)
    return replace(pairing, entrants=tuple(pairing.entrants), absent=absent,
                   ratings=tuple(float(rating) for rating in pairing.ratings),
                   points=(None if pairing.points is None
                           else tuple(float(scored) for scored in pairing.points)))


def checked_result(what: str, entrants: tuple[str, ...], points: Sequence[float] | None,
                   absent: Collection[str]) -> tuple[str, ...]:
    """The absent entrants in seat order, once ``points`` (unless None) are one an entrant
    and the absent entrants are among ``entrants`` (a StoreError saying ``what`` could not
    be done otherwise)."""
    if points is not None and len(points) != len(entrants):
        raise StoreError(f"{what}: not one point an entrant")
    strangers = set(absent) - set(entrants)
    if strangers:
        raise StoreError(f"{what}: {', '.join(sorted(strangers))} not paired there")
    return tuple(entrant for entrant in entrants if entrant in absent)


# ---------------------------------------------------------------------------------------
# friends and challenges (issue 28)

ChallengePolicy = Literal["anyone", "friends", "nobody"]
"""Who may challenge a player: anyone, the accounts they follow, or nobody."""
CHALLENGE_POLICIES: tuple[ChallengePolicy, ...] = ("anyone", "friends", "nobody")

GameChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]


@dataclass(frozen=True, slots=True)
class PersonRow:
    """An account in a list of follows, followers or blocks, or a search's answer."""

    player_id: str
    username: str
    nickname: str
    since: datetime
    """When the follow or block was made (a search: when the account was made)."""


@dataclass(frozen=True, slots=True)
class GameChallengeRow:
    """A challenge from one player to another to a match of a variant and a seating."""

    id: str
    challenger: PersonRow
    challenged: PersonRow
    variant: str
    players: int
    teams: bool
    rated: bool
    length: str
    status: GameChallengeStatus
    created_at: datetime
    expires_at: datetime
    table_id: str | None = None
    answered_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class NotificationRow:
    """One of the bell's notifications: its kind (``challenge``, ``partner``, ``online``,
    ``tournament``, ``challenge_answered``) and what it says (JSON)."""

    id: str
    player_id: str
    kind: str
    body: dict[str, Any]
    created_at: datetime
    read_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PushRow:
    """A browser's Web Push subscription (its endpoint and keys)."""

    endpoint: str
    player_id: str
    p256dh: str
    auth: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GlickoRow:
    """A Glicko-2 rating as stored: the rating, its deviation and volatility."""

    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True, slots=True)
class PuzzlePlayerRow:
    """A player's puzzle rating and counts (issue 29)."""

    player_id: str
    glicko: GlickoRow
    played: int
    solved: int
    best_streak: int


@dataclass(frozen=True, slots=True)
class PuzzleRatingRow:
    """A puzzle's own rating once tried (issue 29)."""

    puzzle_id: str
    glicko: GlickoRow
    played: int
    solved: int


@dataclass(frozen=True, slots=True)
class PuzzleAttemptRow:
    """A player's first meeting with a puzzle: how it was served (``rated``, ``daily``:
    rated; ``practice``: not) and how the first try ended (``solved``, ``failed``; None
    while open)."""

    player_id: str
    puzzle_id: str
    mode: str
    served_at: datetime
    result: str | None = None


@dataclass(frozen=True, slots=True)
class PuzzleRated:
    """A first try settled and rated: the player's rating before and after, and the
    puzzle's after."""

    before: GlickoRow
    after: GlickoRow
    puzzle: GlickoRow


REPORT_REASONS = ("cheating", "leaving", "name", "phrases", "other")
"""Why a player is reported (issue 31): playing with help, leaving matches, an offensive
name, harassment by phrases, something else (the note says)."""
ReportStatus = Literal["open", "dismissed", "actioned"]


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A report of a player, by a player (``reporter_id``) or by the server itself (None:
    an assistance flag, the statistic in ``detail``)."""

    id: str
    reporter_id: str | None
    player_id: str
    reason: str
    note: str
    status: ReportStatus
    created_at: datetime
    table_id: str | None = None
    resolved_at: datetime | None = None
    resolved_by: str | None = None
    outcome: str | None = None
    """The action taken on it (``warn``, ``ban``, ...), or None (dismissed or open)."""
    detail: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ModLogRow:
    """One moderator's action, as the append-only log keeps it (names as they were)."""

    at: datetime
    moderator_id: str
    moderator_name: str
    player_id: str
    player_name: str
    action: str
    reason: str
    report_id: str | None = None
    detail: dict[str, Any] | None = None
    id: int = 0
    """Given by the store as the row is appended (0 before)."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's standing with the site: a role the operator gave, and what moderators
    decided. The default is a player in good standing."""

    player_id: str
    role: str | None = None
    muted: bool = False
    rated_ban: bool = False
    rename: bool = False
    warnings: int = 0


@dataclass(frozen=True, slots=True)
class StandingChange:
    """What a moderator (or the operator) changes in a player's standing: each field left
    None is kept as it is; ``warn`` adds one warning."""

    role: str | None = None
    clear_role: bool = False
    muted: bool | None = None
    rated_ban: bool | None = None
    rename: bool | None = None
    warn: bool = False


@dataclass(frozen=True, slots=True)
class RefundRow:
    """Rating points given back to a player for what they lost to a banned one: per
    variant, over how many matches, and the rating after."""

    victim_id: str
    variant: str
    points: float
    matches: int
    rating: float


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a moderator closed reports: ``dismissed`` or ``actioned`` (with the action)."""

    status: ReportStatus
    by: str
    at: datetime
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class AssistGameRow:
    """One player's rated match as the expert's analysis saw it (:mod:`basra.match.assist`'s
    per-game summary) and their rating before it."""

    player_id: str
    table_id: str
    variant: str
    at: datetime
    rating: float
    summary: dict[str, Any]
