"""Column helpers the migrations share.

A migration's schema must never change once released, so these stay as they are: a new
kind of column gets a new helper.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa


def timestamp(name: str, nullable: bool = False) -> sa.Column[datetime]:
    """A timezone-aware timestamp column (UTC; SQLite keeps it as zoneless text)."""
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def text(name: str, nullable: bool = False) -> sa.Column[str]:
    return sa.Column(name, sa.Text(), nullable=nullable)


def integer(name: str, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), nullable=nullable)
