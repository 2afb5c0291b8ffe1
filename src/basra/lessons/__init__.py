"""Lessons (issue 29): one short interactive lesson for each rule, checked against the engine.

The lessons are data (:mod:`basra.lessons.data`: positions and questions, each with its
right answers, :mod:`basra.lessons.model`); what every answer does and the feedback that
says it come from the engine (:mod:`basra.lessons.judge`); :mod:`basra.lessons.build` makes
the JSON the browser is served (``basra-lessons/1``) once, and :func:`check` proves every
step against the engine. Imports the game and nothing else of basra; the server's
``routes/lessons.py`` serves it.
"""

from basra.lessons.build import (
    FORMAT,
    LESSON_IDS,
    check,
    find_lesson,
    keys_used,
    lesson_json,
    lessons_json,
)

__all__ = ["FORMAT", "LESSON_IDS", "check", "find_lesson", "keys_used", "lesson_json",
           "lessons_json"]
