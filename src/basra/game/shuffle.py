"""The fair shuffle, basra-shuffle-v1 (FAIRNESS.md), byte for byte.

>>> seed = "00" * 31 + "01"
>>> commitment(seed)[:16]
'ec4916dd28fc4c10'
>>> from basra.game.cards import card_name
>>> [card_name(c) for c in shuffled_deck(seed, "alice|bob", 1)[:3]]
['7H', 'QD', '10C']
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence

from basra.errors import FairnessError
from basra.game.cards import Card

SCHEME = "basra-shuffle-v1"
SEAT_SCHEME = "basra-seat-seed-v1"
MAX_CLIENT_SEED_BYTES = 256
MAX_PART_BYTES = 60
"""A seat's part of the client seed: 1 to 60 bytes of UTF-8 (FAIRNESS.md, "Seat parts")."""
OWN_TEXT_BYTES = 43
"""A player's own text in a fresh part is cut to this many bytes, then ``.`` and 16 hex."""
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def new_server_seed() -> str:
    """A fresh server seed: 32 bytes from a cryptographically secure generator, as hex."""
    return secrets.token_bytes(32).hex()


def seed_bytes(server_seed: str) -> bytes:
    """The 32 raw bytes of a server seed given as 64 hex digits."""
    if not isinstance(server_seed, str) or not _HEX64.fullmatch(server_seed):
        raise FairnessError(f"server seed must be 64 hex digits, got {server_seed!r:.80}")
    return bytes.fromhex(server_seed)


def check_client_seed(client_seed: str) -> bytes:
    """UTF-8 of a client seed, which must be 0 to 256 bytes."""
    if not isinstance(client_seed, str):
        raise FairnessError("client seed must be text")
    raw = client_seed.encode("utf-8")
    if len(raw) > MAX_CLIENT_SEED_BYTES:
        raise FairnessError(
            f"client seed is {len(raw)} bytes; at most {MAX_CLIENT_SEED_BYTES} are allowed"
        )
    return raw


def check_nonce(nonce: int) -> int:
    if isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 1:
        raise FairnessError(f"nonce must be a whole number from 1 up, got {nonce!r}")
    return nonce


def commitment(server_seed: str) -> str:
    """``hex(SHA-256(server_seed))`` over the 32 raw bytes, published before the round."""
    return hashlib.sha256(seed_bytes(server_seed)).hexdigest()


def _u32_stream(key: bytes, client_seed: str, nonce: int) -> Iterator[int]:
    prefix = f"{SCHEME}|{client_seed}|{nonce}|".encode()
    k = 0
    while True:
        block = hmac.new(key, prefix + str(k).encode("ascii"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def shuffled_deck(server_seed: str, client_seed: str, nonce: int) -> tuple[Card, ...]:
    """The round's deck, top first (index 0 is dealt first)."""
    key = seed_bytes(server_seed)
    check_client_seed(client_seed)
    check_nonce(nonce)
    stream = _u32_stream(key, client_seed, nonce)
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def seat_part(server_seed: str, nonce: int, seat: int) -> str:
    """The part of the client seed the server supplies for ``seat`` (a bot, or a player who
    sent none for this round): derived from the committed server seed, never drawn freely.

    >>> seat_part("00" * 31 + "01", 1, 0)
    '325044ddfe5478f0'
    """
    key = seed_bytes(server_seed)
    check_nonce(nonce)
    message = f"{SEAT_SCHEME}|{nonce}|{seat}".encode("ascii")
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:16]


def client_seed(server_seed: str, nonce: int, parts: Sequence[str | None]) -> str:
    """A round's client seed: one part per seat, joined with ``|`` (FAIRNESS.md, "Seat
    parts"). A seat with no part of its own (``None``: a bot, or a player who sent none)
    gets the part derived from the committed server seed. The one place client seeds are
    made.

    >>> client_seed("00" * 31 + "01", 1, ["mine", None])
    'mine|8dcc8d99a2ec07c3'
    """
    return "|".join(part if part is not None else seat_part(server_seed, nonce, seat)
                    for seat, part in enumerate(parts))


def part_problem(part: object) -> str | None:
    """Why ``part`` cannot be a seat's part of the client seed, or ``None``: 1 to 60 bytes
    of UTF-8 text, no ``|``, no control characters."""
    if not isinstance(part, str):
        return "a client seed must be text"
    try:
        size = len(part.encode("utf-8"))
    except UnicodeEncodeError:
        return "a client seed must be valid Unicode text"
    if size == 0:
        return "a client seed may not be empty"
    if size > MAX_PART_BYTES:
        return f"a client seed may be at most {MAX_PART_BYTES} bytes"
    if "|" in part:
        return "a client seed may not contain '|'"
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in part):
        return "a client seed may not contain control characters"
    return None


def fresh_part(own_text: str = "") -> str:
    """A fresh part as the reference clients make it: 16 random bytes as hex, or the
    player's own text (cut at a character boundary to 43 bytes), ``.`` and 8 random bytes."""
    if not own_text:
        return secrets.token_hex(16)
    cut = own_text.encode("utf-8")[:OWN_TEXT_BYTES].decode("utf-8", "ignore")
    return f"{cut}.{secrets.token_hex(8)}"
