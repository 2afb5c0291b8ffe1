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
"kind/detail")`` or a class's ``code = "kind/detail"``), add its :class:`Code` to ``_ALL``
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

# The ``where`` of each entry, short: one surface, or several.
_H, _W, _E, _L, _C = "http", "websocket", "engine", "library", "cli"
_HW, _LW, _LC, _HL = "http, websocket", "library, websocket", "library, cli", "http, library"
_WE = "websocket, engine"

_ALL = (
    Code("account/already", 409, "the player already has an account: it cannot claim another", _H),
    Code("account/bad_username", 422, "a username breaks the rules (the nickname rules, one "
         "alphabet, a letter or digit that is not look-alike punctuation)", _H),
    Code("account/confirm", 422, "deleting the account needs its username typed to confirm", _H),
    Code("account/required", 403, "a guest asked for what only accounts may do", _H),
    Code("account/username_invisible", 422, "a username holds a character that shows nothing",
         _H),
    Code("account/username_lookalike", 409, "the username looks like another player's", _H),
    Code("account/username_taken", 409, "another account has that username", _H),
    Code("account/weak_password", 422,
         "a password is not text, too short or long, or one character repeated", _H),
    Code("analysis/busy", 503, "the expert's queue is full: ask again in a few minutes", _H),
    Code("analysis/too_many", 429, "the asker already has the most analyses waiting or running",
         _H),
    Code("arena/failed", 400, "basra arena failed: an openings file unreadable or empty, or a "
         "match undecided after the most rounds", _C),
    Code("auth/bad_credentials", 401,
         "wrong username or password (one answer for both), or not the account's password", _H),
    Code("auth/busy", 503, "too many password hashes are waiting: try again in a moment", _H),
    Code("auth/guest_sign_out", 409, "a guest may not sign out: it would lose its guest", _H),
    Code("auth/no_hello", 400, "a player's socket (?auth=1) sent no hello with a token as its "
         "first message within 10 s", _W),
    Code("auth/proof_needed", 403,
         "the call needs a fresh proof (password or passkey) of who holds the session", _H),
    Code("auth/required", 401, "no session: the call needs a player's token", _H),
    Code("auth/token_in_url", 400, "a socket carried its token in the address (?token=)", _W),
    Code("auth/too_many_attempts", 429,
         "too many sign-ins, or failed ones, from this address or for this account", _H),
    Code("basra/error", 400, "an error with no more precise code (a bad argument of the basra "
         "command, such as --client-seed or --name)", _LC),
    Code("card/bad_notation", 400, "text that is not a card (a rank, then a suit)", _L),
    Code("card/duplicate", 400, "a set of cards lists one card twice", _L),
    Code("deck/invalid", 400, "a deck that is not the 52 cards, each once", _L),
    Code("engine/internal", 400, "the engine failed on a request (a bug); it reads on", _E),
    Code("external/exited", 400, "the outside program exited, or was closed, instead of "
         "answering", _E),
    Code("external/failed", 400, "an outside program failed (ExternalBotError's default; "
         "each failure carries a more precise external/ code)", _E),
    Code("external/garbage", 400,
         "the outside program answered with a line that is not the reply expected", _E),
    Code("external/illegal_play", 400,
         "the outside program chose a play that is not one of the view's legal plays", _E),
    Code("external/refused", 400, "the outside program answered a request with an error", _E),
    Code("external/start", 400,
         "the outside program's command is empty or malformed, or it could not start", _E),
    Code("external/timeout", 400, "the outside program did not answer in time", _E),
    Code("fairness/bad_input", 400, "bad fairness inputs: a server seed not 64 hex digits, a "
         "client seed not text or too long, a nonce below 1", _L),
    Code("guest/bad_nickname", 422, "a nickname breaks the nickname rules", _H),
    Code("guest/nickname_invisible", 422, "a nickname holds a character that shows nothing", _H),
    Code("hint/not_allowed", 400, "hints are given only at tables against bots", _W),
    Code("hint/not_your_turn", 400, "a hint is given only on the player's own turn", _W),
    Code("match/bad_dealer", 400, "the dealer is not one of the match's seats", _L),
    Code("match/bad_seating", 400,
         "a number of players or a team setting the variant does not allow", _L),
    Code("option/bad_value", 400, "an option's value is of the wrong kind or out of range", _E),
    Code("option/unknown", 400, "an option the engine did not announce", _E),
    Code("passkey/expired", 400, "no such passkey challenge for this ceremony and player, used "
         "already or too old: start again", _H),
    Code("passkey/failed", 400,
         "the passkey's answer did not verify, or is not a WebAuthn credential", _H),
    Code("passkey/last", 409, "the passkey is the account's only way to sign in: set a "
         "password or add another passkey before removing it", _H),
    Code("passkey/not_found", 404, "no such passkey among the account's (or it has none)", _H),
    Code("passkey/unknown", 401, "no account holds that passkey (or not this account)", _H),
    Code("play/bad_card", 400, "the card played is not a card", _L),
    Code("play/bad_take", 400,
         "the take is not a legal take for the card (or not a set of cards)", _LW),
    Code("play/committed", 400, "the next round is committed to another server seed", _L),
    Code("play/illegal", 400, "a play the rules forbid (IllegalPlayError's default; each "
         "refusal carries a more precise code)", _L),
    Code("play/match_begun", 400, "the match has begun: its players are set", _L),
    Code("play/match_over", 400, "the match is over: no more plays or rounds", _LW),
    Code("play/must_take", 400, "the card must take from the floor, and no take was given", _LW),
    Code("play/no_commitment", 400, "no round is committed: there is no client seed to make",
         _L),
    Code("play/no_round", 400, "no round is in progress", _LW),
    Code("play/not_in_hand", 400, "the card is not in the playing seat's hand", _LW),
    Code("play/not_seated", 400, "spectators cannot play", _W),
    Code("play/not_your_turn", 400, "it is another seat's turn", _W),
    Code("play/round_in_progress", 400, "a round is in progress: the next cannot be dealt", _L),
    Code("play/round_not_over", 400, "the round is not over: it cannot be scored", _L),
    Code("play/round_over", 400, "the round is over: it takes no more plays", _L),
    Code("play/stale", 400,
         "the play names an older version of the table: play on the latest state", _W),
    Code("play/wrong_seat", 400, "the seat named is not the seat whose turn it is", _L),
    Code("player/not_found", 404, "no account has that username", _H),
    Code("protocol/bad_card", 400, "a play names a card in bad notation", _W),
    Code("protocol/bad_json", 400, "the line or message is not JSON (on the websocket, also "
         "JSON that is not an object)", _WE),
    Code("protocol/bad_message", 400, "a field is missing or of the wrong kind (a take that "
         "lists a card twice, an id not an integer or text...)", _WE),
    Code("protocol/line_too_long", 400,
         "a line over 1,048,576 characters (it is skipped)", _E),
    Code("protocol/no_hello", 400, "a request other than hello or quit before the handshake",
         _E),
    Code("protocol/not_object", 400, "the line is JSON but not an object", _E),
    Code("protocol/rate_limited", 400,
         "over the socket's message rate, or sync rate: the message was dropped", _W),
    Code("protocol/too_large", 400, "a message over 4,096 bytes", _W),
    Code("protocol/unknown_type", 400, "a message type the receiver does not know", _WE),
    Code("protocol/unsupported_version", 400,
         "hello asks for a protocol the engine does not speak", _E),
    Code("queue/matched", 409, "the ticket was matched with a player already: no bot", _H),
    Code("queue/not_found", 404,
         "no such quick-match ticket of the player's (or it lapsed)", _H),
    Code("rate/limited", 429, "over a per-address limit: try again after Retry-After", _HW),
    Code("ready/not_seated", 400, "spectators are never waited for (ready)", _W),
    Code("record/invalid", 400,
         "a match record that is malformed or illegal (the message names round and play)", _LC),
    Code("record/no_deck", 400, "a round with neither its deck nor its fairness data", _L),
    Code("record/no_round", 400, "a play recorded before any round was started", _L),
    Code("rematch/closed", 400, "the rematch window has closed (the table left memory)", _W),
    Code("rematch/not_over", 400, "the match is not over yet: no rematch", _W),
    Code("rematch/not_seated", 400, "spectators cannot ask for a rematch", _W),
    Code("replay/bad_record", 422, "the record sent is not a valid basra-record/1 document", _H),
    Code("replay/not_finished", 409,
         "the match is still being played: no replay or analysis yet", _H),
    Code("replay/not_found", 404, "the match was given up before its end: it has no replay", _H),
    Code("request/invalid", 422, "the request's fields are missing or of the wrong kind", _H),
    Code("request/too_large", 413, "the request body is over the size limit", _H),
    Code("resign/bad_seat", 400, "there is no such seat to resign", _L),
    Code("resign/match_over", 400, "the match is already decided: no one can resign", _L),
    Code("resign/not_playing", 400,
         "only a match in play can be resigned (not waiting, over or given up)", _W),
    Code("resign/not_seated", 400, "spectators cannot resign", _W),
    Code("say/limit", 400, "the seat has said the most a match allows (phrases and reactions)", _W),
    Code("say/not_seated", 400, "spectators watch in silence", _W),
    Code("say/too_fast", 400, "a phrase or reaction too soon after the seat's last one", _W),
    Code("say/unknown", 400, "not a phrase or reaction of the lists", _W),
    Code("seed/bad", 400, "not a valid client-seed part (empty, too long, a bar, control "
         "characters, invalid Unicode)", _W),
    Code("seed/not_seated", 400, "spectators have no client seed", _W),
    Code("seed/reused", 400, "the seat used that part in an earlier round", _W),
    Code("seed/round_started", 400, "the round has started: its client seed is fixed", _W),
    Code("seed/wrong_round", 400, "that round is not the one waiting for client seeds", _W),
    Code("server/internal", 500, "the server failed (a bug or an outage); it goes on", _HW),
    Code("session/not_found", 404, "no such session among the player's", _H),
    Code("table/bad_options", 400,
         "table options the server cannot meet (variant, seating, bot level, clock, rated)", _H),
    Code("table/full", 409, "every seat at the table is taken", _H),
    Code("table/moved", 503,
         "cluster mode: the table moved to another node while asked: try again", _H),
    Code("table/not_found", 404,
         "no such table, or no open table has that invite code", _HW),
    Code("table/not_owner", 409, "only the table's creator may add bots", _H),
    Code("table/rated_needs_account", 403,
         "a rated table needs an account, to create it or take a seat", _H),
    Code("table/seat_taken", 409, "that seat is not empty", _H),
    Code("table/started", 409, "the table has already started", _H),
    Code("table/too_many_spectators", 400,
         "the table, or this address, has the most spectators it takes: the socket is closed",
         _W),
    Code("table/unavailable", 503,
         "cluster mode: the node running the table did not answer: try again", _H),
    Code("variant/unknown", 404, "no variant answers to that name or alias", _HL),
    Code("view/invalid", 400,
         "the view does not parse or hold together, or the bot could not use it", _E),
    Code("view/not_your_turn", 400, "the view has no legal play: it is not the seat's turn", _E),
)

CODES: Mapping[str, Code] = MappingProxyType({c.code: c for c in _ALL})
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
