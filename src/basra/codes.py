"""Every stable error code of the project in one registry: its HTTP status, the surfaces
that use it and its meaning in one line (docs/PROTOCOL.md, section 6, is generated from it).

A code is ``kind/detail`` in lower case (``table/not_found``, ``play/stale``): programs
match on it, so it never changes meaning; the message that travels with it is for people
and may change. The surfaces (:data:`SURFACES`) are the HTTP API, the table's websocket
(basra-ws/2), basra-engine/1 (``basra engine``'s replies and outside programs run as
bots), the Python package's own errors (the rules engine, records, cards) and the
``basra`` command. A code is answered over HTTP with its ``status``; a code that never
travels over HTTP has the status it would get, 400, and no ``http`` in its ``where``.
Starlette's own codes, ``http/NNN`` (unknown paths and methods, malformed requests), are
a rule, not entries: :func:`status_of` answers NNN.

To add a code: raise it somewhere under ``src/basra`` as a string literal (``Kind(message,
"kind/detail")`` or a class's ``code = "kind/detail"``), add its entry to ``_TABLE``
below, in code order, with the status its kin have (401 not signed in, 403 not allowed,
404 not found, 409 a clash with the state, 413 too large, 422 a bad value, 429 a limit,
500 a fault, 503 try again; 400 for any other refusal, and for every code never sent over
HTTP), then run ``scripts/error-codes`` to rewrite the table of docs/PROTOCOL.md.
tests/test_error_codes.py checks that every code raised is here, every code here is raised,
and the table is current. This module imports only the standard library, so every layer
may import it.

>>> CODES["table/full"].status, status_of("http/405"), status_of("anything/else")
(409, 405, 400)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Code:
    """One stable error code: its HTTP status, its meaning in one line, and ``where`` it is
    used: one or more of :data:`SURFACES`, comma separated (``"http, websocket"``)."""

    code: str
    status: int
    meaning: str
    where: str

    @property
    def surfaces(self) -> tuple[str, ...]:
        """``where`` as a tuple: ``("http", "websocket")``."""
        return tuple(part.strip() for part in self.where.split(","))


SURFACES: Mapping[str, str] = MappingProxyType({
    "http": "the HTTP API's error answers (docs/PROTOCOL.md, section 1)",
    "websocket": "a table's websocket, basra-ws/2: an error message (section 2)",
    "engine": "basra-engine/1: an engine's error reply, or an outside program that failed "
              "as a bot (docs/ENGINE_PROTOCOL.md)",
    "library": "the Python package's own errors (basra.errors: the rules engine, records, "
               "cards), for programs that import it",
    "cli": "the basra command (it prints the message)",
})
"""The surfaces a code may be used on: the words of :attr:`Code.where`."""

DEFAULT_STATUS = 400
"""The status of a refusal with no more precise one, and of every code never sent over
HTTP."""

# The registry as a table, one entry a code: a line of the code, its HTTP status and its
# ``where``, then its meaning on the indented lines below.
_TABLE = """
account/already               409  http
    the player already has an account: it cannot claim another
account/bad_username          422  http
    a username breaks the rules (the nickname rules, one alphabet, a letter or digit that is not
    look-alike punctuation)
account/confirm               422  http
    deleting the account needs its username typed to confirm
account/required              403  http
    a guest asked for what only accounts may do
account/username_invisible    422  http
    a username holds a character that shows nothing
account/username_lookalike    409  http
    the username looks like another player's
account/username_taken        409  http
    another account has that username
account/weak_password         422  http
    a password is not text, too short or long, or one character repeated
analysis/bad_seat             422  http
    the seat asked for is not a seat of the match (or none was given by someone who did not play
    it)
analysis/busy                 503  http
    the expert's queue is full: ask again in a few minutes
analysis/not_ready            409  http
    the match's analysis is not done: ask the expert for it first
analysis/too_many             429  http
    the asker already has the most analyses waiting or running
arena/failed                  400  cli
    basra arena failed: an openings file unreadable or empty, or a match undecided after the
    most rounds
auth/bad_credentials          401  http
    wrong username or password (one answer for both), or not the account's password
auth/busy                     503  http
    too many password hashes are waiting: try again in a moment
auth/guest_sign_out           409  http
    a guest may not sign out: it would lose its guest
auth/no_hello                 400  websocket
    a player's socket (?auth=1) sent no hello with a token as its first message within 10 s
auth/proof_needed             403  http
    the call needs a fresh proof (password or passkey) of who holds the session
auth/required                 401  http
    no session: the call needs a player's token
auth/token_in_url             400  websocket
    a socket carried its token in the address (?token=)
auth/too_many_attempts        429  http
    too many sign-ins, or failed ones, from this address or for this account
basra/error                   400  library, cli
    an error with no more precise code (a bad argument of the basra command, such as
    --client-seed or --name)
card/bad_notation             400  library
    text that is not a card (a rank, then a suit)
card/duplicate                400  library
    a set of cards lists one card twice
challenge/already             409  http
    you have challenged this player already: wait for the answer
challenge/closed              410  http
    the challenge was answered, cancelled or expired
challenge/not_found           404  http
    no such challenge of yours
challenge/not_yours           403  http
    only the challenged player accepts a challenge
deck/invalid                  400  library
    a deck that is not the 52 cards, each once
engine/internal               400  engine
    the engine failed on a request (a bug); it reads on
external/exited               400  engine
    the outside program exited, or was closed, instead of answering
external/failed               400  engine
    an outside program failed (ExternalBotError's default; each failure carries a more precise
    external/ code)
external/garbage              400  engine
    the outside program answered with a line that is not the reply expected
external/illegal_play         400  engine
    the outside program chose a play that is not one of the view's legal plays
external/refused              400  engine
    the outside program answered a request with an error
external/start                400  engine
    the outside program's command is empty or malformed, or it could not start
external/timeout              400  engine
    the outside program did not answer in time
fairness/bad_input            400  library
    bad fairness inputs: a server seed not 64 hex digits, a client seed not text or too long, a
    nonce below 1
fairplay/banned               403  http
    a moderator banned the player from rated play and tournaments
fairplay/closed               409  http
    the account is closed: a moderator only dismisses reports about it (or no neutral name was free)
fairplay/leaver_wait          403  http
    the player left matches lately and waits before quick match and tournaments
fairplay/moderator            403  http
    a moderator's standing is the operator's to change (basra admin), not another moderator's
fairplay/no_rename            409  http
    a new username is chosen only after a moderator's forced rename
fairplay/not_moderator        403  http
    the moderators' pages and actions are for moderators
guest/bad_nickname            422  http
    a nickname breaks the nickname rules
guest/nickname_invisible      422  http
    a nickname holds a character that shows nothing
hint/not_allowed              400  websocket
    hints are given only at tables against bots
hint/not_your_turn            400  websocket
    a hint is given only on the player's own turn
lesson/unknown                404  http
    no lesson has that id
match/bad_dealer              400  library
    the dealer is not one of the match's seats
match/bad_length              400  library
    a match length that is not full or short (RULES.md 6.5)
match/bad_seating             400  library
    a number of players or a team setting the variant does not allow
name/offensive                422  http, library
    a username or nickname holds a word of the offensive-words list (the word is not named)
option/bad_value              400  engine
    an option's value is of the wrong kind or out of range
option/unknown                400  engine
    an option the engine did not announce
partner/closed                410  http
    the partner invite was answered, cancelled or expired, or its host stopped waiting
partner/not_found             404  http
    no such partner invite
partner/not_teams             400  http
    a partner invite is for a seating of two teams
partner/not_yours             403  http
    only a partner invite's host sends it to a player
partner/self                  409  http
    a player cannot accept their own partner invite
passkey/expired               400  http
    no such passkey challenge for this ceremony and player, used already or too old: start again
passkey/failed                400  http
    the passkey's answer did not verify, or is not a WebAuthn credential
passkey/last                  409  http
    the passkey is the account's only way to sign in: set a password or add another passkey
    before removing it
passkey/not_found             404  http
    no such passkey among the account's (or it has none)
passkey/unknown               401  http
    no account holds that passkey (or not this account)
play/bad_card                 400  library
    the card played is not a card
play/bad_take                 400  library, websocket
    the take is not a legal take for the card (or not a set of cards)
play/committed                400  library
    the next round is committed to another server seed
play/illegal                  400  library
    a play the rules forbid (IllegalPlayError's default; each refusal carries a more precise
    code)
play/match_begun              400  library
    the match has begun: its players are set
play/match_over               400  library, websocket
    the match is over: no more plays or rounds
play/must_take                400  library, websocket
    the card must take from the floor, and no take was given
play/no_commitment            400  library
    no round is committed: there is no client seed to make
play/no_round                 400  library, websocket
    no round is in progress
play/not_in_hand              400  library, websocket
    the card is not in the playing seat's hand
play/not_seated               400  websocket
    spectators cannot play
play/not_your_turn            400  websocket
    it is another seat's turn
play/round_in_progress        400  library
    a round is in progress: the next cannot be dealt
play/round_not_over           400  library
    the round is not over: it cannot be scored
play/round_over               400  library
    the round is over: it takes no more plays
play/stale                    400  websocket
    the play names an older version of the table: play on the latest state
play/wrong_seat               400  library
    the seat named is not the seat whose turn it is
player/not_found              404  http
    no account has that username
protocol/bad_card             400  websocket
    a play names a card in bad notation
push/too_many                 409  http
    the player's browsers subscribed to pushes are at the most (10)
puzzle/after_wrong            422  http, library
    a puzzle's plays go on after a play that was not accepted
puzzle/bad_file               400  library, cli
    a puzzle file does not read (not basra-puzzles/1, or a puzzle in it does not)
puzzle/bad_notation           422  http, library
    a puzzle's play is not a play (bad notation)
puzzle/bad_play               400  library
    a bad puzzle input
puzzle/bad_position           400  library, cli
    a puzzle's position is not a two-player last deal whose cards are each in one place
puzzle/bad_variant            400  library, cli
    puzzles are asked for a variant that has none, or with more than two players
puzzle/illegal_play           422  http, library
    a puzzle's play is not legal in its position
puzzle/no_hint                409  http
    a hint is asked for a puzzle that is solved, or after a wrong play
puzzle/no_play                422  http, library
    a puzzle's play is judged with no play
puzzle/not_found              404  http
    no shipped puzzle has this id
puzzle/solved                 409  http, library
    a play is sent after the puzzle's line is solved
puzzle/streak_over            422  http
    a streak asks for more puzzles than a streak holds (200)
puzzle/unknown                400  cli
    `basra puzzles show` is given an id no shipped puzzle has
puzzle/unknown_variant        404  http
    no puzzles ship for the variant asked
protocol/bad_json             400  websocket, engine
    the line or message is not JSON (on the websocket, also JSON that is not an object)
protocol/bad_message          400  websocket, engine
    a field is missing or of the wrong kind (a take that lists a card twice, an id not an
    integer or text...)
protocol/line_too_long        400  engine
    a line over 1,048,576 characters (it is skipped)
protocol/no_hello             400  engine
    a request other than hello or quit before the handshake
protocol/not_object           400  engine
    the line is JSON but not an object
protocol/rate_limited         400  websocket
    over the socket's message rate, or sync rate: the message was dropped
protocol/too_large            400  websocket
    a message over 4,096 bytes
protocol/unknown_type         400  websocket, engine
    a message type the receiver does not know
protocol/unsupported_version  400  engine
    hello asks for a protocol the engine does not speak
queue/matched                 409  http
    the ticket was matched with a player already: no bot
queue/not_found               404  http
    no such quick-match ticket of the player's (or it lapsed)
rate/limited                  429  http, websocket
    over a per-address limit: try again after Retry-After
ready/not_seated              400  websocket
    spectators are never waited for (ready)
record/invalid                400  library, cli
    a match record that is malformed or illegal (the message names round and play)
record/no_deck                400  library
    a round with neither its deck nor its fairness data
record/no_round               400  library
    a play recorded before any round was started
rematch/closed                400  websocket
    the rematch window has closed (the table left memory)
rematch/not_over              400  websocket
    the match is not over yet: no rematch
rematch/not_seated            400  websocket
    spectators cannot ask for a rematch
replay/bad_record             422  http
    the record sent is not a valid basra-record/1 document
replay/not_finished           409  http
    the match is still being played: no replay or analysis yet
replay/not_found              404  http
    the match was given up before its end: it has no replay
report/bad                    422  http
    a report or a moderator's action with a reason, note or word that is not allowed
report/not_found              404  http
    no such player, or no such report about them
report/self                   409  http
    a player cannot report themself, nor a moderator act on themself
report/too_many               429  http
    the player filed the most reports there may be in a day (20)
request/invalid               422  http
    the request's fields are missing or of the wrong kind
request/too_large             413  http
    the request body is over the size limit
resign/bad_seat               400  library
    there is no such seat to resign
resign/match_over             400  library
    the match is already decided: no one can resign
resign/not_playing            400  websocket
    only a match in play can be resigned (not waiting, over or given up)
resign/not_seated             400  websocket
    spectators cannot resign
say/limit                     400  websocket
    the seat has said the most a match allows (phrases and reactions)
say/muted                     400  websocket
    a moderator muted the player's phrases
say/not_seated                400  websocket
    spectators watch in silence
say/too_fast                  400  websocket
    a phrase or reaction too soon after the seat's last one
say/unknown                   400  websocket
    not a phrase or reaction of the lists
seed/bad                      400  websocket
    not a valid client-seed part (empty, too long, a bar, control characters, invalid Unicode)
seed/not_seated               400  websocket
    spectators have no client seed
seed/reused                   400  websocket
    the seat used that part in an earlier round
seed/round_started            400  websocket
    the round has started: its client seed is fixed
seed/wrong_round              400  websocket
    that round is not the one waiting for client seeds
server/internal               500  http, websocket
    the server failed (a bug or an outage); it goes on
session/not_found             404  http
    no such session among the player's
settings/bad_value            422  http
    a setting that is not known, or a value that is not one of its choices
social/account_needed         403  http
    following, blocking, a friends list and challenges are for accounts
social/bad_setting            422  http
    a social setting's value is not one of its choices
social/blocked                403  http
    one of the two players blocks the other
social/not_found              404  http
    no account of that username
social/not_taken              403  http
    the player takes no challenges, or from friends only
social/refused                403  http
    a social request refused
social/self                   409  http
    a player cannot follow, block or challenge themself
social/too_many               409  http
    the player follows the most players there may be (500)
table/bad_options             400  http
    table options the server cannot meet (variant, seating, bot level, clock, rated)
table/full                    409  http
    every seat at the table is taken
table/moved                   503  http
    cluster mode: the table moved to another node while asked: try again
table/not_found               404  http, websocket
    no such table, or no open table has that invite code
table/not_owner               409  http
    only the table's creator may add bots
table/rated_needs_account     403  http
    a rated table needs an account, to create it or take a seat
table/seat_taken              409  http
    that seat is not empty (a bot for it, or a player asking for it)
table/started                 409  http
    the table has already started
table/too_many_spectators     400  websocket
    the table, or this address, has the most spectators it takes: the socket is closed
table/unavailable             503  http
    cluster mode: the node running the table did not answer: try again
tournament/bad_options        400  http
    tournament options the server cannot meet (name, variant, format, length, start, ratings)
tournament/bad_schedule       400  cli
    the scheduled events' file has an entry the server cannot make
tournament/closed             409  http
    the tournament is over: it cannot be joined
tournament/needs_account      403  http
    making this tournament, or joining it (rated, or with a rating range), needs an account
tournament/not_found          404  http, websocket
    no such tournament
tournament/not_joined         409  http
    the player is not in that tournament
tournament/password           403  http
    the tournament's password is wrong or missing
tournament/rating_range       403  http
    the player's rating is outside the tournament's range
tournament/too_many           429  http
    the account has the most events to come it may make
variant/unknown               404  http, library
    no variant answers to that name or alias
view/invalid                  400  engine
    the view does not parse or hold together, or the bot could not use it
view/not_your_turn            400  engine
    the view has no legal play: it is not the seat's turn
"""


def _parse_table(table: str) -> tuple[Code, ...]:
    """The codes of a table written as :data:`_TABLE` is, in its order.

    >>> [entry] = _parse_table("kind/detail  409  http, websocket\\n    what it\\n    means")
    >>> entry.code, entry.status, entry.where, entry.meaning
    ('kind/detail', 409, 'http, websocket', 'what it means')
    """
    entries: list[tuple[str, list[str]]] = []
    for line in table.splitlines():
        if not line.strip():
            continue
        if line.startswith(" "):
            entries[-1][1].append(line.strip())
        else:
            entries.append((line, []))
    codes = []
    for head, meaning in entries:
        code, status, where = head.split(maxsplit=2)
        codes.append(Code(code, int(status), " ".join(meaning), where))
    return tuple(codes)


CODES: Mapping[str, Code] = MappingProxyType({c.code: c for c in _parse_table(_TABLE)})
"""Every stable error code the project raises or sends, by code."""


def starlette_status(code: str) -> int | None:
    """NNN for Starlette's own ``http/NNN`` (400 to 599), else None: a rule, not entries.

    >>> starlette_status("http/404"), starlette_status("http/6"), starlette_status("x/404")
    (404, None, None)
    """
    kind, _, number = code.partition("/")
    if kind == "http" and number.isdigit() and 400 <= int(number) <= 599:
        return int(number)
    return None


def status_of(code: str) -> int:
    """The HTTP status an error of ``code`` is answered with: the registry's, NNN for
    ``http/NNN``, else :data:`DEFAULT_STATUS`."""
    known = CODES.get(code)
    if known is not None:
        return known.status
    return starlette_status(code) or DEFAULT_STATUS


# --------------------------------------------------------------------------- the doc's table

DOC_BEGIN = "<!-- error codes: generated by scripts/error-codes -->"
DOC_END = "<!-- end of error codes -->"


def markdown_table() -> str:
    """The table of docs/PROTOCOL.md, section 6: one row a code, sorted by code."""
    rows = ["| code | status | where | meaning |", "|---|---|---|---|"]
    for code in sorted(CODES):
        c = CODES[code]
        meaning = c.meaning.replace("|", "\\|")
        rows.append(f"| `{c.code}` | {c.status} | {c.where} | {meaning} |")
    return "\n".join(rows)


def with_table(doc: str) -> str:
    """``doc`` with the text between :data:`DOC_BEGIN` and :data:`DOC_END` replaced by
    :func:`markdown_table`; a ValueError when the markers are not there once each, in
    order."""
    if doc.count(DOC_BEGIN) != 1 or doc.count(DOC_END) != 1:
        raise ValueError(f"the doc must hold {DOC_BEGIN} and {DOC_END} once each")
    head, _, rest = doc.partition(DOC_BEGIN)
    _, sep, tail = rest.partition(DOC_END)
    if not sep:
        raise ValueError(f"{DOC_END} must come after {DOC_BEGIN}")
    return f"{head}{DOC_BEGIN}\n{markdown_table()}\n{DOC_END}{tail}"


__all__ = ["CODES", "DEFAULT_STATUS", "DOC_BEGIN", "DOC_END", "SURFACES", "Code",
           "markdown_table", "starlette_status", "status_of", "with_table"]
