"""Errors with stable codes.

Every error the package raises on bad input is a :class:`BasraError` with a stable string
``code`` (like boardgame.io's ``action/stale_state_id``) and a one-line message. Callers show
the message to people and match on the code in programs; neither ever carries a traceback.
"""

from __future__ import annotations


class BasraError(Exception):
    """Base of every error raised on bad input. ``code`` is stable; ``str(err)`` is one line."""

    code = "basra/error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class CardNotationError(BasraError, ValueError):
    """Card text that is not a card (syntax), like python-chess's ``InvalidMoveError``."""

    code = "card/bad_notation"


class UnknownVariantError(BasraError, KeyError):
    """A variant name (or alias) that no rule set answers to."""

    code = "variant/unknown"

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message


class SeatingError(BasraError, ValueError):
    """A player count or team setting that the variant does not allow."""

    code = "match/bad_seating"


class IllegalPlayError(BasraError, ValueError):
    """A play the rules forbid (like python-chess's ``IllegalMoveError``).

    Codes: ``play/not_in_hand``, ``play/wrong_seat``, ``play/must_take``, ``play/bad_take``,
    ``play/no_round`` (no round in progress), ``play/match_over``.
    """

    code = "play/illegal"


class DeckError(BasraError, ValueError):
    """A deck that is not the 52 cards exactly once each."""

    code = "deck/invalid"


class FairnessError(BasraError, ValueError):
    """Bad fairness inputs (seed not 64 hex digits, nonce < 1, client seed too long)."""

    code = "fairness/bad_input"


class RecordError(BasraError, ValueError):
    """A match record that is malformed or illegal; the message names round and play."""

    code = "record/invalid"
