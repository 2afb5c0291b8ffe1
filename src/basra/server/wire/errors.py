"""The server's errors: one family under :class:`basra.errors.BasraError`, and the one table
from an error's code to its HTTP status, made from the registry of every code,
:mod:`basra.codes` (docs/PROTOCOL.md, sections 1 and 6).

Every error the server refuses a request with is a :class:`~basra.errors.BasraError`
raised as ``Kind(message, code)``, wherever it comes from (a nickname, the lobby, a seat,
a limit), and travels up unwrapped: the app's one handler answers it with
:func:`error_response`, whose status is :func:`status_of` its code.

>>> status_of("table/full"), status_of("http/405"), status_of("anything/else")
(409, 405, 400)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from fastapi.responses import JSONResponse

from basra import codes
from basra.errors import BasraError

STATUS: Mapping[str, int] = MappingProxyType({
    code: entry.status for code, entry in codes.CODES.items()})
"""HTTP status by error code, from the one registry (:data:`basra.codes.CODES`); a code not
listed answers :data:`DEFAULT_STATUS`, and an ``http/NNN`` code (Starlette's own: unknown
paths and methods) answers NNN."""

DEFAULT_STATUS = codes.DEFAULT_STATUS
"""The status of a code the registry does not list (400)."""


def status_of(code: str) -> int:
    """The HTTP status an error of ``code`` is answered with."""
    if code in STATUS:
        return STATUS[code]
    return codes.starlette_status(code) or DEFAULT_STATUS


def error_json(code: str, message: str) -> dict[str, Any]:
    """An HTTP error's body: ``{"error": {"code": ..., "message": ...}}``."""
    return {"error": {"code": code, "message": message}}


def error_response(code: str, message: str,
                   headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An HTTP error answer, its status from :func:`status_of`."""
    return JSONResponse(error_json(code, message), status_of(code), headers=headers)


class Refusal(BasraError):
    """A request the server refuses on purpose (bad input, a rule of the site, a limit):
    answered with its code and message by the app's one handler (HTTP) or as an ``error``
    message (websocket). Any other error is a fault: logged, and answered
    ``server/internal``."""


class ApiError(Refusal):
    """A request the HTTP API refuses (e.g. ``auth/required``, ``table/not_found``)."""

    code = "request/invalid"


class RateLimited(Refusal):
    """Over a per-address limit: ``rate/limited`` (429) with ``Retry-After``."""

    code = "rate/limited"

    def __init__(self, message: str, retry_after: float, code: str | None = None) -> None:
        super().__init__(message, code)
        self.retry_after = max(1, math.ceil(retry_after))

    @classmethod
    def too_many(cls, what: str, retry_after: float) -> RateLimited:
        wait = max(1, math.ceil(retry_after))
        return cls(f"too many {what} from your address: try again in {wait} s", wait)


def headers_of(exc: BasraError) -> dict[str, str] | None:
    """The headers an error's answer carries (``Retry-After`` for a limit)."""
    if isinstance(exc, RateLimited):
        return {"Retry-After": str(exc.retry_after)}
    return None
