"""Accounts: a guest claims a username and a password, signs in again on any device, and
sees and ends its sessions (docs/PROTOCOL.md, "Accounts").

- **Usernames** follow the nickname rules (:func:`basra.server.identity.guests.clean_nickname`: no
  invisible or variation character, ``account/username_invisible``), keep to one alphabet,
  and the store makes them unique, compared case-insensitively (``account/username_taken``)
  and by look (:func:`basra.confusables.lookalike_key`, Unicode's confusable skeleton: a
  name that looks like another account's is ``account/username_lookalike``).
- **Passwords** are 8 to 128 characters (after NFKC normalization, as NIST SP 800-63B
  advises), not all one character, and are only ever kept as an argon2id hash
  (argon2-cffi's :class:`~argon2.PasswordHasher` with OWASP's first recommended
  parameters: 19 MiB, 2 passes, 1 lane, about 20 ms of one core here; RFC 9106's
  low-memory profile, argon2-cffi's default, costs 150 ms, which lets a burst of sign-ins
  take a server's cores from its tables). A hash made with other parameters is made again
  at the next good sign-in. Hashing runs in one thread of its own, so sign-ins never block
  the event loop and, however many come at once, never take more than one core.
- **Sign-in** answers a wrong password exactly as an unknown username, and takes as long:
  an unknown name (or an account without a password) is checked against a dummy hash.
- **The sign-in limiter** counts failed sign-ins per client address and per account (any
  name tried, known or not, so the limit says nothing about which names exist) in a sliding
  window; past either limit, every attempt is refused with ``auth/too_many_attempts`` and
  ``Retry-After`` until the oldest failure leaves the window. A good sign-in clears its
  account's count. Its memory is bounded: each key keeps at most its limit of timestamps,
  keys whose failures all left the window are pruned, and each map holds at most
  ``most`` keys (the least recently failed go first).
- **Sessions** and the fresh proof are in :mod:`basra.server.identity.sessions`.

Nothing here ever logs a password, a token or a hash.
"""

from __future__ import annotations

import contextlib
import functools
import math
import secrets
import time
import unicodedata
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from basra.confusables import lookalike_key
from basra.ratings import Rating
from basra.server.identity.guests import (
    HiddenCharacter,
    NicknameError,
    clean_nickname,
)
from basra.server.identity.hashing import Hashing
from basra.server.limits import AddressBuckets, Scope, address_key, client_address
from basra.server.wire.errors import RateLimited, Refusal
from basra.store.base import PlayerRow, RatingRow
from basra.store.ports import Store

PASSWORD_FIELD = 1024
"""Longest password field a request may carry (the rules allow 128 characters; this only
keeps absurd input from reaching the hasher)."""
PASSWORD_MIN = 8
PASSWORD_MAX = 128
"""A session's user agent is kept to this many characters."""

HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
"""argon2id with OWASP's first recommended parameters (m=19 MiB, t=2, p=1)."""



class UsernameError(Refusal, ValueError):
    """A username that is not allowed (the nickname rules)."""

    code = "account/bad_username"


class PasswordError(Refusal, ValueError):
    """A password too short, too long or all one character."""

    code = "account/weak_password"


class BadCredentials(Refusal):
    """A wrong username or password: one answer for both."""

    code = "auth/bad_credentials"

    def __init__(self, message: str = "wrong username or password",
                 code: str | None = None) -> None:
        super().__init__(message, code)


# ---------------------------------------------------------------------------------------
# usernames and passwords


def clean_username(raw: object) -> str:
    """The username to keep: the nickname rules (trimmed, NFC, 2 to 20 characters...).
    Raises :class:`UsernameError`.

    >>> clean_username("  Amira_77 ")
    'Amira_77'
    >>> clean_username("x")
    Traceback (most recent call last):
    ...
    basra.server.identity.accounts.UsernameError: a username must be 2 to 20 characters long
    """
    try:
        name = clean_nickname(raw)
    except NicknameError as exc:
        code = "account/username_invisible" if isinstance(exc, HiddenCharacter) else None
        raise UsernameError(exc.message.replace("nickname", "username"), code) from None
    if len(scripts_of(name)) > 1:
        raise UsernameError("a username keeps to one alphabet (no Latin and Cyrillic "
                            "letters mixed, say): it must not pass for another's")
    if not lookalike_key(name):
        raise UsernameError("a username needs a letter or digit that does not look like "
                            "punctuation")
    return name


def scripts_of(name: str) -> set[str]:
    """The alphabets of a name's letters, by the first word of each letter's Unicode name
    (``LATIN``, ``CYRILLIC``, ``GREEK``, ``ARABIC``...): a name that mixes them can look
    like someone else's (``Аmira`` with a Cyrillic ``А``).

    >>> sorted(scripts_of("Amira_77")), sorted(scripts_of("\u0410mira"))
    (['LATIN'], ['CYRILLIC', 'LATIN'])
    """
    scripts = {unicodedata.name(ch, "?").split(" ")[0] for ch in name
               if unicodedata.category(ch).startswith("L")}
    return {"CJK" if script in JAPANESE else script for script in scripts}


JAPANESE = frozenset({"CJK", "HIRAGANA", "KATAKANA"})
"""Alphabets written together as one (Japanese: kanji with kana)."""


def username_key(name: str) -> str:
    """What makes two usernames the same (case folded), for the sign-in limiter."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def clean_password(raw: object) -> str:
    """The password to hash: NFKC-normalized; 8 to 128 characters, not all the same one.
    Raises :class:`PasswordError`.

    >>> clean_password("correct horse")
    'correct horse'
    >>> clean_password("aaaaaaaaaa")
    Traceback (most recent call last):
    ...
    basra.server.identity.accounts.PasswordError: a password may not be one character repeated
    """
    if not isinstance(raw, str):
        raise PasswordError("a password must be text")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise PasswordError("a password must be valid Unicode text") from None
    password = unicodedata.normalize("NFKC", raw)
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise PasswordError(
            f"a password must be {PASSWORD_MIN} to {PASSWORD_MAX} characters long")
    if len(set(password)) == 1:
        raise PasswordError("a password may not be one character repeated")
    return password


def hash_password_now(password: str) -> str:
    """The argon2id hash of an already cleaned password (blocking: see
    :func:`hash_password`)."""
    return HASHER.hash(password)


@functools.cache
def dummy_hash() -> str:
    """A hash of a random password nobody knows, made once: what an unknown username's
    sign-in is checked against, so it takes as long as a known one's."""
    return HASHER.hash(secrets.token_urlsafe(24))


@dataclass(frozen=True, slots=True)
class Checked:
    """A password checked against a stored hash: whether it matched, and the new hash to
    store when the old one was made with other parameters."""

    ok: bool
    rehashed: str | None = None


def check_password_now(stored: str | None, password: object) -> Checked:
    """Check ``password`` against ``stored`` (None: no password, e.g. an unknown name;
    a dummy hash is checked instead, for the time it takes). Blocking: see
    :func:`check_password`."""
    if not isinstance(password, str):
        password = ""
    # Lone surrogates pass as they are: no stored password has any (clean_password), so
    # such a text matches nothing, after the same work.
    secret = unicodedata.normalize("NFKC", password).encode("utf-8", "surrogatepass")
    target = stored if stored is not None else dummy_hash()
    try:
        HASHER.verify(target, secret)
    except (VerificationError, InvalidHashError):
        return Checked(False)
    if stored is None:
        return Checked(False)  # never: nobody knows the dummy's password
    if HASHER.check_needs_rehash(stored):
        return Checked(True, HASHER.hash(secret))
    return Checked(True)


async def hash_password(hashing: Hashing, address: str, password: str) -> str:
    """:func:`hash_password_now` in ``address``'s turn of the hashing pool (an
    ``auth/busy`` refusal when it has too much waiting)."""
    return await hashing.run(address, functools.partial(hash_password_now, password))


async def check_password(hashing: Hashing, address: str, stored: str | None,
                         password: object) -> Checked:
    """:func:`check_password_now` in ``address``'s turn of the hashing pool."""
    return await hashing.run(address,
                             functools.partial(check_password_now, stored, password))


# ---------------------------------------------------------------------------------------
# the sign-in limiter


class FailureWindows:
    """Failures per key in a sliding window of ``window`` seconds; a key with ``most``
    failures in it is refused until the oldest leaves. At most ``keys`` keys are kept (the
    least recently failed are forgotten first); keys whose failures all left the window
    are pruned as failures come in.

    >>> windows = FailureWindows(most=2, window=60.0)
    >>> windows.fail("a", now=0.0); windows.fail("a", now=10.0)
    >>> windows.wait("a", now=30.0), windows.wait("a", now=61.0)
    (30.0, None)
    """

    def __init__(self, most: int, window: float, keys: int = 50_000) -> None:
        self.most = max(1, most)
        self.window = window
        self.keys = keys
        self.failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._since_prune = 0

    def wait(self, key: str, now: float) -> float | None:
        """Seconds until ``key`` may try again, or None if it may now."""
        failures = self.failures.get(key)
        if failures is None:
            return None
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self.failures[key]
            return None
        if len(failures) < self.most:
            return None
        return failures[0] + self.window - now

    def fail(self, key: str, now: float) -> None:
        failures = self.failures.get(key)
        if failures is None:
            failures = self.failures[key] = deque(maxlen=self.most)
            if len(self.failures) > self.keys:
                self.failures.popitem(last=False)
        else:
            self.failures.move_to_end(key)
        failures.append(now)
        self._since_prune += 1
        if self._since_prune >= 1024:
            self.prune(now)

    def forgive(self, key: str, stamp: float) -> None:
        """Take back one failure counted at ``stamp`` (an attempt that succeeded)."""
        failures = self.failures.get(key)
        if failures is not None:
            with contextlib.suppress(ValueError):
                failures.remove(stamp)

    def clear(self, key: str) -> None:
        self.failures.pop(key, None)

    def prune(self, now: float) -> None:
        """Forget every key whose failures all left the window."""
        self._since_prune = 0
        cutoff = now - self.window
        for key in [k for k, f in self.failures.items() if not f or f[-1] <= cutoff]:
            del self.failures[key]


class SignInLimiter:
    """Sign-ins per client address and per account (docs/PROTOCOL.md, section 5).

    - **Failures**: an attempt is counted as a failure when it begins (:meth:`begin`,
      which first refuses it past a limit), so attempts made at once cannot slip past the
      limit together; one that succeeds is taken back (:meth:`succeeded`), which also
      clears the account's count. Passkey failures are counted apart from password ones:
      password guesses from a shared address never hold its passkey sign-ins.
    - **Every attempt**, failed or not, also takes from a bucket per address and one per
      account (``attempts``: a rate a minute and a burst): each costs a password hash, so
      even the right password, sent again and again, is limited.

    In memory, per server process.

    >>> limiter = SignInLimiter(per_address=5, per_account=2, window=60.0)
    >>> stamps = [limiter.begin("192.0.2.7", "amira", now=t) for t in (0.0, 1.0)]
    >>> limiter.begin("192.0.2.8", "amira", now=2.0)
    Traceback (most recent call last):
    ...
    basra.server.wire.errors.RateLimited: too many failed sign-ins: try again in 58 s
    """

    def __init__(self, per_address: int, per_account: int, window: float,
                 attempts: tuple[float, int] = (10.0, 20), keys: int = 50_000) -> None:
        self.addresses = FailureWindows(per_address, window, keys)
        self.passkeys = FailureWindows(per_address, window, keys)
        """Failed passkey sign-ins per address."""
        self.accounts = FailureWindows(per_account, window, keys)
        self.attempts = AddressBuckets(*attempts, keys)
        """Every attempt, by address and by account (keys ``@`` + the account's)."""
        self.known: OrderedDict[tuple[str, str], None] = OrderedDict()
        """(account, address) pairs that signed in well: the account's own limit does not
        lock its owner out where they signed in before (others' guesses from elsewhere
        would); at most ``keys``, the oldest go first."""
        self.most_known = keys

    def check(self, address: str, account: str | None = None,
              now: float | None = None, passkey: bool = False) -> None:
        """Raise ``auth/too_many_attempts`` (429, ``Retry-After``) if the address, or the
        account (a :func:`username_key`: unless this address signed in to it before),
        may not try now (``passkey``: a passkey sign-in, held by passkey failures only)."""
        now = time.monotonic() if now is None else now
        waits = [(self.passkeys if passkey else self.addresses).wait(address, now)]
        if account is not None and (account, address) not in self.known:
            waits.append(self.accounts.wait(account, now))
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            seconds = max(1, math.ceil(wait))
            raise RateLimited(f"too many failed sign-ins: try again in {seconds} s",
                              wait, "auth/too_many_attempts")

    def begin(self, address: str, account: str | None = None,
              now: float | None = None, passkey: bool = False) -> float:
        """:meth:`check`, then take the attempt from the buckets and count it as failed
        until it succeeds: the stamp to hand :meth:`succeeded`."""
        now = time.monotonic() if now is None else now
        self.check(address, account, now, passkey)
        waits = [self.attempts.take(address, now)]
        if account is not None and (account, address) not in self.known:
            waits.append(self.attempts.take("@" + account, now))
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            seconds = max(1, math.ceil(wait))
            raise RateLimited(f"too many sign-ins: try again in {seconds} s", wait,
                              "auth/too_many_attempts")
        (self.passkeys if passkey else self.addresses).fail(address, now)
        if account is not None:
            self.accounts.fail(account, now)
        return now

    def succeeded(self, address: str, account: str | None, stamp: float,
                  passkey: bool = False, remember: bool = True) -> None:
        """The attempt begun at ``stamp`` succeeded: it is not a failure, and the account's
        earlier failures are forgotten; with ``remember``, the address is known to the
        account from now on (not for a session's proofs: a session's limit holds
        wherever it is tried from)."""
        (self.passkeys if passkey else self.addresses).forgive(address, stamp)
        if account is not None:
            self.accounts.clear(account)
            if not remember:
                return
            self.known[(account, address)] = None
            self.known.move_to_end((account, address))
            while len(self.known) > self.most_known:
                self.known.popitem(last=False)

    def forget(self, account: str) -> None:
        """A deleted account's count and known addresses."""
        self.accounts.clear(account)
        for pair in [pair for pair in self.known if pair[0] == account]:
            del self.known[pair]


def address_of(scope: Scope) -> str:
    """What the sign-in limiter counts an address by (an IPv6 address's /64)."""
    return address_key(client_address(scope))


# ---------------------------------------------------------------------------------------
# what GET /api/me answers


def rating_json(row: RatingRow) -> dict[str, Any]:
    """A rating as the API shows it: whole numbers, and its label (``1500?``)."""
    rating = Rating(row.rating, row.deviation, row.volatility)
    return {"rating": round(row.rating), "deviation": round(row.deviation),
            "label": rating.label, "provisional": rating.provisional, "games": row.games}


async def me_json(store: Store, player: PlayerRow) -> dict[str, Any]:
    """``GET /api/me``: who the player is, their account and their ratings per variant."""
    ratings = await store.ratings(player.id)
    passkeys = await store.passkeys(player.id) if player.account else []
    return {"id": player.id, "nickname": player.nickname, "username": player.username,
            "account": player.account, "has_password": player.has_password,
            "passkeys": len(passkeys),
            "ratings": {row.variant: rating_json(row) for row in ratings}}
