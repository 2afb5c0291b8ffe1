"""What a lesson is: a rule taught by a few tiny steps, each a position to play (a
:class:`Position`) or a question about a round's scoring (a :class:`Question`).

A step says what it asks and which answers are right; what every answer does (what a play
takes, whether it is a basra, what it scores, who wins the majority) is never written here:
:mod:`basra.lessons.judge` asks the engine, and :func:`basra.lessons.judge.check` proves
that the answers written here are the ones the engine makes right.

>>> Position("9S QD", "4H 5C", "basra", ("9S:4H+5C",)).goal_key
'learn.goal.basra'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Goal = Literal["take", "most-cards", "most-points", "basra", "clear", "any"]
"""What a position asks, which decides (with the engine) its right plays:

- ``take``: any play that takes something;
- ``most-cards``: the plays taking the most cards;
- ``most-points``: the plays scoring the most (card points of the capture and basra points);
- ``basra``: the plays scoring the biggest basra;
- ``clear``: the plays that take every card of the floor;
- ``any``: every legal play (a position that shows what happens).
"""

GOALS: tuple[Goal, ...] = ("take", "most-cards", "most-points", "basra", "clear", "any")

Taker = Literal["you", "them", "none"]
"""Who made the round's last capture before the position."""

Ask = Literal["card_points", "points", "majority", "majority_points"]
"""What a question asks about a finished round, answered by the engine's scoring:

- ``card_points``: your pile's card points;
- ``points``: your side's round points (card points, basras, majority and carry);
- ``majority``: who gets the majority (``you``, ``them``, ``both`` or ``nobody``);
- ``majority_points``: the majority points you get, the carry that lands included.
"""

ASKS: tuple[Ask, ...] = ("card_points", "points", "majority", "majority_points")
SIDES: tuple[str, ...] = ("you", "them", "both", "nobody")
"""The answers of a ``majority`` question."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position of two players, you (seat 0) to play: your hand and the floor, in card
    notation (``"10S 5D"``), the goal, and the right plays in play notation
    (``"10S:7H+3C"``, ``"5D"`` for a card laid)."""

    hand: str
    floor: str
    goal: Goal
    answers: tuple[str, ...]
    variant: str = ""
    """The lesson's variant when empty."""
    last: bool = False
    """Whether it is the round's last play (you hold your last card, the stock is empty)."""
    taker: Taker = "none"
    """Who made the last capture so far (it matters at the round's last play)."""
    goal_text: str = ""
    """An i18n key saying the goal, when ``learn.goal.GOAL`` is not the words."""

    @property
    def goal_key(self) -> str:
        return self.goal_text or f"learn.goal.{self.goal}"


@dataclass(frozen=True, slots=True)
class Question:
    """A finished round to score: the cards of your pile worth showing (``shown``, card
    notation), how many cards each side took (``(you, them)``, 52 in all), basras each,
    the carry coming in; what is asked and the options, one of them right."""

    ask: Ask
    shown: str
    cards: tuple[int, int]
    options: tuple[int | str, ...]
    answer: int | str
    basras: tuple[int, int] = (0, 0)
    carry_in: int = 0
    variant: str = ""


Step = Position | Question


@dataclass(frozen=True, slots=True)
class Lesson:
    """One rule: its id (the address ``/learn/ID``), the variant its steps play, and the
    steps; its title and intro are the i18n keys ``learn.lesson.ID.title`` and
    ``.intro``."""

    id: str
    variant: str
    steps: tuple[Step, ...]

    @property
    def title_key(self) -> str:
        return f"learn.lesson.{self.id}.title"

    @property
    def intro_key(self) -> str:
        return f"learn.lesson.{self.id}.intro"

    def variant_of(self, step: Step) -> str:
        return step.variant or self.variant
