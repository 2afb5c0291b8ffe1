"""Guests: a nickname in one request, a session token that survives a page reload.

The token is 32 random bytes (URL-safe text) handed to the client once; the store keeps
only its SHA-256, so a leaked database does not leak sessions.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from basra.confusables import describe, first_hidden
from basra.server.wire.errors import Refusal

NICKNAME_MIN = 2
NICKNAME_MAX = 20
_ALLOWED_PUNCTUATION = set(" _-.'")


class NicknameError(Refusal, ValueError):
    """A nickname that is not allowed; the message says why in one line."""

    code = "guest/bad_nickname"


class HiddenCharacter(NicknameError):
    """A nickname with a character that shows nothing (zero-width, bidi control, variation
    selector, combining grapheme joiner, Hangul filler...: :func:`basra.confusables.hidden`):
    it would look like another name without it."""

    code = "guest/nickname_invisible"


def clean_nickname(raw: object) -> str:
    """The nickname to keep: trimmed, NFC, inner spaces folded; letters of any script,
    digits, spaces and ``_ - . '``; 2 to 20 characters, at least one a letter or digit;
    no character that shows nothing (:class:`HiddenCharacter`). Raises
    :class:`NicknameError`.

    >>> clean_nickname("  Amira  ")
    'Amira'
    >>> clean_nickname("أحمد_77")
    'أحمد_77'
    """
    if not isinstance(raw, str):
        raise NicknameError("a nickname must be text")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise NicknameError("a nickname must be valid Unicode text") from None
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not NICKNAME_MIN <= len(name) <= NICKNAME_MAX:
        raise NicknameError(
            f"a nickname must be {NICKNAME_MIN} to {NICKNAME_MAX} characters long")
    hidden = first_hidden(name)
    if hidden is not None:
        raise HiddenCharacter("a nickname may not hold invisible or variation characters "
                              f"({describe(hidden)})")
    for ch in name:
        category = unicodedata.category(ch)
        if not (category[0] in "LN" or category == "Mn" or ch in _ALLOWED_PUNCTUATION):
            raise NicknameError(
                f"a nickname may hold letters, digits, spaces and _ - . ' only, not {ch!r}")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise NicknameError("a nickname needs at least one letter or digit")
    if name.lower().startswith("bot:") or name.lower() == "bot":
        raise NicknameError("a nickname may not pose as a bot")
    return name


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


