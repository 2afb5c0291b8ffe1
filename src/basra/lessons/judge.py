"""What every answer of a lesson's step does, as the engine says, and its feedback in words.

A :class:`~basra.lessons.model.Position` becomes a real round (``compose_round``: you,
seat 0, to play; the opponent holds a card, so no deal follows), and every legal play
(``legal_plays``) is applied (``apply_play``): what it takes, the basra points the engine
gave it, the card points of the capture (``score_round`` of a pile holding the capture)
and, at the round's last play, where the floor left over went. A
:class:`~basra.lessons.model.Question` becomes a finished round scored by ``score_round``.
The feedback is a list of :class:`Line`: an i18n key and its parameters (cards, numbers,
words), so the browser says it in the reader's language.

Nothing here decides a rule: why a sweep is no basra is read from the variant's data
(:class:`~basra.game.rules.PowerBasra`), and :func:`check` proves each reason given agrees
with the engine's points.

>>> from basra.lessons.model import Position
>>> from basra.game.rules import find_variant
>>> out = outcomes(Position("7D KC", "KS", "basra", ("KC:KS",)), find_variant("egyptian"))
>>> [(str(o.play), o.basra) for o in out]
[('KC:KS', 10), ('7D:KS', 0)]
>>> lines(out[1], Position("7D KC", "KS", "basra", ()), find_variant("egyptian"))[1].key
'learn.fb.no_basra.face'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from basra.game.captures import sum_sets
from basra.game.cards import (
    FACES,
    FULL_DECK,
    NAMES,
    RANK,
    RANK_MASK,
    VALUES,
    Card,
    CardSet,
    cards_of,
    parse_card,
)
from basra.game.engine import (
    Play,
    Round,
    SideScore,
    apply_play,
    basra_points,
    compose_round,
    legal_plays,
    score_round,
)
from basra.game.rules import Rules
from basra.lessons.model import Goal, Position, Question


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence of feedback: an i18n key and what fills it. ``cards`` are lists of card
    names (shown as cards, each isolated left to right), ``numbers`` plain numbers (``count``
    among them chooses a plural), ``signed`` numbers shown with their sign, ``words`` other
    i18n keys, ``tally`` cards each with its points (``J♠ 1 + 10♦ 3``), ``sums`` sums in
    digits (``7 + 3 = 10``)."""

    key: str
    cards: dict[str, list[str]] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)
    signed: dict[str, int] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    tally: list[tuple[str, int]] = field(default_factory=list)
    sums: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"key": self.key}
        for name in ("cards", "numbers", "signed", "words"):
            value = getattr(self, name)
            if value:
                out[name] = value
        if self.tally:
            out["tally"] = [[card, points] for card, points in self.tally]
        if self.sums:
            out["sums"] = self.sums
        return out

    def keys(self) -> list[str]:
        """Every i18n key the line uses."""
        return [self.key, *self.words.values()]


def cards(text: str) -> list[Card]:
    """Cards from space-separated notation, in the order written."""
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> CardSet:
    out = 0
    for c in cards(text):
        out |= 1 << c
    return out


# ---------------------------------------------------------------------- positions


YOU, THEM = 0, 1
"""Your side (seat 0) and your opponent's (seat 1)."""


def position_round(pos: Position, rules: Rules) -> Round:
    """The position as a round of two players, you (seat 0) to play, the stock empty. The
    opponent holds a card no step shows (none at the round's last play, where you deal and
    play last); the cards of no part lie in the piles, which only a round's end counts."""
    hand, floor = mask(pos.hand), mask(pos.floor)
    if hand & floor:
        raise ValueError(f"position {pos.hand} / {pos.floor}: a card is in two places")
    free = [c for c in range(52) if not (hand | floor) >> c & 1]
    other = 0 if pos.last else 1 << free[-1]
    piles = [0, FULL_DECK & ~(hand | floor | other)]
    taker = {"you": YOU, "them": THEM, "none": -1}[pos.taker]
    played = rules.plays_per_round - hand.bit_count() - other.bit_count()
    return compose_round(rules, 2, False, 0 if pos.last else 1, hands=[hand, other],
                         floor=floor, stock=[], piles=piles, basras=[0, 0], bonus=[0, 0],
                         turn=0, last_taker=taker, played=played)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one legal play does, as the engine says."""

    play: Play
    floor: CardSet
    """The floor before the play."""
    basra: int
    """The basra points the engine gave the play."""
    points: int
    """Card points of the capture (the played card and its take; 0 for a card laid)."""
    scoring: CardSet
    """The capture's cards that are worth points."""
    leftover: CardSet
    """At the round's last play: the floor given to the last capturer."""
    receiver: int
    """Whose side got the leftover floor (``YOU``, ``THEM``; -1 when none was left)."""
    last: bool

    @property
    def cleared(self) -> bool:
        return bool(self.play.take) and self.play.take == self.floor

    @property
    def taken(self) -> int:
        """How many floor cards the play takes."""
        return self.play.take.bit_count()

    @property
    def score(self) -> int:
        return self.basra + self.points


def capture_score(rules: Rules, pile: CardSet) -> SideScore:
    """The engine's score of a pile holding ``pile`` alone (card points and scoring
    cards; no majority can be won with fewer than 27 cards, and a capture has fewer)."""
    rnd = compose_round(rules, 2, False, 0, hands=[0, 0], floor=0, stock=[],
                        piles=[pile, FULL_DECK & ~pile], basras=[0, 0], bonus=[0, 0],
                        turn=0, last_taker=0, played=rules.plays_per_round)
    return score_round(rnd, 0)[0][0]


def outcomes(pos: Position, rules: Rules) -> list[Outcome]:
    """Every legal play of the position, applied by the engine."""
    rnd = position_round(pos, rules)
    out = []
    for play in legal_plays(rnd):
        after = apply_play(rnd, play)
        assert after.log is not None
        points, scoring = 0, 0
        if play.take:
            score = capture_score(rules, play.take | 1 << play.card)
            points, scoring = score.card_points, score.scoring_cards
        receiver = -1
        if after.finished and after.leftover:
            receiver = next(s for s in (YOU, THEM) if after.pile(s) & after.leftover)
        out.append(Outcome(play, rnd.floor, after.log.basra, points, scoring, after.leftover,
                           receiver, after.finished))
    return out


def right_plays(goal: Goal, found: list[Outcome]) -> list[Play]:
    """The plays the engine's outcomes make right for ``goal``."""
    def best(value: list[int]) -> list[Play]:
        top = max(value)
        return [o.play for o, v in zip(found, value, strict=True) if v == top]

    takers = [o for o in found if o.play.take]
    if goal == "any":
        return [o.play for o in found]
    if goal == "take":
        return [o.play for o in takers]
    if goal == "clear":
        return [o.play for o in found if o.cleared]
    if goal == "basra":
        return best([o.basra for o in found]) if any(o.basra for o in found) else []
    if goal == "most-cards":
        return best([o.taken for o in found]) if takers else []
    return best([o.score for o in found]) if takers else []


def in_order(mask_: CardSet, order: list[Card]) -> list[str]:
    """A set's cards in the order the position lists them (then canonical order)."""
    ranked = {c: i for i, c in enumerate(order)}
    return [NAMES[c] for c in sorted(cards_of(mask_), key=lambda c: (ranked.get(c, 99), c))]


def sum_parts(card: Card, rest: CardSet) -> list[CardSet]:
    """``rest`` (a take without its matches) split into the sum sets it is made of: one
    set, or (``max-cards``) several disjoint ones."""
    value = VALUES[card]
    options = sum_sets(rest, value)

    def cover(left: CardSet) -> list[CardSet] | None:
        if not left:
            return []
        low = left & -left
        for s in options:
            if s & low and s & left == s:
                more = cover(left & ~s)
                if more is not None:
                    return [s, *more]
        return None

    found = cover(rest)
    if found is None:
        raise ValueError(f"{NAMES[card]} cannot take {in_order(rest, [])} as sums")
    return found


def _sum_text(part: CardSet, value: int, order: list[Card]) -> str:
    values = [str(VALUES[parse_card(n)]) for n in in_order(part, order)]
    return " + ".join(values) + f" = {value}"


def take_line(o: Outcome, order: list[Card], rules: Rules) -> Line:
    """What the play takes, and why it takes that (or nothing)."""
    card, take = o.play
    name = {"card": [NAMES[card]]}
    if not take:
        if not o.floor:
            return Line("learn.fb.lay_empty", name)
        if VALUES[card]:
            return Line("learn.fb.lay", name, {"value": VALUES[card]})
        return Line("learn.fb.lay_face", name)
    taken = {**name, "cards": in_order(take, order)}
    if rules.is_power(card):
        return Line("learn.fb.sweep", taken)
    if not VALUES[card]:
        return Line("learn.fb.match_face", taken)
    matches = take & RANK_MASK[RANK[card]]
    rest = take & ~matches
    if not rest:
        return Line("learn.fb.match", taken)
    sums = [_sum_text(p, VALUES[card], order) for p in sum_parts(card, rest)]
    if not matches:
        return Line("learn.fb.sum", taken, sums=sums)
    return Line("learn.fb.match_sum", {**name, "matches": in_order(matches, order),
                                       "cards": in_order(rest, order)}, sums=sums)


def no_basra_reason(rules: Rules, card: Card, take: CardSet, floor: CardSet,
                    last: bool) -> Line:
    """Why a play that clears the floor is no basra, read from the variant's data (the
    engine's :func:`~basra.game.engine.basra_points` said 0; :func:`check` proves the two
    agree)."""
    name = {"card": [NAMES[card]]}
    if last and not rules.last_play_basra:
        return Line("learn.fb.no_basra.last")
    power = rules.power_basra_of(card) if rules.is_power(card) else None
    if power is None:
        limit = rules.basra_floor_limit
        assert limit is not None and floor.bit_count() > limit, "a numeral's clear is a basra"
        return Line("learn.fb.no_basra.big", numbers={"count": floor.bit_count(),
                                                      "limit": limit})
    if power.kind == "never":
        return Line("learn.fb.no_basra.never", name)
    if power.kind == "unless-single-same-rank":
        return Line("learn.fb.no_basra.single", name)
    if power.kind == "only-single-same-rank":
        return Line("learn.fb.no_basra.not_single", name)
    faces = take & FACES
    if faces:
        return Line("learn.fb.no_basra.face", {**name, "face": [NAMES[cards_of(faces)[0]]]})
    total = sum(VALUES[c] for c in cards_of(take))
    return Line("learn.fb.no_basra.over", name, {"total": total, "limit": power.limit})


def lines(o: Outcome, pos: Position, rules: Rules, right: bool | None = None) -> list[Line]:
    """The feedback of one play: what it takes, a basra or why not, the card points, where
    the floor went at the round's end, and (wrong) why another play is wanted."""
    order = cards(pos.floor)
    out = [take_line(o, order, rules)]
    if o.cleared:
        if o.basra:
            out.append(Line("learn.fb.basra", numbers={"points": o.basra}))
        else:
            out.append(no_basra_reason(rules, *o.play, o.floor, o.last))
    if o.points or o.scoring:
        out.append(Line("learn.fb.points", {"cards": in_order(o.scoring, order)},
                        signed={"points": o.points}))
    if o.leftover:
        key = "learn.fb.left_you" if o.receiver == YOU else "learn.fb.left_them"
        out.append(Line(key, {"cards": in_order(o.leftover, [*order, o.play.card])}))
    if right is False:
        out.append(Line(f"learn.why.{pos.goal}"))
    return out


def context(pos: Position) -> list[Line]:
    """What the position says beside the cards: the round's last play, the last capturer."""
    out = []
    if pos.last:
        out.append(Line("learn.ctx.last"))
    if pos.taker != "none":
        out.append(Line(f"learn.ctx.taker_{pos.taker}"))
    return out


# ---------------------------------------------------------------------- questions


def question_round(q: Question, rules: Rules) -> Round:
    """The question's round, finished: your pile holds the shown cards and cards worth no
    points up to your count; your opponent's every other card."""
    shown = mask(q.shown)
    if sum(q.cards) != 52 or shown.bit_count() > q.cards[YOU]:
        raise ValueError(f"question {q.ask}: piles of {q.cards} do not hold the deck")
    mine = shown
    for c in range(52):
        if mine.bit_count() == q.cards[YOU]:
            break
        if not mine >> c & 1 and not rules.card_points[c]:
            mine |= 1 << c
    piles = [mine, FULL_DECK & ~mine]
    return compose_round(rules, 2, False, 0, hands=[0, 0], floor=0, stock=[], piles=piles,
                         basras=list(q.basras),
                         bonus=[n * rules.basra_points for n in q.basras], turn=0,
                         last_taker=0, played=rules.plays_per_round)


def question_scores(q: Question, rules: Rules) -> tuple[tuple[SideScore, ...], int]:
    return score_round(question_round(q, rules), q.carry_in)


def question_truth(q: Question, rules: Rules) -> int | str:
    """The answer the engine's scoring gives."""
    scores, _ = question_scores(q, rules)
    mine = scores[YOU]
    if q.ask == "card_points":
        return mine.card_points
    if q.ask == "points":
        return mine.points
    if q.ask == "majority_points":
        return mine.majority + mine.carry
    won = [bool(s.majority) for s in scores]
    return "both" if all(won) else "you" if won[YOU] else "them" if won[THEM] else "nobody"


def question_facts(q: Question) -> list[Line]:
    out = [Line("learn.q.you", numbers={"count": q.cards[YOU]}),
           Line("learn.q.them", numbers={"count": q.cards[THEM]})]
    if q.basras[YOU]:
        out.append(Line("learn.q.basras", numbers={"count": q.basras[YOU]}))
    if q.carry_in:
        out.append(Line("learn.q.carry_in", numbers={"count": q.carry_in}))
    return out


def question_explained(q: Question, rules: Rules) -> list[Line]:
    """How the engine's scoring reaches the answer, in words."""
    scores, carry_out = question_scores(q, rules)
    mine = scores[YOU]
    if q.ask == "card_points":
        tally = [(name, rules.card_points[parse_card(name)])
                 for name in in_order(mine.scoring_cards, cards(q.shown))]
        total = {"total": mine.card_points}
        if mine.card_points < 0:
            return [Line("learn.q.explain.card_points", tally=tally, signed=total)]
        return [Line("learn.q.explain.card_points", tally=tally, numbers=total)]
    if q.ask == "points":
        return [Line("learn.q.explain.points", numbers={
            "cards": mine.card_points, "basras": mine.basra_points,
            "majority": mine.majority + mine.carry, "total": mine.points})]
    if q.ask == "majority_points" and mine.carry:
        return [Line("learn.q.explain.carry", numbers={
            "points": mine.majority, "carry": mine.carry, "total": mine.majority + mine.carry})]
    winners = [s for s in (YOU, THEM) if scores[s].majority]
    if not winners:
        return [Line("learn.q.explain.tie", numbers={
            "points": rules.majority_points, "next": carry_out})]
    side = winners[0]
    who = "learn.side.you" if side == YOU else "learn.side.them"
    key = "learn.q.explain.most" if rules.majority == "most-cards" else "learn.q.explain.over"
    return [Line(key, numbers={"count": scores[side].cards, "points": scores[side].majority},
                 words={"who": who})]


# ---------------------------------------------------------------------- the proof


def check_position(pos: Position, rules: Rules) -> list[str]:
    """Problems with a position: an answer that is no legal play, answers that are not the
    ones the engine makes right for the goal, a reason for no basra the engine does not
    agree with, a feedback line that does not say what the play did."""
    problems = []
    found = outcomes(pos, rules)
    legal = {o.play for o in found}
    answers = []
    for text in pos.answers:
        play = Play.parse(text)
        answers.append(play)
        if play not in legal:
            problems.append(f"{text} is not a legal play on {pos.floor!r}")
    right = set(right_plays(pos.goal, found))
    if set(answers) != right:
        problems.append(f"the goal {pos.goal} makes {sorted(map(str, right))} right, "
                        f"not {sorted(pos.answers)}")
    last = pos.last
    for o in found:
        card, take = o.play
        engine = basra_points(rules, card, take, o.floor, last)
        if engine != o.basra:
            problems.append(f"{o.play}: basra {o.basra} applied, {engine} by basra_points")
        said = lines(o, pos, rules, o.play in right)
        keys = [line.key for line in said]
        if o.cleared and not o.basra and not any(".no_basra." in k for k in keys):
            problems.append(f"{o.play} clears the floor with no basra and says no reason")
        if o.basra and "learn.fb.basra" not in keys:
            problems.append(f"{o.play} scores a basra and does not say so")
        if take and said[0].cards.get("cards") is not None:
            named = said[0].cards["cards"] + said[0].cards.get("matches", [])
            if sorted(named) != sorted(NAMES[c] for c in cards_of(take)):
                problems.append(f"{o.play}: the feedback names {named} as taken")
        problems += _check_reason(rules, o, said)
    return problems


def _check_reason(rules: Rules, o: Outcome, said: list[Line]) -> list[str]:
    """A reason for no basra holds: the play clears the floor, the engine scores no basra,
    and what the reason names is so (a face card on the floor, the total over the limit,
    a floor of more cards than the limit, the round's last play)."""
    card, take = o.play
    problems = []
    for line in said:
        if ".no_basra." not in line.key:
            continue
        if not o.cleared or o.basra:
            problems.append(f"{o.play}: says {line.key} but the engine scores {o.basra}")
        kind = line.key.rpartition(".")[2]
        if kind == "face" and not take & FACES & mask(" ".join(line.cards["face"])):
            problems.append(f"{o.play}: names a face card the floor does not hold")
        if kind == "over" and line.numbers["total"] != sum(VALUES[c] for c in cards_of(take)):
            problems.append(f"{o.play}: the floor's total is wrong")
        if kind == "big" and line.numbers["count"] != o.floor.bit_count():
            problems.append(f"{o.play}: the floor's count is wrong")
        if kind == "last" and not o.last:
            problems.append(f"{o.play}: not the round's last play")
        # The same capture before the round's last play would be a basra: the last play
        # is the reason that counts.
        if kind == "last" and basra_points(rules, card, take, o.floor, False) == 0:
            problems.append(f"{o.play}: no basra even before the last play")
    return problems


def question_why(q: Question, rules: Rules) -> list[Line]:
    """What a wrong answer is told: the parts to add up (not their total), or the rule of
    the majority in this variant (from its data: the kind and the points)."""
    scores, _ = question_scores(q, rules)
    mine = scores[YOU]
    if q.ask == "card_points":
        tally = [(name, rules.card_points[parse_card(name)])
                 for name in in_order(mine.scoring_cards, cards(q.shown))]
        return [Line("learn.q.why.card_points", tally=tally)]
    if q.ask == "points":
        return [Line("learn.q.why.points", numbers={
            "cards": mine.card_points, "basras": mine.basra_points,
            "majority": mine.majority + mine.carry})]
    key = "learn.q.why.most" if rules.majority == "most-cards" else "learn.q.why.over"
    return [Line(key, numbers={"points": rules.majority_points})]


def check_question(q: Question, rules: Rules) -> list[str]:
    """Problems with a question: not exactly one option the engine's scoring makes right,
    or a written answer that is not it."""
    truth = question_truth(q, rules)
    problems = []
    if q.answer != truth:
        problems.append(f"{q.ask}: the answer is {truth!r} by the engine, not {q.answer!r}")
    if list(q.options).count(truth) != 1:
        problems.append(f"{q.ask}: the options {q.options} hold {truth!r} "
                        f"{list(q.options).count(truth)} times")
    return problems
