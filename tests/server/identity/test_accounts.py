"""Accounts without a server (basra.server.identity.accounts and .passkeys): usernames
and passwords, argon2id hashing, the dummy check for unknown names, the sign-in limiter's
windows, clearing and bounds, and the passkey ceremonies' options and verification.

:class:`SoftAuthenticator` is a WebAuthn authenticator in a few lines (an ECDSA P-256 key,
``none`` attestation), so the ceremonies are checked here and end to end
(test_server_accounts.py) without a browser; the browser tests use Chromium's virtual
authenticator."""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import json
import os
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import cbor2
import pytest
from argon2 import PasswordHasher
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from basra.errors import BasraError
from basra.server.config import Settings
from basra.server.identity import accounts, passkeys, sessions
from basra.server.identity.accounts import (
    PASSWORD_MAX,
    FailureWindows,
    PasswordError,
    SignInLimiter,
    UsernameError,
    check_password,
    check_password_now,
    clean_password,
    clean_username,
    hash_password,
    hash_password_now,
    rating_json,
    username_key,
)
from basra.server.identity.hashing import Hashing
from basra.server.identity.passkeys import PasskeyError, RelyingParty
from basra.server.wire.errors import RateLimited, status_of
from basra.store.base import ChallengeRow, PasskeyRow, PlayerRow, RatingRow

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
RP = RelyingParty("play.example.org", ("https://play.example.org",))
AMIRA = PlayerRow("pl4yer-1d", "Amira", NOW, "amira_77", True)


# ---------------------------------------------------------------------------------------
# a software authenticator


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One discoverable credential on an ECDSA P-256 key, as a browser's
    ``navigator.credentials`` would return it (the WebAuthn JSON of the answers)."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.count = 0
        self.user_handle: str | None = None
        self.rp_id: str | None = None

    @property
    def id(self) -> str:
        return b64(self.credential_id)

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge,
                           "origin": origin or self.origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str | None = None,
               rp_id: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create({publicKey: options})``."""
        self.rp_id = rp_id or options["rp"]["id"]
        self.user_handle = options["user"]["id"]
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        auth_data = (hashlib.sha256(str(self.rp_id).encode()).digest() + bytes([0x45])
                     + self.count.to_bytes(4, "big") + bytes(16)
                     + len(self.credential_id).to_bytes(2, "big") + self.credential_id
                     + self._cose_key())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": self.id, "rawId": self.id, "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client_data),
                             "attestationObject": b64(attestation),
                             "transports": ["internal", "hybrid", "carrier-pigeon"]}}

    def get(self, options: dict[str, Any], origin: str | None = None,
            count: int | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get({publicKey: options})``."""
        self.count = self.count + 1 if count is None else count
        rp_id = options.get("rpId") or self.rp_id
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = (hashlib.sha256(str(rp_id).encode()).digest() + bytes([0x05])
                     + self.count.to_bytes(4, "big"))
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": self.id, "rawId": self.id, "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client_data),
                             "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": self.user_handle}}


class Challenges:
    """The store's two challenge methods, in memory."""

    def __init__(self) -> None:
        self.rows: dict[str, ChallengeRow] = {}

    async def put_challenge(self, row: ChallengeRow) -> None:
        self.rows[row.id] = row

    async def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        return self.rows.pop(challenge_id, None)


# ---------------------------------------------------------------------------------------
# usernames and passwords


@pytest.mark.parametrize("raw, kept", [
    ("amira", "amira"), ("  Amira_77 ", "Amira_77"), ("أحمد.٧", "أحمد.٧"),
    ("Omar  Khaled", "Omar Khaled"), ("O'Brien-2", "O'Brien-2")])
def test_usernames_follow_the_nickname_rules(raw: str, kept: str) -> None:
    assert clean_username(raw) == kept


@pytest.mark.parametrize("raw, says", [
    ("a", "2 to 20"), ("x" * 21, "2 to 20"), ("amira!", "not '!'"), ("<b>", "not '<'"),
    ("bot:hard", "not ':'"), ("Bot", "pose as a bot"), ("...", "letter or digit"),
    (42, "text"), ("\ud800ab", "valid Unicode")])
def test_bad_usernames_say_why_in_one_line(raw: object, says: str) -> None:
    with pytest.raises(UsernameError) as caught:
        clean_username(raw)
    assert caught.value.code == "account/bad_username"
    assert status_of(caught.value.code) == 422
    assert says in caught.value.message and "\n" not in caught.value.message
    assert "nickname" not in caught.value.message


def test_username_keys_fold_case_and_spacing() -> None:
    assert username_key("Amira") == username_key("AMIRA") == username_key(" amira ")
    assert username_key("Straße") == username_key("STRASSE")
    assert username_key("Omar  Khaled") == username_key("omar khaled")


@pytest.mark.parametrize("raw", [
    "correct horse", "12345678", "ab" * 64, "كلمة سر طويلة", "pässwörd!", "a" * 7 + "b"])
def test_good_passwords(raw: str) -> None:
    assert clean_password(raw) == raw


@pytest.mark.parametrize("raw, says", [
    ("short", "8 to 128"), ("1234567", "8 to 128"), ("x" * 128 + "y", "8 to 128"),
    ("aaaaaaaa", "one character"), ("        ", "one character"), (None, "text"),
    (12345678, "text"), ("abcdefg\ud800", "valid Unicode")])
def test_weak_passwords_are_refused(raw: object, says: str) -> None:
    with pytest.raises(PasswordError) as caught:
        clean_password(raw)
    assert caught.value.code == "account/weak_password"
    assert status_of(caught.value.code) == 422
    assert says in caught.value.message


def test_passwords_are_normalized_before_counting_and_hashing() -> None:
    composed, decomposed = "caf\u00e9 au lait", "cafe\u0301 au lait"
    assert clean_password(decomposed) == clean_password(composed)
    stored = hash_password_now(clean_password(composed))
    assert check_password_now(stored, decomposed).ok
    assert len(clean_password("x" * (PASSWORD_MAX - 1) + "y")) == PASSWORD_MAX


def test_a_hash_is_argon2id_and_never_holds_the_password() -> None:
    password = "correct horse battery"
    stored = hash_password_now(password)
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert password not in stored
    assert password.encode().hex() not in stored
    assert base64.b64encode(password.encode()).decode().rstrip("=") not in stored
    again = hash_password_now(password)
    assert again != stored  # a fresh salt each time
    assert check_password_now(stored, password) == accounts.Checked(True)
    assert check_password_now(again, password).ok
    assert not check_password_now(stored, "correct horse battery!").ok
    assert not check_password_now(stored, "Correct horse battery").ok


def test_an_unknown_name_is_checked_against_a_dummy_hash() -> None:
    """The dummy is a real argon2id hash of the same cost, checked when there is no
    stored hash: it never matches, and takes about as long as a real check."""
    dummy = accounts.dummy_hash()
    assert dummy.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert accounts.dummy_hash() is dummy  # made once
    stored = hash_password_now("correct horse")
    for attempt in ("correct horse", "", "x" * 1000, "\ud800\udfff", None, 7):
        assert check_password_now(None, attempt) == accounts.Checked(False)
    # the fastest of several (a busy machine only slows some); without the dummy an
    # unknown name would answer in microseconds, a thousand times sooner
    real = min(_timed(lambda: check_password_now(stored, "wrong guess")) for _ in range(7))
    fake = min(_timed(lambda: check_password_now(None, "wrong guess")) for _ in range(7))
    assert 0.3 < fake / real < 3.0, (real, fake)


def _timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def test_a_bad_stored_hash_is_a_failed_check_not_an_error() -> None:
    assert not check_password_now("not a hash", "correct horse").ok
    assert not check_password_now("$argon2id$v=19$m=1,t=1,p=1$broken", "whatever1").ok


def test_an_old_hash_is_made_again_on_a_good_check() -> None:
    old = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash("correct horse")
    checked = check_password_now(old, "correct horse")
    assert checked.ok and checked.rehashed is not None
    assert checked.rehashed.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert check_password_now(checked.rehashed, "correct horse") == accounts.Checked(True)
    assert check_password_now(old, "wrong horse") == accounts.Checked(False)


def test_hashing_runs_off_the_event_loop() -> None:
    async def main() -> None:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                ticks += 1

        task = asyncio.create_task(ticker())
        hashing = Hashing(per_address=3)
        stored = await hash_password(hashing, "192.0.2.1", "correct horse")
        checks = await asyncio.gather(*(check_password(hashing, "192.0.2.1", stored, p)
                                        for p in ("correct horse", "wrong", None)))
        task.cancel()
        assert [c.ok for c in checks] == [True, False, False]
        assert ticks >= 5  # the loop kept turning while argon2 worked

    asyncio.run(main())


# ---------------------------------------------------------------------------------------
# the sign-in limiter


def test_failures_in_a_sliding_window() -> None:
    windows = FailureWindows(most=3, window=100.0)
    for t in (0.0, 10.0, 20.0):
        assert windows.wait("a", t) is None
        windows.fail("a", t)
    assert windows.wait("a", 30.0) == 70.0  # until the oldest (0.0) leaves
    assert windows.wait("b", 30.0) is None  # another key is on its own
    assert windows.wait("a", 100.0) is None  # 0.0 left the window: two remain
    windows.fail("a", 100.0)
    assert windows.wait("a", 105.0) == 5.0  # now 10.0 is the oldest
    assert windows.wait("a", 220.0) is None
    assert "a" not in windows.failures  # every failure left: the key is forgotten


def test_a_key_keeps_only_its_limit_of_failures() -> None:
    windows = FailureWindows(most=3, window=100.0)
    for t in range(1000):
        windows.fail("a", float(t) / 100)
    assert len(windows.failures["a"]) == 3
    assert windows.wait("a", 10.0) == pytest.approx(100.0 - (10.0 - 9.97))


def test_the_limiter_holds_a_bounded_number_of_keys() -> None:
    windows = FailureWindows(most=2, window=100.0, keys=100)
    for n in range(1000):
        windows.fail(f"10.0.{n // 256}.{n % 256}", 1.0)
    assert len(windows.failures) == 100
    assert "10.0.3.231" in windows.failures  # the latest stay
    assert "10.0.0.0" not in windows.failures  # the oldest went first


def test_pruning_forgets_keys_whose_failures_left_the_window() -> None:
    windows = FailureWindows(most=2, window=10.0)
    for n in range(500):
        windows.fail(f"old-{n}", 0.0)
    windows.fail("recent", 50.0)
    windows.prune(55.0)
    assert list(windows.failures) == ["recent"]
    for n in range(1100):  # pruning also happens on its own, as failures come in
        windows.fail(f"k{n}", 100.0 + n)
    assert len(windows.failures) < 1100


def test_the_limiter_refuses_per_address_and_per_account() -> None:
    limiter = SignInLimiter(per_address=3, per_account=2, window=60.0)
    limiter.begin("192.0.2.1", "amira", now=0.0)
    limiter.begin("192.0.2.2", "amira", now=1.0)
    with pytest.raises(RateLimited) as caught:  # amira's account, from anywhere
        limiter.begin("192.0.2.3", "amira", now=2.0)
    assert caught.value.code == "auth/too_many_attempts"
    assert status_of(caught.value.code) == 429
    assert caught.value.retry_after == 58
    limiter.begin("192.0.2.3", "omar", now=2.0)  # another account from another address
    limiter.begin("192.0.2.1", "omar", now=3.0)
    limiter.begin("192.0.2.1", "layla", now=4.0)
    with pytest.raises(RateLimited) as caught:  # the address's third failure was its last
        limiter.begin("192.0.2.1", "yusuf", now=5.0)
    assert caught.value.retry_after == 55
    assert "try again in 55 s" in caught.value.message
    limiter.begin("192.0.2.1", "yusuf", now=60.5)  # 0.0 left the window


def test_a_success_is_not_a_failure_and_clears_the_account() -> None:
    limiter = SignInLimiter(per_address=3, per_account=3, window=60.0)
    limiter.begin("192.0.2.1", "amira", now=0.0)
    limiter.begin("192.0.2.1", "amira", now=1.0)
    stamp = limiter.begin("192.0.2.1", "amira", now=2.0)
    limiter.succeeded("192.0.2.1", "amira", stamp)
    assert "amira" not in limiter.accounts.failures
    assert len(limiter.addresses.failures["192.0.2.1"]) == 2  # the two failures stay
    limiter.begin("192.0.2.1", "amira", now=3.0)  # one more try
    with pytest.raises(RateLimited):
        limiter.begin("192.0.2.1", "amira", now=4.0)


def test_attempts_at_once_cannot_pass_the_limit_together() -> None:
    """Each attempt counts as failed when it begins, before the slow check: a burst of
    attempts at one instant is cut at the limit."""
    limiter = SignInLimiter(per_address=5, per_account=100, window=60.0)
    began = 0
    for n in range(20):
        try:
            limiter.begin("192.0.2.1", f"name{n}", now=0.0)
            began += 1
        except RateLimited:
            pass
    assert began == 5


def test_every_attempt_counts_even_with_the_right_password() -> None:
    """A sign-in that succeeds is no failure, but it cost a hash: past the attempts'
    burst the address (and the account, from many addresses) waits."""
    limiter = SignInLimiter(per_address=20, per_account=8, window=900.0, attempts=(6.0, 5))
    for n in range(5):
        stamp = limiter.begin("192.0.2.1", "amira", now=float(n) / 10)
        limiter.succeeded("192.0.2.1", "amira", stamp)
    with pytest.raises(RateLimited) as caught:
        limiter.begin("192.0.2.1", "amira", now=0.6)
    assert caught.value.code == "auth/too_many_attempts" and caught.value.retry_after >= 9
    limiter.begin("192.0.2.1", "amira", now=11.0)  # one a ten seconds again
    # One account from many addresses: its own bucket (where it never signed in before).
    for n in range(5):
        limiter.begin(f"198.51.100.{n}", "omar", now=0.0)
    with pytest.raises(RateLimited):
        limiter.begin("198.51.100.9", "omar", now=0.1)


def test_password_failures_never_hold_passkey_sign_ins() -> None:
    limiter = SignInLimiter(per_address=3, per_account=8, window=900.0)
    for n in range(3):
        limiter.begin("192.0.2.1", f"guess{n}", now=0.0)
    with pytest.raises(RateLimited):
        limiter.begin("192.0.2.1", "amira", now=1.0)
    stamp = limiter.begin("192.0.2.1", now=1.0, passkey=True)  # a passkey: still fine
    limiter.succeeded("192.0.2.1", None, stamp, passkey=True)
    for _ in range(3):  # passkey failures have a window of their own
        limiter.begin("192.0.2.1", now=2.0, passkey=True)
    with pytest.raises(RateLimited):
        limiter.begin("192.0.2.1", now=3.0, passkey=True)


def test_hashing_takes_addresses_in_turn_and_bounds_what_waits() -> None:
    """One address sending many checks waits behind its own: another address's check runs
    next, not after all of them; past its share an address is told auth/busy at once."""
    async def main() -> None:
        hashing = Hashing(workers=1, per_address=2, most=5)
        order: list[str] = []

        def work(name: str) -> str:
            time.sleep(0.05)
            order.append(name)
            return name

        flood = [asyncio.create_task(hashing.run("192.0.2.66", functools.partial(work, f"f{n}")))
                 for n in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(RateLimited) as busy:
            await hashing.run("192.0.2.66", functools.partial(work, "f-extra"))
        assert busy.value.code == "auth/busy" and status_of("auth/busy") == 503
        others = [asyncio.create_task(hashing.run(f"198.51.100.{n}",
                                                  functools.partial(work, f"o{n}")))
                  for n in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(RateLimited):  # five wait in all: nobody else now
            await hashing.run("203.0.113.1", functools.partial(work, "late"))
        assert await asyncio.gather(*flood, *others) == ["f0", "f1", "o0", "o1", "o2"]
        # The flooder's second check waited for the others' turns: f0, o0, f1, ...
        assert order.index("o0") < order.index("f1")
        assert len(hashing) == 0 and hashing.refused == 2

    asyncio.run(main())


def test_ipv6_addresses_count_by_their_64() -> None:
    scope = {"client": ("2001:db8:1:2:aaaa::1", 5000)}
    other = {"client": ("2001:db8:1:2:bbbb::9", 5000)}
    assert accounts.address_of(scope) == accounts.address_of(other) == "2001:db8:1:2::/64"
    assert accounts.address_of({}) == "unknown"


# ---------------------------------------------------------------------------------------
# sessions and /api/me


def test_user_agents_are_trimmed_and_printable() -> None:
    scope = {"headers": [(b"user-agent", b"Mozilla/5.0 " + b"x" * 500)]}
    agent = sessions.user_agent_of(scope)
    assert agent is not None and len(agent) == 200 and agent.startswith("Mozilla/5.0 x")
    assert sessions.user_agent_of({"headers": [(b"user-agent", b"a\x00b\x1bc")]}) == "abc"
    assert sessions.user_agent_of({"headers": []}) is None
    assert sessions.user_agent_of({"headers": [(b"user-agent", b"  ")]}) is None


def test_sessions_are_stored_by_hash_with_their_device() -> None:
    class Sessions:
        def __init__(self) -> None:
            self.added: list[Any] = []

        async def add_session(self, row: Any, token_hash: str) -> None:
            self.added.append((row, token_hash))

    store = Sessions()
    scope = {"client": ("192.0.2.7", 4711), "headers": [(b"user-agent", b"Firefox")]}
    token, row = asyncio.run(sessions.open_session(store, scope, "p1", "password"))  # type: ignore[arg-type]
    [(stored, hashed)] = store.added
    assert stored == row and row.player_id == "p1" and row.kind == "password"
    assert row.user_agent == "Firefox" and row.address == "192.0.2.7"
    assert hashed == hashlib.sha256(token.encode()).hexdigest() != token
    assert len(token) >= 40 and token not in repr(row)


def test_ratings_as_the_api_shows_them() -> None:
    row = RatingRow("egyptian", 1532.4, 61.8, 0.06, 14, NOW)
    assert rating_json(row) == {"rating": 1532, "deviation": 62, "label": "1532",
                                "provisional": False, "games": 14}
    new = rating_json(replace(row, rating=1500.0, deviation=350.0, games=1))
    assert new["label"] == "1500?" and new["provisional"] is True


# ---------------------------------------------------------------------------------------
# passkeys


def test_registration_options_shape() -> None:
    existing = [PasskeyRow(b64(b"old-credential"), AMIRA.id, b"k", 3, "Pixel", NOW,
                           ("internal", "hybrid"))]
    challenge, options = passkeys.registration_options(RP, AMIRA, existing)
    json.dumps(options)  # plain JSON
    assert len(challenge) >= 32
    assert options["challenge"] == b64(challenge)
    assert options["rp"] == {"name": "Basra", "id": "play.example.org"}
    assert options["user"] == {"id": b64(AMIRA.id.encode()), "name": "amira_77",
                               "displayName": "Amira"}
    assert options["authenticatorSelection"] == {
        "residentKey": "required", "requireResidentKey": True,
        "userVerification": "preferred"}
    assert options["attestation"] == "none"
    assert options["excludeCredentials"] == [
        {"id": b64(b"old-credential"), "type": "public-key",
         "transports": ["internal", "hybrid"]}]
    assert {p["alg"] for p in options["pubKeyCredParams"]} >= {-7, -8, -257}
    assert options["timeout"] == passkeys.CHALLENGE_SECONDS * 1000


def test_authentication_options_shape() -> None:
    challenge, options = passkeys.authentication_options(RP)
    json.dumps(options)
    assert options["challenge"] == b64(challenge)
    assert options["rpId"] == "play.example.org"
    assert options.get("allowCredentials", []) == []  # discoverable: the browser offers
    assert options["userVerification"] == "preferred"


def test_the_relying_party_from_settings_or_the_request() -> None:
    plain = Settings()
    assert RelyingParty.of(plain, "http", "localhost", "localhost:8000") == RelyingParty(
        "localhost", ("http://localhost:8000",))
    assert RelyingParty.of(plain, "https", "play.example.org", "play.example.org") == (
        RelyingParty("play.example.org", ("https://play.example.org",)))
    named = Settings(passkey_rp_id="example.org",
                     passkey_origins=("https://example.org", "https://play.example.org"))
    assert RelyingParty.of(named, "http", "10.0.0.5", "10.0.0.5:8000") == RelyingParty(
        "example.org", ("https://example.org", "https://play.example.org"))


def test_a_registration_and_a_sign_in_verify() -> None:
    key = SoftAuthenticator("https://play.example.org")
    challenge, options = passkeys.registration_options(RP, AMIRA, [])
    registered = passkeys.verify_registration(RP, challenge, key.create(options))
    assert registered.credential_id == key.id
    assert registered.sign_count == 0
    assert registered.transports == ("internal", "hybrid")  # an unknown one is dropped
    row = PasskeyRow(registered.credential_id, AMIRA.id, registered.public_key,
                     registered.sign_count, "Phone", NOW, registered.transports)
    challenge, options = passkeys.authentication_options(RP)
    answer = key.get(options)
    assert passkeys.credential_id(answer) == key.id
    assert passkeys.verify_authentication(RP, challenge, answer, row) == 1
    used = replace(row, sign_count=1)
    challenge, options = passkeys.authentication_options(RP)
    assert passkeys.verify_authentication(RP, challenge, key.get(options), used) == 2


def _refused(work: Any) -> str:
    with pytest.raises(PasskeyError) as caught:
        work()
    message = caught.value.message
    assert caught.value.code == "passkey/failed", message
    assert "\n" not in message and len(message) < 300
    return message


def test_ceremonies_that_do_not_verify_are_refused_in_one_line() -> None:
    key = SoftAuthenticator("https://play.example.org")
    challenge, options = passkeys.registration_options(RP, AMIRA, [])
    good = key.create(options)
    _refused(lambda: passkeys.verify_registration(RP, os.urandom(32), good))
    _refused(lambda: passkeys.verify_registration(
        RP, challenge, key.create(options, origin="https://evil.example")))
    _refused(lambda: passkeys.verify_registration(
        RP, challenge, key.create(options, rp_id="evil.example")))
    _refused(lambda: passkeys.verify_registration(RP, challenge, {"id": "x"}))
    _refused(lambda: passkeys.verify_registration(RP, challenge, [1, 2]))
    broken = json.loads(json.dumps(good))
    broken["response"]["attestationObject"] = "@@not base64@@"
    _refused(lambda: passkeys.verify_registration(RP, challenge, broken))
    registered = passkeys.verify_registration(RP, challenge, good)
    row = PasskeyRow(registered.credential_id, AMIRA.id, registered.public_key, 5, "Phone",
                     NOW)
    challenge, options = passkeys.authentication_options(RP)
    _refused(lambda: passkeys.verify_authentication(RP, challenge, key.get(options, count=5),
                                                    row))  # the count went back: a clone
    _refused(lambda: passkeys.verify_authentication(RP, challenge, key.get(
        options, origin="https://evil.example"), row))
    answer = key.get(options, count=9)
    _refused(lambda: passkeys.verify_authentication(RP, os.urandom(32), answer, row))
    forged = json.loads(json.dumps(answer))
    forged["response"]["signature"] = b64(b"\x30\x06\x02\x01\x01\x02\x01\x01")
    _refused(lambda: passkeys.verify_authentication(RP, challenge, forged, row))
    other_key = SoftAuthenticator("https://play.example.org")
    other_key.credential_id = key.credential_id
    other_key.user_handle = key.user_handle
    _refused(lambda: passkeys.verify_authentication(RP, challenge, other_key.get(options),
                                                    row))
    someone_else = json.loads(json.dumps(answer))
    someone_else["response"]["userHandle"] = b64(b"another-player")
    assert "another player" in _refused(lambda: passkeys.verify_authentication(
        RP, challenge, someone_else, row))
    assert passkeys.verify_authentication(RP, challenge, answer, row) == 9


def test_credential_ids_are_read_with_care() -> None:
    assert passkeys.credential_id({"id": "abc_-"}) == "abc_-"
    for bad in ({}, {"id": 5}, {"id": ""}, {"id": "é"}, {"id": "a" * 2000}, "abc", None):
        with pytest.raises(PasskeyError):
            passkeys.credential_id(bad)


def test_passkey_names() -> None:
    assert passkeys.clean_name("  Pixel\t 8 (Chrome) ") == "Pixel 8 (Chrome)"
    assert passkeys.clean_name("") == passkeys.clean_name(None) == "Passkey"
    assert passkeys.clean_name("\x00\x1b") == "Passkey"
    assert passkeys.clean_name("\ud800 key") == "Passkey"
    assert len(passkeys.clean_name("k" * 500)) == passkeys.NAME_MAX


def test_challenges_are_used_once_and_expire() -> None:
    async def main() -> None:
        store = Challenges()
        secret = os.urandom(32)
        first = await passkeys.new_challenge(store, secret, "register", "p1")  # type: ignore[arg-type]
        row = store.rows[first]
        assert row.purpose == "register" and row.player_id == "p1"
        left = row.expires_at - datetime.now(UTC)
        assert timedelta(seconds=295) < left <= timedelta(seconds=300)
        assert await passkeys.take_challenge(store, first, "register", "p1") == secret  # type: ignore[arg-type]
        codes = []
        for challenge_id, purpose, player in (
                (first, "register", "p1"),  # used already
                ("nope", "register", "p1"), (None, "register", "p1"), ("x" * 100, "register",
                                                                      "p1")):
            with pytest.raises(PasskeyError) as caught:
                await passkeys.take_challenge(store, challenge_id, purpose, player)  # type: ignore[arg-type]
            codes.append(caught.value.code)
        other = await passkeys.new_challenge(store, secret, "register", "p1")  # type: ignore[arg-type]
        with pytest.raises(PasskeyError):  # another player's, or another ceremony's
            await passkeys.take_challenge(store, other, "register", "p2")  # type: ignore[arg-type]
        sign_in = await passkeys.new_challenge(store, secret, "sign-in", None)  # type: ignore[arg-type]
        with pytest.raises(PasskeyError):
            await passkeys.take_challenge(store, sign_in, "register", None)  # type: ignore[arg-type]
        late = await passkeys.new_challenge(store, secret, "sign-in", None)  # type: ignore[arg-type]
        store.rows[late] = replace(store.rows[late],
                                   expires_at=datetime.now(UTC) - timedelta(seconds=1))
        with pytest.raises(PasskeyError) as caught:
            await passkeys.take_challenge(store, late, "sign-in", None)  # type: ignore[arg-type]
        codes.append(caught.value.code)
        assert set(codes) == {"passkey/expired"}
        assert status_of("passkey/expired") == 400

    asyncio.run(main())


def test_every_refusal_here_is_a_basra_error_with_a_listed_status() -> None:
    for code in ("account/bad_username", "account/weak_password", "auth/bad_credentials",
                 "auth/too_many_attempts", "passkey/failed", "passkey/expired",
                 "passkey/unknown", "passkey/not_found", "account/required",
                 "account/already", "account/username_taken", "account/confirm",
                 "auth/guest_sign_out", "session/not_found"):
        assert status_of(code) != 400 or code.startswith("passkey/")
    assert issubclass(PasskeyError, BasraError)
    assert accounts.BadCredentials().message == "wrong username or password"
    assert status_of(accounts.BadCredentials().code) == 401
