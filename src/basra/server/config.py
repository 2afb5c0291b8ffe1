"""Server settings: one frozen object handed to the app, the lobby and every table."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection and one client address may do (docs/PROTOCOL.md, "Limits")."""

    messages_per_second: float = 20.0
    message_burst: int = 40
    """A connection's token bucket: this many messages at once, refilled at the rate."""
    flood_close: int = 100
    """A connection that sends this many messages over its limit within 10 s is closed
    (1008)."""
    connections_per_seat: int = 4
    """Sockets one seat may hold (tabs); a new one beyond closes the oldest."""
    guests_per_minute: float = 6.0
    guest_burst: int = 30
    """Guests one address may create: a burst, then this many a minute."""
    tables_per_minute: float = 30.0
    table_burst: int = 30
    """Tables (bot, private, quick-match tickets) one address may create."""
    sockets_per_address: int = 50
    """Websockets one address may hold open at once."""
    spectators_per_table: int = 1000
    """Spectators one table takes at once; one more is told ``table/too_many_spectators``
    and closed (each spectator costs the table a queued message per change)."""
    spectators_reserved: int = 50
    """Of those, the places kept for spectators signed in to an account (a crowd of
    guests cannot take them)."""
    spectators_per_address: int = 10
    """Spectators of one table from one address."""
    syncs_per_minute: float = 30.0
    sync_burst: int = 5
    """Full states (``sync``) one connection may ask for: a burst, then this many a
    minute; more are refused with ``protocol/rate_limited``."""
    address_messages_per_second: float = 40.0
    address_message_burst: int = 200
    """Messages one address may send in all, across all its sockets (each socket keeps
    its own bucket too); past it they are dropped as a socket's are."""
    sign_ins_per_address: int = 20
    """Failed sign-ins one address may make in ``sign_in_window_seconds``; then it waits."""
    sign_ins_per_account: int = 8
    """Failed sign-ins to one account in ``sign_in_window_seconds`` (from anywhere)."""
    sign_in_window_seconds: float = 900.0
    sign_in_attempts_per_minute: float = 10.0
    sign_in_attempt_burst: int = 20
    """Sign-ins of any outcome one address, or one account, may make (a burst, then this
    many a minute): each costs a password hash, the right password's too."""
    exports_per_minute: float = 1.0
    """Data exports (GET /api/account/export) one player may ask for a minute."""
    views_per_minute: float = 120.0
    view_burst: int = 60
    """Profiles and leaderboards one address may ask for (a burst, then this many a
    minute): public, and each costs a few queries."""
    puzzles_per_minute: float = 120.0
    puzzle_burst: int = 60
    """Puzzle requests (a puzzle, a play judged, a hint, a solution, a streak) per address
    and per player."""
    reports_per_minute: float = 2.0
    report_burst: int = 10
    """Reports one address, and one player, may file (a burst, then this many a minute;
    a player files at most 20 a day besides)."""
    invites_per_minute: float = 10.0
    invite_burst: int = 20
    """Invite codes one address may look up (opening ``/join/CODE``, joining by code): a
    burst, then this many a minute."""
    rebuilds_per_minute: float = 30.0
    rebuild_burst: int = 20
    """Answers about matches that left memory and must be rebuilt from the store (a
    finished match's info, record, replay or last state, not asked for lately), per
    address: a burst, then this many a minute."""
    http_connections_per_address: int = 64
    """HTTP connections one address may hold open at once (not counting its websockets,
    which ``sockets_per_address`` caps; trusted proxies are not counted); one more is
    closed at once."""
    max_body_bytes: int = 16 * 1024
    """Largest HTTP request body; a larger one is answered 413."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (CIDR) of reverse proxies whose ``X-Forwarded-For`` names the
    client; from anyone else the header is ignored."""

    @classmethod
    def unlimited(cls) -> Limits:
        """For load tests and benchmarks on loopback: no address limits (a connection's
        message bucket is kept, wide)."""
        big = 10**9
        return cls(messages_per_second=10_000, message_burst=10_000, flood_close=big,
                   guests_per_minute=big, guest_burst=big, tables_per_minute=big,
                   table_burst=big, sockets_per_address=big, sign_ins_per_address=big,
                   spectators_per_address=big, syncs_per_minute=big, sync_burst=big,
                   address_messages_per_second=big, address_message_burst=big,
                   sign_ins_per_account=big, exports_per_minute=big,
                   sign_in_attempts_per_minute=big, sign_in_attempt_burst=big,
                   views_per_minute=big, view_burst=big, rebuilds_per_minute=big,
                   rebuild_burst=big, http_connections_per_address=0,
                   invites_per_minute=big, invite_burst=big, puzzles_per_minute=big,
                   puzzle_burst=big)


@dataclass(frozen=True, slots=True)
class RatedRules:
    """What a rated result needs (:mod:`basra.server.rated_play`)."""

    least_rounds: int = 1
    """Whole rounds a rated match must see (else it is aborted)."""
    least_seconds: float = 60.0
    """Seconds a rated match must last from its table's opening (else it is aborted)."""
    account_age: timedelta = timedelta(days=1)
    """How old an account must be to play rated."""
    first_games: int = 3
    """Matches an account must have finished (any kind) to play rated."""
    aborts_per_day: int = 3
    """Rated matches a player may abort in 24 hours and still play rated."""
    pair_per_day: int = 3
    """Rated matches two players may play against each other in 24 hours."""

    @classmethod
    def open(cls) -> RatedRules:
        """No threshold at all (``basra serve --open-rated``: trials and tests)."""
        return cls(least_rounds=0, least_seconds=0.0, account_age=timedelta(0),
                   first_games=0, aborts_per_day=10**9, pair_per_day=10**9)


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str | None = None
    """None: SQLite in ``data_dir``; or a SQLAlchemy URL (``postgresql+asyncpg://...``)."""
    data_dir: Path | None = None
    redis_url: str | None = None
    """None: one process on its own; or ``redis://...``: cluster mode (docs/DEPLOY.md),
    every node of the site sharing the database and this Redis."""
    redis_prefix: str = "basra:"
    """Where this site's keys start in Redis (two sites may share one Redis)."""
    lease_seconds: float = 5.0
    """A table lease's time to live in cluster mode: a dead node's tables are adopted by
    the others within about this long and a second."""
    clock_seconds: float = 30.0
    """Time for a turn; at zero the seat's bot plays."""
    grace_seconds: float = 10.0
    """How long a dropped player's seat waits before a bot plays it."""
    seed_window_seconds: float = 5.0
    """How long a pending round waits for client seeds (it starts sooner when every
    connected player is ready)."""
    summary_seconds: float = 15.0
    """How long the next round waits while its players look at the last round's summary:
    it is dealt once every connected player said continue (sent a part or ``ready``), or
    after this long (every round after the first waits this, or the seed window if
    longer)."""
    bot_delay_seconds: float = 0.7
    """A bot's least time to play, so people can follow the table."""
    bot_workers: int | None = None
    """Worker processes for searching bots (``hard``, ``expert``); None: one per core."""
    quick_match_bot_offer_seconds: float = 20.0
    """How long a quick-match player waits before being offered a bot."""
    static_dir: Path | None = None
    arrival_seconds: float = 10.0
    """How long a table's first round waits for seated players who have not opened the
    table yet, once one of them has: a quick-match table is then given up (the players who
    came are matched again at the front of the queue); another starts without the absent,
    whose seats are dropped from the start."""
    tournament_arrival_seconds: float = 20.0
    """How long a tournament table's first round waits for its players, from when it was
    made, whoever has come: an event's start makes hundreds of tables at once, and its
    players' thousands of sockets open over several seconds on a busy node (10 s left one
    table in four with a player counted absent, who then scores nothing and is paused:
    docs/BENCHMARKS.md)."""
    unattended_seconds: float = 300.0
    """How long a table nobody has opened yet waits before it is given up, and how long a
    table waiting for players may stay with no connection open."""
    ticket_lapse_seconds: float = 5.0
    """A quick-match ticket lapses this long after its owner stopped waiting (no open long
    poll)."""
    rematch_window_seconds: float = 60.0
    """How long a finished table stays in memory for a rematch; then it is served from the
    store."""
    send_queue_limit: int = 256
    """Messages one connection may have waiting to be sent; past it the connection closes."""
    stall_seconds: float = 5.0
    """A connection that has not taken a message for this long is closed."""
    socket_send_buffer: int = 64 * 1024
    """The kernel's send buffer for each connection (bytes; 0: the system's default)."""
    tcp_user_timeout_seconds: float = 20.0
    """The kernel drops a connection whose data stays unacknowledged this long."""
    request_head_seconds: float = 10.0
    """An HTTP request's head must arrive within this long of the connection opening (or
    of its first byte on a kept-alive connection), else the connection is closed
    (:mod:`basra.server.http.guard`)."""
    request_body_seconds: float = 30.0
    """An HTTP request's body must arrive within this long of its head."""
    fresh_proof_seconds: float = 300.0
    """How long a proof of who holds a session (the password or a passkey, at sign-in or
    later) lets it add a passkey or a password, remove a passkey, export and delete
    (:func:`basra.server.identity.sessions.require_proof`)."""
    sweep_seconds: float = 1.0
    """How often the lobby drops lapsed tickets and evicts finished tables."""
    limits: Limits = field(default_factory=Limits)
    rated_rules: RatedRules = field(default_factory=RatedRules)
    """What a rated result needs (:mod:`basra.server.rated_play`)."""
    gc_pacing: bool = False
    """Freeze the garbage collector's survivors every second and collect fully now and
    then (:mod:`basra.server.gc_pacing`): ``basra serve`` does; the tests' servers in one
    process with pytest do not."""
    views_fresh_seconds: float = 10.0
    """How long a profile's or leaderboard's answer is served again as it is."""
    saying_gap_seconds: float = 2.0
    """The least time between two quick phrases or reactions of one seat
    (:mod:`basra.server.wire.sayings`)."""
    analysis_iterations: int = 300
    assist_analysis: bool = True
    """Analyse every rated match in the background (behind every analysis a player asked
    for) for the engine-assistance statistic (docs/MODERATION.md); ``basra serve
    --no-assist-analysis`` turns it off."""
    """The expert's budget for each play when it analyses a finished match
    (:mod:`basra.server.reads.analyses`): ``basra analyse --iterations`` gives the same."""
    presence_grace_seconds: float = 5.0
    """How long a player with no signed-in page open is still online (a reload is not a
    departure: :mod:`basra.server.social.presence`)."""
    challenge_seconds: float = 600.0
    """How long a challenge between players stays open (:mod:`basra.server.social.challenges`)."""
    pairing_seconds: float = 2.0
    """How often quick match pairs each variant's pool (:mod:`basra.server.quick.pairing`)."""
    public_origin: str | None = None
    """The site's origin as people reach it (``https://play.example.org``, as
    :func:`basra.server.origin.parse_origin` writes it): its pages' ``og:`` links, the
    Content-Security-Policy's socket and, unless named below, the passkeys' relying party.
    None: the origin of the address the server listens on (``scope["server"]``, never a
    request's ``Host``); ``basra serve`` always sets one (``http://localhost:PORT`` on
    loopback)."""
    passkey_rp_id: str | None = None
    """The WebAuthn relying party id (the site's domain, ``play.example.org``); None: the
    host name of :attr:`public_origin` (set it to share passkeys with sibling domains)."""
    passkey_origins: tuple[str, ...] = ()
    """Origins a passkey ceremony may come from (``https://play.example.org``); empty:
    :attr:`public_origin` alone."""
    tournament_schedule: Path | None = None
    """The file of the events the server makes by itself
    (:mod:`basra.server.tournaments.schedule`); None: none (``basra serve`` uses the
    packaged file unless told ``--tournament-schedule none``)."""
    tournament_last_pairing_seconds: float = 180.0
    """An arena pairs nobody in its last this many seconds: a match begun then could not
    end in time."""
    tournament_tick_seconds: float = 1.0
    """How often each running event's director steps (sooner when a table of it ends)."""
    bot_seed: str | None = None
    """For tests: every bot's seed is this text and its seat number (the same bots on every
    table), instead of fresh randomness."""
