"""The lessons as data, in the order they are taught: one rule each, a few tiny steps.

Every step names its right answers; :func:`basra.lessons.judge.check` proves each is legal
and is exactly what the engine makes right for the step's goal (the tests run it on every
step).
"""

from __future__ import annotations

from basra.lessons.model import Lesson, Position, Question

LESSONS: tuple[Lesson, ...] = (
    Lesson("match", "egyptian", (
        Position("5H 9C", "5S 2D KC", "take", ("5H:5S",)),
        Position("KH 4C", "KS 8D 3H", "take", ("KH:KS",)),
        Position("8C 6D", "8H 8S QD 4C", "most-cards", ("8C:8H+8S",)),
    )),
    Lesson("sum", "egyptian", (
        Position("10S 5D", "7H 3C QS", "take", ("10S:7H+3C",)),
        Position("8D 7C", "5H 2C QH", "take", ("7C:5H+2C",)),
        Position("9H 6C", "2S 3D 4C KD", "most-cards", ("9H:2S+3D+4C",)),
    )),
    Lesson("match-and-sum", "egyptian", (
        Position("6S 2H", "6D 4C 2S KH", "most-cards", ("6S:6D+4C+2S",)),
        Position("7C 3H", "7H 5S 2D", "clear", ("7C:7H+5S+2D",)),
    )),
    Lesson("choose-take", "egyptian", (
        Position("9D", "8C AS 6H 3D", "most-points", ("9D:8C+AS",)),
        Position("8H 4S", "5C 3S 6D 2C QH", "most-points", ("8H:6D+2C",)),
    )),
    Lesson("sweepers", "egyptian", (
        Position("JC 4D", "QS 9H 5D", "most-cards", ("JC:QS+9H+5D",)),
        Position("7D 8C", "KH 6S 2C", "most-cards", ("7D:KH+6S+2C",)),
        Position("JH 5S", "", "any", ("JH", "5S"), goal_text="learn.goal.empty_floor"),
    )),
    Lesson("basra", "egyptian", (
        Position("9S QD", "4H 5C", "basra", ("9S:4H+5C",)),
        Position("7D 6H", "3S 2H 4C", "basra", ("7D:3S+2H+4C",)),
        Position("7D KC", "KS", "basra", ("KC:KS",)),
        Position("JS 6C", "6D", "basra", ("6C:6D",)),
    )),
    Lesson("last-capture", "egyptian", (
        Position("4C", "4S 9H QD", "any", ("4C:4S",), last=True, taker="them",
                 goal_text="learn.goal.last"),
        Position("5D", "9C 2S", "any", ("5D",), last=True, taker="them",
                 goal_text="learn.goal.last"),
    )),
    Lesson("counting", "egyptian", (
        Question("card_points", "JS AH 2C 10D", (20, 32), (4, 7, 5, 10), 7),
        Question("points", "JC AD 10D", (29, 23), (45, 35, 15, 25), 45, basras=(1, 0)),
        Question("majority", "", (26, 26), ("you", "them", "nobody"), "nobody"),
        Question("majority_points", "", (27, 25), (30, 60, 0), 60, carry_in=30),
    )),
    Lesson("arabic101", "arabic101", (
        Position("JD 8D", "5H 3C QS", "basra", ("JD:5H+3C+QS",)),
        Position("7D 7C", "7H", "basra", ("7C:7H",)),
        Position("4H", "4S", "any", ("4H:4S",), last=True, taker="them",
                 goal_text="learn.goal.last"),
    )),
    Lesson("lebanese", "lebanese", (
        Position("7D QC", "2H 5C KH", "take", ("7D:2H+5C",),
                 goal_text="learn.goal.plain_seven"),
        Position("10C 4D", "4S 6H", "basra", ("10C:4S+6H",)),
        Position("10H 5D", "2S 3H 5C", "clear", ("10H:2S+3H+5C", "5D:2S+3H+5C"),
                 goal_text="learn.goal.clear_basra"),
        Question("majority_points", "", (27, 25), (30, 3, 0), 3),
    )),
    Lesson("serbian", "serbian", (
        Position("5S 9H", "AC 4D 2H 3S KD", "most-cards", ("5S:AC+4D+2H+3S",)),
        Position("JS 3C", "JD", "basra", ("JS:JD",)),
        Position("7D 10S", "4C 6H", "basra", ("10S:4C+6H",)),
        Question("card_points", "JH AS 2S 10D", (20, 32), (7, -3, 2, 0), -3),
    )),
)
"""Every lesson, in the order they are taught."""
