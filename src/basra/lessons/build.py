"""The lessons as JSON for the browser (``basra-lessons/1``), made once, and :func:`check`.

``lessons_json()`` is the list ``GET /api/lessons`` serves; ``lesson_json(id)`` one lesson,
every step with what the browser needs to teach it without knowing a rule: a position's
hand and floor and, for every legal play, its take, whether it is right and its feedback
(i18n lines); a question's facts and options, each right or wrong with its feedback. Both
are pure data, made once per process (:func:`functools.cache`).

>>> [lesson["id"] for lesson in lessons_json()["lessons"]][:3]
['match', 'sum', 'match-and-sum']
>>> step = lesson_json("sum")["steps"][0]
>>> [(p["card"], p["take"], p["right"]) for p in step["plays"]]
[('5D', [], False), ('10S', ['7H', '3C'], True)]
>>> check()
[]
"""

from __future__ import annotations

from functools import cache
from typing import Any

from basra.game.cards import NAMES
from basra.game.rules import find_variant
from basra.lessons.data import LESSONS
from basra.lessons.judge import (
    Line,
    cards,
    check_position,
    check_question,
    context,
    in_order,
    lines,
    outcomes,
    question_explained,
    question_facts,
    question_truth,
    question_why,
    right_plays,
)
from basra.lessons.model import Lesson, Position, Question

FORMAT = "basra-lessons/1"

LESSON_IDS: tuple[str, ...] = tuple(lesson.id for lesson in LESSONS)
_BY_ID: dict[str, Lesson] = {lesson.id: lesson for lesson in LESSONS}


def find_lesson(lesson_id: str) -> Lesson | None:
    """The lesson called ``lesson_id``, or None."""
    return _BY_ID.get(lesson_id)


def _lines(found: list[Line]) -> list[dict[str, object]]:
    return [line.to_json() for line in found]


def position_json(pos: Position, variant: str) -> dict[str, Any]:
    rules = find_variant(variant)
    found = outcomes(pos, rules)
    right = set(right_plays(pos.goal, found))
    order = cards(pos.floor)
    plays = []
    for o in found:
        good = o.play in right
        plays.append({
            "card": NAMES[o.play.card],
            "take": in_order(o.play.take, order),
            "right": good, "basra": o.basra, "points": o.points,
            "lines": _lines(lines(o, pos, rules, good)),
        })
    return {"kind": "play", "variant": variant, "goal": pos.goal_key,
            "hand": pos.hand.split(), "floor": pos.floor.split(), "last": pos.last,
            "context": _lines(context(pos)), "plays": plays}


def question_json(q: Question, variant: str) -> dict[str, Any]:
    rules = find_variant(variant)
    truth = question_truth(q, rules)
    explained = _lines(question_explained(q, rules))
    why = _lines(question_why(q, rules))
    return {"kind": "question", "variant": variant, "ask": q.ask,
            "prompt": f"learn.q.{q.ask}", "shown": q.shown.split(),
            "facts": _lines(question_facts(q)),
            "options": [{"value": v, "right": v == truth, "lines": explained if v == truth else why}
                        for v in q.options]}


@cache
def lesson_json(lesson_id: str) -> dict[str, Any] | None:
    """One lesson for the browser (None for an unknown id); made once."""
    lesson = find_lesson(lesson_id)
    if lesson is None:
        return None
    steps = [position_json(s, lesson.variant_of(s)) if isinstance(s, Position)
             else question_json(s, lesson.variant_of(s)) for s in lesson.steps]
    return {"format": FORMAT, "id": lesson.id, "variant": lesson.variant,
            "title": lesson.title_key, "intro": lesson.intro_key, "steps": steps,
            "next": _next_id(lesson.id)}


def _next_id(lesson_id: str) -> str | None:
    at = LESSON_IDS.index(lesson_id)
    return LESSON_IDS[at + 1] if at + 1 < len(LESSON_IDS) else None


@cache
def lessons_json() -> dict[str, Any]:
    """The list of lessons, in order (what ``GET /api/lessons`` serves, without progress)."""
    return {"format": FORMAT, "lessons": [
        {"id": lesson.id, "variant": lesson.variant, "title": lesson.title_key,
         "intro": lesson.intro_key, "steps": len(lesson.steps)} for lesson in LESSONS]}


def keys_used() -> set[str]:
    """Every i18n key the lessons' JSON names (the browser's own words aside)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in ("key", "goal", "prompt", "title", "intro") and isinstance(v, str):
                    found.add(v)
                elif k == "words" and isinstance(v, dict):
                    found.update(str(w) for w in v.values())
                else:
                    walk(v)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(lessons_json())
    for lesson_id in LESSON_IDS:
        walk(lesson_json(lesson_id))
    return found


def check(lessons: tuple[Lesson, ...] = LESSONS) -> list[str]:
    """Every problem of every step, against the engine (none: the lessons are right)."""
    problems = []
    seen: set[str] = set()
    for lesson in lessons:
        if lesson.id in seen:
            problems.append(f"{lesson.id}: two lessons have this id")
        seen.add(lesson.id)
        if not 2 <= len(lesson.steps) <= 5:
            problems.append(f"{lesson.id}: {len(lesson.steps)} steps")
        for n, step in enumerate(lesson.steps, 1):
            rules = find_variant(lesson.variant_of(step))
            found = (check_position(step, rules) if isinstance(step, Position)
                     else check_question(step, rules))
            problems += [f"{lesson.id} step {n}: {p}" for p in found]
    return problems
