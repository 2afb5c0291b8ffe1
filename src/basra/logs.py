"""Structured logs: one JSON object a line on standard error.

A leaf: the server, its node processes and the bot workers set their logging up here, and
it imports nothing of basra.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

LEVELS = ("debug", "info", "warning", "error")
"""The level names :func:`setup_logging` takes (``--log-level``)."""


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def setup_logging(level: str = "info") -> None:
    """The server's logs, and uvicorn's warnings and errors, as JSON lines. Uvicorn's own
    info lines are left out: they would put the session tokens of websocket URLs in the
    log."""
    least = getattr(logging, level.upper())
    for name, floor in (("basra", least), ("uvicorn", max(least, logging.WARNING))):
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter())
        handler.setLevel(floor)
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(floor)  # a line below it is not even made (uvicorn's access lines)
        logger.propagate = False


def level_name() -> str:
    """The ``basra`` logger's level as :func:`setup_logging` takes it (what a child process
    is told to log at)."""
    level = logging.getLogger("basra").getEffectiveLevel()
    for name in LEVELS:
        if level <= getattr(logging, name.upper()):
            return name
    return "error"


__all__ = ["LEVELS", "JsonFormatter", "level_name", "setup_logging"]
