"""Learning (issue 29): the lessons a player finished, puzzle ratings of players and of
puzzles, and each player's first meeting with each puzzle (how it was served, how the first
try ended).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from basra.store.migrations.columns import integer, text, timestamp

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def player(name: str) -> sa.Column[str]:
    return sa.Column(name, sa.Text(), sa.ForeignKey("players.id", ondelete="CASCADE"),
                     nullable=False)


def real(name: str) -> sa.Column[float]:
    return sa.Column(name, sa.Float(), nullable=False)


def upgrade() -> None:
    op.create_table(
        "lesson_progress", player("player_id"), text("lesson"), timestamp("done_at"),
        sa.PrimaryKeyConstraint("player_id", "lesson", name=op.f("pk_lesson_progress")))
    op.create_table(
        "puzzle_players", player("player_id"), real("rating"), real("deviation"),
        real("volatility"), integer("played"), integer("solved"), integer("best_streak"),
        timestamp("updated_at"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_puzzle_players")))
    op.create_table(
        "puzzle_ratings", text("puzzle_id"), real("rating"), real("deviation"),
        real("volatility"), integer("played"), integer("solved"),
        sa.PrimaryKeyConstraint("puzzle_id", name=op.f("pk_puzzle_ratings")))
    op.create_table(
        "puzzle_attempts", player("player_id"), text("puzzle_id"), text("mode"),
        timestamp("served_at"), text("result", nullable=True),
        timestamp("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("player_id", "puzzle_id", name=op.f("pk_puzzle_attempts")),
        sa.CheckConstraint("mode IN ('rated', 'daily', 'practice')",
                           name=op.f("ck_puzzle_attempts_mode")),
        sa.CheckConstraint("result IN ('solved', 'failed')",
                           name=op.f("ck_puzzle_attempts_result")))


def downgrade() -> None:
    for name in ("puzzle_attempts", "puzzle_ratings", "puzzle_players", "lesson_progress"):
        op.drop_table(name)
