"""The lessons against the engine (issue 29): every step's right answers are legal and are
the ones the engine makes right, and every feedback line says what the engine did (what a
play takes, a basra or not and why, the card points, where the floor went, the scoring of
a question); every i18n key the lessons and the learn page use is in all four
catalogues."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from basra.game.cards import FACES, FULL_DECK, NAMES, VALUES, cards_of, parse_card
from basra.game.engine import (
    Play,
    apply_play,
    basra_points,
    compose_round,
    legal_plays,
    score_round,
)
from basra.game.rules import find_variant
from basra.lessons import LESSON_IDS, check, find_lesson, keys_used, lesson_json, lessons_json
from basra.lessons.data import LESSONS
from basra.lessons.judge import position_round, question_round
from basra.lessons.model import Lesson, Position, Question

WEB = Path(__file__).resolve().parents[2] / "src" / "basra" / "web"
LANGS = ("en", "ar", "fr", "sr")
IDS = ("match", "sum", "match-and-sum", "choose-take", "sweepers", "basra", "last-capture",
       "counting", "arabic101", "lebanese", "serbian")


def catalogue(lang: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return found


def mask(names: list[str]) -> int:
    out = 0
    for n in names:
        out |= 1 << parse_card(n)
    return out


def steps() -> list[tuple[str, int, Any, dict[str, Any]]]:
    """Every step of every lesson with its JSON."""
    out = []
    for lesson in LESSONS:
        served = lesson_json(lesson.id)
        assert served is not None
        for n, (step, data) in enumerate(zip(lesson.steps, served["steps"], strict=True)):
            out.append((lesson.id, n, step, data))
    return out


STEPS = steps()


def test_the_lessons_are_the_issues_and_all_hold() -> None:
    assert LESSON_IDS == IDS
    assert [x["id"] for x in lessons_json()["lessons"]] == list(IDS)
    assert check() == []
    for lesson in LESSONS:
        assert 2 <= len(lesson.steps) <= 4, lesson.id
    assert find_lesson("nope") is None and lesson_json("nope") is None
    # Built once: the same object every time.
    assert lesson_json("sum") is lesson_json("sum")


@pytest.mark.parametrize(("lesson", "n", "step", "data"),
                         [s for s in STEPS if isinstance(s[2], Position)],
                         ids=[f"{s[0]}-{s[1] + 1}" for s in STEPS if isinstance(s[2], Position)])
def test_a_position_against_the_engine(lesson: str, n: int, step: Position,
                                       data: dict[str, Any]) -> None:
    rules = find_variant(data["variant"])
    rnd = position_round(step, rules)
    assert rnd.turn == 0 and [NAMES[c] for c in cards_of(rnd.hand(0))] == sorted(
        data["hand"], key=parse_card)
    legal = legal_plays(rnd)
    served = [Play(parse_card(p["card"]), mask(p["take"])) for p in data["plays"]]
    assert sorted(served) == sorted(legal)  # every legal play, once
    answers = {Play.parse(a) for a in step.answers}
    assert answers and answers <= set(legal)
    assert {play for play, p in zip(served, data["plays"], strict=True) if p["right"]} == answers
    last = rnd.played + 1 == rules.plays_per_round
    assert last == step.last
    for play, p in zip(served, data["plays"], strict=True):
        after = apply_play(rnd, play)
        said = {line["key"]: line for line in p["lines"]}
        basra = basra_points(rules, play.card, play.take, rnd.floor, last)
        assert p["basra"] == basra == (after.log.basra if after.log else -1)
        cleared = bool(play.take) and play.take == rnd.floor
        # What it takes: every card named, and a sum adds up.
        first = p["lines"][0]
        named = first.get("cards", {})
        assert mask(named.get("card", [])) == 1 << play.card
        assert mask(named.get("cards", []) + named.get("matches", [])) == play.take
        for total in first.get("sums", []):
            left, _, right = total.partition(" = ")
            assert sum(int(v) for v in left.split(" + ")) == int(right) == VALUES[play.card]
        if first["key"] in ("learn.fb.sum", "learn.fb.match_sum"):
            values = sorted(VALUES[parse_card(c)] for c in named["cards"])
            assert values == sorted(int(v) for t in first["sums"]
                                    for v in t.partition(" = ")[0].split(" + "))
        if first["key"].startswith("learn.fb.lay"):
            assert not play.take
        # A basra said when the engine scores one, with its points; otherwise a reason.
        assert ("learn.fb.basra" in said) == (basra > 0)
        if basra:
            assert said["learn.fb.basra"]["numbers"]["points"] == basra
        reasons = [k for k in said if ".no_basra." in k]
        assert bool(reasons) == (cleared and not basra), (play, reasons)
        for key in reasons:
            line = said[key]
            if key.endswith(".face"):
                assert mask(line["cards"]["face"]) & play.take & FACES
            if key.endswith(".over"):
                total = sum(VALUES[c] for c in cards_of(play.take))
                assert line["numbers"]["total"] == total > line["numbers"]["limit"]
                assert not play.take & FACES
            if key.endswith(".big"):
                assert line["numbers"]["count"] == rnd.floor.bit_count()
            if key.endswith(".last"):
                assert last and basra_points(rules, play.card, play.take, rnd.floor, False)
        # The card points of the capture, as the engine scores a pile holding it.
        points = 0
        if play.take:
            pile = play.take | 1 << play.card
            rnd_end = compose_round(rules, 2, False, 0, hands=[0, 0], floor=0, stock=[],
                                    piles=[pile, FULL_DECK & ~pile], basras=[0, 0],
                                    bonus=[0, 0], turn=0, last_taker=0,
                                    played=rules.plays_per_round)
            points = score_round(rnd_end, 0)[0][0].card_points
        assert p["points"] == points
        if points:
            assert said["learn.fb.points"]["signed"]["points"] == points
        # At the round's end, the floor left goes where the engine put it.
        if after.finished and after.leftover:
            key = "learn.fb.left_you" if after.pile(0) & after.leftover else "learn.fb.left_them"
            assert mask(said[key]["cards"]["cards"]) == after.leftover
        else:
            assert not any(k.startswith("learn.fb.left") for k in said)
        assert ("learn.why." + step.goal in said) == (not p["right"])


@pytest.mark.parametrize(("lesson", "n", "step", "data"),
                         [s for s in STEPS if isinstance(s[2], Question)],
                         ids=[f"{s[0]}-{s[1] + 1}" for s in STEPS if isinstance(s[2], Question)])
def test_a_question_against_the_engine(lesson: str, n: int, step: Question,
                                       data: dict[str, Any]) -> None:
    rules = find_variant(data["variant"])
    rnd = question_round(step, rules)
    assert [p.bit_count() for p in rnd.piles] == list(step.cards)
    assert mask(data["shown"]) & rnd.pile(0) == mask(data["shown"])
    scores, carry = score_round(rnd, step.carry_in)
    mine = scores[0]
    truth: object = {
        "card_points": mine.card_points, "points": mine.points,
        "majority_points": mine.majority + mine.carry,
        "majority": ("both" if mine.majority and scores[1].majority else "you" if mine.majority
                     else "them" if scores[1].majority else "nobody"),
    }[step.ask]
    assert [o["value"] for o in data["options"] if o["right"]] == [truth] == [step.answer]
    explained = next(o for o in data["options"] if o["right"])["lines"][0]
    if step.ask == "card_points":
        total = {**explained.get("numbers", {}), **explained.get("signed", {})}["total"]
        assert sum(p for _, p in explained["tally"]) == total == truth
        for card, points in explained["tally"]:
            assert rules.card_points[parse_card(card)] == points != 0
            assert rnd.pile(0) >> parse_card(card) & 1
    for wrong in (o for o in data["options"] if not o["right"]):
        said = wrong["lines"][0]
        assert "total" not in said.get("numbers", {}) and "signed" not in said  # not told
        if step.ask == "points":
            numbers = said["numbers"]
            assert numbers["cards"] + numbers["basras"] + numbers["majority"] == truth
    if step.ask == "points":
        numbers = explained["numbers"]
        assert numbers["cards"] + numbers["basras"] + numbers["majority"] == numbers["total"]
        assert numbers["total"] == truth
    if explained["key"] == "learn.q.explain.tie":
        assert carry == explained["numbers"]["next"] == step.carry_in + rules.majority_points


def test_check_finds_a_wrong_lesson() -> None:
    good = LESSONS[1]
    position = good.steps[0]
    assert isinstance(position, Position)
    wrong = Lesson("bad", "egyptian", (
        replace(position, answers=("5D",)),              # a play that is not the goal's
        replace(position, answers=("10S:7H",)),          # no legal play
        Question("card_points", "JS AH", (20, 32), (2, 3), 3),  # the engine says 2
    ))
    problems = check((wrong,))
    assert any("step 1" in p and "makes" in p for p in problems), problems
    assert any("step 2" in p and "not a legal play" in p for p in problems), problems
    assert any("step 3" in p and "the answer is 2" in p for p in problems), problems


def browser_keys() -> set[str]:
    """The learn page's and the hint's own words: every literal key the modules name."""
    found: set[str] = set()
    paths = [WEB / "js" / "pages" / "learn.js", WEB / "js" / "table" / "hint.js",
             *sorted((WEB / "js" / "learn").glob("*.js"))]
    for path in paths:
        text = path.read_text("utf-8")
        found |= set(re.findall(r"""["'`]((?:learn|hint)\.[a-z0-9_.\-]+)["'`]""", text))
    return found


def test_every_key_is_in_every_catalogue() -> None:
    keys = keys_used() | browser_keys()
    assert len(keys) > 60
    for lang in LANGS:
        words = catalogue(lang)
        missing = sorted(k for k in keys if k not in words)
        assert not missing, f"{lang}: {missing}"
        for k in keys:
            value = words[k]
            if isinstance(value, dict):
                assert "other" in value, (lang, k)
                if lang == "ar":
                    assert {"zero", "one", "two", "few", "many", "other"} <= set(value), k
    # The lessons' cards and numbers are parameters, never written in the words.
    en = catalogue("en")
    for k in keys:
        text = json.dumps(en[k], ensure_ascii=False)
        assert not re.search(r"[♣♦♥♠]", text), k
