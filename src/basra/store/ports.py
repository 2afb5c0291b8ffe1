"""The store's ports: one protocol per aggregate the server keeps, and their composite.

A consumer asks for the narrowest port it needs: a table's actor only ever writes its own
table (:class:`TableStore`), the sign-in routes only touch players, sessions and passkeys
(:class:`IdentityStore`), the profile pages only read (:class:`RatingStore`,
:class:`HistoryStore`), a tournament's director keeps its event (:class:`TournamentStore`).
Narrow ports are what let a decorator wrap one aggregate alone (the cluster's fence wraps
only :class:`TableStore`) and let a test stand an in-memory store in for a database
(:class:`basra.store.memory.MemoryTableStore`,
:class:`basra.store.memory_tournaments.MemoryTournamentStore`).

:class:`Store` is all of them at once, with the lifecycle: what the composition root opens,
hands out and closes. Its one implementation is :class:`basra.store.sql.SqlStore`.

They are protocols, not base classes: anything with the methods is one, and nothing
inherits them. Every write commits before it returns. The rows and the errors they take and
raise are in :mod:`basra.store.base`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from basra.store.base import (
    AccountRow,
    AnalysisRow,
    AssistGameRow,
    ChallengePolicy,
    ChallengeRow,
    EntrantRow,
    EntrantStatus,
    GameChallengeRow,
    GameChallengeStatus,
    GlickoRow,
    HistoryRow,
    LeaderRow,
    ModLogRow,
    NotificationRow,
    PairingRow,
    PasskeyRow,
    PersonRow,
    PlayerRow,
    PlayRecord,
    PlayRow,
    PushRow,
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRated,
    PuzzleRatingRow,
    RatedGame,
    RatingPoint,
    RatingRow,
    RefundRow,
    ReportRow,
    ReportStatus,
    Resolution,
    SeatRow,
    SessionRow,
    StandingChange,
    StandingRow,
    TableLog,
    TableRow,
    TableStatus,
    TournamentRow,
    TournamentStatus,
)


class TableStore(Protocol):
    """Tables, their seats, rounds and plays: an append-only log per table that the server
    replays through the engine to rebuild a table after a restart."""

    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None: ...

    async def table(self, table_id: str) -> TableRow | None: ...

    async def table_by_code(self, invite_code: str) -> TableRow | None:
        """The table with this invite code (exactly as stored), whatever its status: the
        caller decides whether it may still be joined."""

    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the table made as a rematch of ``table_id``, if any."""

    async def set_status(self, table_id: str, status: TableStatus) -> None: ...

    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store a seat's occupant, bot level and client seed (replacing the old row)."""

    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: RatedGame | None = None) -> dict[str, Any]:
        """Mark a table finished with its result (sets status and finished_at); for a
        rated match, rate it in the same transaction (:func:`basra.ratings.rate_game`
        on the ratings as stored then) and add ``ratings`` to the result. Returns the
        result as stored."""

    async def live_tables(self) -> list[str]:
        """Ids of tables waiting or playing: the ones to rebuild after a restart."""

    async def finished_tables(self, variant: str, seats: int, limit: int) -> list[str]:
        """Ids of the newest finished tables of ``variant`` with ``seats`` seats (at most
        ``limit``), newest first: what ``basra records`` exports."""

    async def load(self, table_id: str) -> TableLog | None:
        """The table with its seats, rounds and plays (in order)."""

    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        """A pending round: its server seed is drawn and its commitment published."""

    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        """Fix the round's client seed: the deck is determined from now on."""

    async def add_play(self, table_id: str, play: PlayRow) -> None:
        """Append a play; raises :class:`~basra.store.base.DuplicatePlay` if (round, index)
        exists."""


class IdentityStore(Protocol):
    """Players (guests and accounts), their sessions, passkeys and WebAuthn challenges."""

    # players
    async def create_player(self, player_id: str, nickname: str,
                            token_hash: str) -> PlayerRow: ...

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        """The player a live session's token names (never a deleted one; an expired
        session, :data:`~basra.store.base.SESSION_IDLE`, names nobody)."""

    async def touch_session(self, token_hash: str) -> None:
        """The session was used now (its ``last_seen_at``; callers keep it to the hour)."""

    async def rename_player(self, player_id: str, nickname: str) -> None:
        """A player's new nickname (the tables they sit at from now on show it)."""

    async def player(self, player_id: str) -> PlayerRow | None: ...

    # accounts
    async def claim_account(self, player_id: str, username: str,
                            password_hash: str | None) -> PlayerRow:
        """Make a guest an account: its username (unique case-insensitively, else
        :class:`~basra.store.base.UsernameTaken`; looking like no other account's, else
        :class:`~basra.store.base.UsernameLookalike`) and password hash; its history and
        sessions stay."""

    async def account(self, username: str) -> AccountRow | None:
        """The account of this username (any case), if any and not deleted."""

    async def lookalike(self, username: str) -> str | None:
        """The username of an account (not deleted) that looks like this one (the same
        :func:`~basra.confusables.lookalike_key`), if any."""

    async def set_password(self, player_id: str, password_hash: str) -> None: ...

    async def delete_account(self, player_id: str) -> None:
        """Forget the person: name, username, password, sessions, passkeys and ratings
        go; the matches stay, their seats named :data:`~basra.store.base.DELETED_NAME`."""

    # sessions
    async def add_session(self, session: SessionRow, token_hash: str) -> None: ...

    async def session_by_token(self, token_hash: str) -> SessionRow | None: ...

    async def sessions(self, player_id: str) -> list[SessionRow]:
        """The player's sessions, newest first."""

    async def prove_session(self, session_id: str, token_hash: str) -> bool:
        """Its holder proved who they are now (its ``proved_at``), and it goes on with a new
        token (hashing to ``token_hash``): a copy of the old one names nobody any more.
        False if the session is gone."""

    async def revoke_sessions(self, player_id: str, session_id: str | None = None,
                              keep: str | None = None) -> int:
        """End one session of the player's (``session_id``), or all of them but ``keep``;
        how many ended."""

    # passkeys and challenges
    async def add_passkey(self, passkey: PasskeyRow) -> None: ...

    async def passkey(self, credential_id: str) -> PasskeyRow | None: ...

    async def passkeys(self, player_id: str) -> list[PasskeyRow]: ...

    async def passkey_used(self, credential_id: str, sign_count: int) -> None: ...

    async def remove_passkey(self, player_id: str, credential_id: str) -> bool: ...

    async def put_challenge(self, challenge: ChallengeRow) -> None: ...

    async def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        """The challenge, removed (each is answered once); None if unknown. Expired ones
        are returned too: the caller checks ``expires_at``."""


class RatingStore(Protocol):
    """Players' ratings per variant, as rated matches left them (the rating itself is
    written by :meth:`TableStore.finish_table`, in the match's finishing transaction)."""

    async def ratings(self, player_id: str) -> list[RatingRow]: ...

    async def rating_history(self, player_id: str, limit: int = 500) -> list[RatingPoint]:
        """The player's rated matches, oldest first (the last ``limit``)."""

    async def leaderboard(self, variant: str, since: datetime, limit: int = 100,
                          max_deviation: float = 75.0) -> list[LeaderRow]:
        """The best-rated accounts of a variant whose deviation is under
        ``max_deviation`` and who played a rated game since ``since``."""


class AnalysisStore(Protocol):
    """The expert's analyses of finished matches, each run by the one node that claimed it."""

    async def analysis(self, table_id: str) -> AnalysisRow | None:
        """The stored analysis of a match (done, failed or running), if it was asked for."""

    async def claim_analysis(self, table_id: str, iterations: int, seed: int,
                             stale_before: datetime) -> str | None:
        """Take the analysis of ``table_id`` to run it: a new claim's token when no row
        was there (one is made, ``running``), a ``failed`` row is tried again, or a
        ``running`` row's ``updated_at`` is before ``stale_before`` (its node died: it is
        taken over); None when it is done or running elsewhere. Two nodes asking at once:
        one gets a token."""

    async def update_analysis(self, table_id: str, claim: str, status: str,
                              analysis: dict[str, Any] | None = None,
                              message: str | None = None) -> bool:
        """A running analysis under ``claim`` goes on (``running``: only ``updated_at``
        moves) or ends (``done`` with the document, ``failed`` with a message). False (and
        nothing written) when the row is no longer ``running`` under that claim: another
        node took it over."""


class HistoryStore(Protocol):
    """Finished matches as players' histories read them."""

    async def history(self, player_id: str, limit: int = 50) -> list[HistoryRow]:
        """The player's finished matches, newest first."""

    async def play_record(self, player_id: str, since: datetime) -> PlayRecord:
        """How much the player has played: matches finished in all, and rated matches they
        aborted since ``since``."""

    async def rated_between(self, first: str, second: str, since: datetime) -> int:
        """Rated matches the two players finished against each other since ``since``."""


class TournamentStore(Protocol):
    """Arenas and Swiss events: each stores its entrants, its pairings and their results
    before acting on them, so that whichever node runs it next (after a restart, or in a
    cluster) goes on from the store, and no pairing is made twice or lost."""

    async def create_tournament(self, tournament: TournamentRow) -> bool:
        """Store a new tournament; False (and nothing written) when its ``schedule_key`` is
        another's already (the schedule made it on another node)."""

    async def tournament(self, tournament_id: str) -> TournamentRow | None: ...

    async def tournaments(self, statuses: Collection[TournamentStatus], limit: int = 100, *,
                          listed_only: bool = True) -> list[TournamentRow]:
        """The tournaments of these statuses: upcoming and running ones first, soonest
        first; then finished and cancelled ones, the last finished first. Private ones
        only when not ``listed_only``."""

    async def update_tournament(self, tournament_id: str, *,
                                status: TournamentStatus | None = None,
                                round: int | None = None, started_at: datetime | None = None,
                                finished_at: datetime | None = None) -> None:
        """Change the fields given (None leaves one as it is: none is ever cleared)."""

    # entrants

    async def add_entrant(self, entrant: EntrantRow) -> EntrantRow:
        """Join an entrant; joining again changes nothing (the status neither: that is
        :meth:`set_entrant`'s). Returns the entrant as stored."""

    async def set_entrant(self, tournament_id: str, entrant_id: str, *,
                          status: EntrantStatus | None = None,
                          absences: int | None = None) -> None:
        """Change the fields given (None leaves one as it is)."""

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        """The tournament's entrants in the order they joined (``joined_at``, then id)."""

    async def entrant_of(self, tournament_id: str, player_id: str) -> EntrantRow | None:
        """The entrant the player is in, if any."""

    async def set_places(self, tournament_id: str, places: Mapping[str, int]) -> None:
        """The final places (entrant id to place, 1 the winner), when the event finishes."""

    async def trophies(self, player_id: str,
                       limit: int = 20) -> list[tuple[TournamentRow, int]]:
        """The finished tournaments in which the player's entrant placed 1st to 3rd, with
        the place, the last finished first."""

    # pairings

    async def add_pairings(self, tournament_id: str, pairings: Sequence[PairingRow], *,
                           round: int | None = None) -> None:
        """Store pairings, all or none: :class:`~basra.store.base.DuplicatePairing` if an
        entrant would be in two pairings of a round (however many nodes pair at once).
        ``round`` given: the tournament's round is set to it in the same transaction."""

    async def pairings(self, tournament_id: str,
                       round: int | None = None) -> list[PairingRow]:
        """The pairings (of one round, or all) in the order stored (each list as given)."""

    async def undecided(self, tournament_id: str
                        ) -> list[tuple[PairingRow, TableRow | None]]:
        """The pairings without a result yet whose table ended (finished or abandoned:
        with its result) or is not stored (None: its node died between the pairing and the
        table); a pairing whose table is still played is not among them (a director asks
        every second, and at 1,000 live tables reading them all was most of its work)."""

    async def decide(self, tournament_id: str, pairing_id: str, points: Sequence[float],
                     absent: Collection[str] = ()) -> bool:
        """A pairing's result: points per entrant, and who a bot played for from the start.
        False (and nothing written) when it was decided already: a result counts once."""


class SocialStore(Protocol):
    """Friends and challenges (issue 28): follows, blocks, who may challenge whom,
    challenges between players, the bell's notifications and Web Push subscriptions."""

    # follows
    async def follow(self, follower: str, followee: str) -> bool:
        """Follow (whether it is new)."""

    async def unfollow(self, follower: str, followee: str) -> bool: ...

    async def following(self, player_id: str, limit: int = 500) -> list[PersonRow]:
        """The accounts the player follows (their friends), by name."""

    async def followers(self, player_id: str, limit: int = 500) -> list[PersonRow]: ...

    async def follower_ids(self, player_id: str) -> list[str]:
        """Who follows the player."""

    async def following_ids(self, player_id: str) -> list[str]:
        """Whom the player follows (presence keeps it while their pages are open)."""

    async def follows(self, follower: str, followee: str) -> bool: ...

    async def follow_counts(self, player_id: str) -> tuple[int, int]:
        """How many the player follows, and how many follow them."""

    # blocks
    async def block(self, blocker: str, blocked: str) -> bool:
        """Block (whether it is new); any follow between the two ends."""

    async def unblock(self, blocker: str, blocked: str) -> bool: ...

    async def blocked(self, player_id: str) -> list[PersonRow]:
        """The accounts the player blocks."""

    async def blocked_ids(self, player_id: str) -> set[str]:
        """The ids of those the player blocks and of those who block them: whom they never
        meet."""

    # settings
    async def challenge_policy(self, player_id: str) -> ChallengePolicy: ...

    async def set_challenge_policy(self, player_id: str, policy: ChallengePolicy) -> None: ...

    async def player_prefs(self, player_id: str) -> dict[str, Any] | None:
        """The account's browser settings as last saved (issue 30), or None if never."""

    async def set_player_prefs(self, player_id: str, prefs: dict[str, Any]) -> None:
        """Keep the account's browser settings (the whole object, replacing the last)."""

    # challenges between players
    async def add_game_challenge(self, challenge: GameChallengeRow) -> None: ...

    async def game_challenge(self, challenge_id: str) -> GameChallengeRow | None: ...

    async def game_challenges(self, player_id: str, now: datetime) -> list[GameChallengeRow]:
        """The player's open challenges not yet expired, sent and received, newest first."""

    async def answer_game_challenge(self, challenge_id: str, status: GameChallengeStatus,
                                    now: datetime, table_id: str | None = None) -> bool:
        """Settle an open, unexpired challenge once: whether this answer settled it."""

    async def challenges_sent(self, player_id: str, since: datetime) -> int:
        """How many challenges the player sent since ``since`` (the limit's count)."""

    # notifications
    async def add_notification(self, notification: NotificationRow) -> None:
        """Keep it (past the newest :data:`NOTIFICATIONS_KEPT` of a player's, the oldest
        go)."""

    async def add_notifications(self, rows: Collection[NotificationRow]) -> None:
        """Keep them all in one write (an event's start rings every entrant's bell), as
        :meth:`add_notification` keeps one."""

    async def notifications(self, player_id: str, limit: int = 50) -> list[NotificationRow]:
        """The newest first."""

    async def unread_count(self, player_id: str) -> int:
        """How many of the player's notifications are unread."""

    async def read_notifications(self, player_id: str, now: datetime,
                                 ids: Collection[str] | None = None) -> int:
        """Mark these (or all) read; how many were unread."""

    # Web Push
    async def add_push(self, push: PushRow) -> None:
        """Keep a subscription (its endpoint's, replaced)."""

    async def remove_push(self, endpoint: str, player_id: str | None = None) -> bool: ...

    async def pushes(self, player_id: str) -> list[PushRow]: ...

    async def playing(self, player_ids: Collection[str]) -> dict[str, str]:
        """Which of these players sit at a match being played now: the table's id."""

    async def open_tables(self, limit: int = 50) -> list[tuple[TableRow, tuple[SeatRow, ...]]]:
        """The open tables waiting for players (listed in the lobby), newest first, with
        their seats."""

    # finding people
    async def search_accounts(self, prefix: str, limit: int = 20) -> list[PersonRow]:
        """Accounts whose username starts with ``prefix`` (any case), by username."""


class LearningStore(Protocol):
    """Learning (issue 29): the lessons a player finished, puzzle ratings of players and of
    puzzles, and each player's first try at each puzzle."""

    async def lessons_done(self, player_id: str) -> dict[str, datetime]:
        """The lessons the player finished, with when."""

    async def finish_lesson(self, player_id: str, lesson: str, at: datetime) -> bool:
        """Mark a lesson finished (whether it is new)."""

    async def puzzle_player(self, player_id: str) -> PuzzlePlayerRow | None:
        """The player's puzzle rating (None: never rated)."""

    async def puzzle_rating(self, puzzle_id: str) -> PuzzleRatingRow | None:
        """A puzzle's rating (None: never tried; it has the rating it ships with)."""

    async def puzzle_ratings(self) -> list[PuzzleRatingRow]:
        """Every tried puzzle's rating (read once as a node starts)."""

    async def attempted_puzzles(self, player_id: str) -> set[str]:
        """The puzzles the player has met (served or tried)."""

    async def open_puzzles(self, player_id: str) -> list[PuzzleAttemptRow]:
        """The player's first tries of puzzles served rated (``rated``, ``daily``) still
        open, the oldest first."""

    async def serve_puzzle(self, attempt: PuzzleAttemptRow) -> PuzzleAttemptRow:
        """Keep that a puzzle was served to a player, unless they met it before: the row
        as it stands (the earlier one, if any)."""

    async def settle_puzzle(self, player_id: str, puzzle_id: str, solved: bool,
                            shipped: GlickoRow, at: datetime) -> PuzzleRated | None:
        """End the player's first try at a puzzle. Rated (:func:`basra.ratings.rate_game`
        on both ratings as stored at that moment, in the same transaction, the puzzle's
        being ``shipped`` before anyone tried it) only when the puzzle was served to them
        rated and the try is still open: whoever settles it first, on any node. A puzzle
        they never met is kept as met in practice. None when nothing was rated."""

    async def best_streak(self, player_id: str, streak: int, at: datetime) -> int:
        """Raise the player's best streak to ``streak`` if higher: the best now."""


class ModerationStore(Protocol):
    """Fair play (issue 31): reports, the moderators' log, players' standing, the matches
    they left (written by :meth:`TableStore.finish_table` from the result's ``left``),
    the expert's summaries of their rated matches, the words no name may hold."""

    async def add_report(self, report: ReportRow) -> None: ...

    async def report(self, report_id: str) -> ReportRow | None: ...

    async def reports(self, status: ReportStatus | None = "open", limit: int = 50,
                      player_id: str | None = None,
                      reporter_id: str | None = None) -> list[ReportRow]:
        """Reports, newest first: of one status (None: every status), about one player or
        by one reporter when given."""

    async def open_report_count(self, most: int) -> int:
        """How many reports wait for a moderator, counted up to ``most`` (a bounded
        read however many wait)."""

    async def resolve_reports(self, player_id: str, resolution: Resolution,
                              report_id: str | None = None) -> int:
        """Close the open reports about a player (only ``report_id`` when given): how many
        were closed."""

    async def append_mod_log(self, entry: ModLogRow) -> int:
        """Append an action to the log (never changed after): its id."""

    async def mod_log(self, player_id: str | None = None, limit: int = 100,
                      before: int | None = None) -> list[ModLogRow]:
        """The log, newest first (one player's when given; older than ``before``)."""

    async def standing(self, player_id: str) -> StandingRow:
        """The player's standing (a player in good standing when nothing was decided)."""

    async def change_standing(self, player_id: str, change: StandingChange) -> StandingRow:
        """Change the player's standing in one statement (two moderators at once each keep
        their change; warnings add up): the standing after."""

    async def moderators(self) -> list[str]:
        """The ids of the players with the moderator role."""

    async def players_by_id(self, player_ids: Collection[str]) -> dict[str, PlayerRow]:
        """The players of these ids that exist, in one read (a queue's names)."""

    async def leaves(self, player_id: str, since: datetime) -> list[datetime]:
        """When the player left matches since ``since``, oldest first."""

    async def completion(self, player_id: str) -> tuple[int, int]:
        """The player's finished matches (as a seated person) and how many of them they
        left."""

    async def add_assist_game(self, game: AssistGameRow) -> None:
        """A rated match's summary for one player, as the expert's analysis saw it (once a
        match: written again, it is replaced)."""

    async def assist_games(self, player_id: str, limit: int) -> list[tuple[float, dict[str, Any]]]:
        """The player's newest summaries (their rating before the match, the summary),
        newest first."""

    async def refund_losses(self, player_id: str, since: datetime, at: datetime
                            ) -> list[RefundRow]:
        """Give each opponent (any seat on another side) of the player's rated matches
        finished since ``since`` back the rating points they lost in them, per variant, in
        one transaction: each (match, opponent) is refunded once ever (a ledger keeps them,
        so a second ban, or two at once, refunds only what was not refunded yet)."""

    async def set_names(self, player_id: str, username: str | None, nickname: str) -> None:
        """A new display name, and for an account a new username (None: it keeps its own):
        a forced rename, or the name the player chose after one. Raises
        :class:`~basra.store.base.UsernameTaken` or :class:`~basra.store.base.UsernameLookalike`
        as claiming does."""

    async def name_words(self) -> list[str]:
        """The words moderators added to the names' list."""

    async def add_name_word(self, word: str, by: str, at: datetime) -> bool:
        """Add a word (whether it was new)."""

    async def remove_name_word(self, word: str) -> bool: ...


class Lifecycle(Protocol):
    """Opening and closing the store, and asking whether it answers."""

    async def open(self) -> None:
        """Connect and bring the schema up to date (Alembic migrations)."""

    async def close(self) -> None: ...

    async def ping(self) -> bool:
        """Whether the database answers (for the readiness endpoint)."""


class Store(TableStore, IdentityStore, RatingStore, AnalysisStore, HistoryStore,
            TournamentStore, SocialStore, LearningStore, ModerationStore, Lifecycle,
            Protocol):
    """The server's durable storage, every port at once: what the composition root holds.
    Every method commits before it returns."""
