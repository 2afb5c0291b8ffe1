"""The words of ``basra play``'s help: a variant's capture, basra, scoring and winning rules
in a few lines made from its :class:`~basra.game.rules.Rules` (so every variant is told from its
data, none by name), the commands the person can type, and how the client seed is made.
"""

from __future__ import annotations

import textwrap

from basra.game.cards import JACKS, NAMES, CardSet, cards_of
from basra.game.rules import PowerBasra, Rules

HELP_WIDTH = 92
"""Help lines are wrapped to this width (the screen is at least 80 columns, mostly)."""


def _power_subject(cards: CardSet) -> str:
    names = ["J"] * (cards & JACKS == JACKS) + [NAMES[c] for c in cards_of(cards & ~JACKS)]
    return f"A {' or '.join(names)} sweep"


def _power_basra_line(subject: str, rule: PowerBasra) -> str:
    if rule.kind == "never":
        return f"{subject} is never a basra"
    if rule.kind == "unless-single-same-rank":
        return f"{subject} is a basra ({rule.points}) unless it takes a lone card of its rank"
    if rule.kind == "only-single-same-rank":
        return f"{subject} is a basra ({rule.points}) only when it takes a lone card of its rank"
    return (f"{subject} is a basra ({rule.points}) only if the floor had no J, Q or K "
            f"and added up to {rule.limit} or less")


def rules_help(rules: Rules) -> list[str]:
    """The variant's capture, basra and scoring rules in a few lines, made from its data."""
    power = " and ".join(
        ["every J"] * (rules.power_cards & JACKS == JACKS)
        + [NAMES[c] for c in cards_of(rules.power_cards & ~JACKS)]
    )
    if rules.sum_sets == "one-set":
        sums = "plus ONE set of numerals adding up to its value (you choose which)."
    else:
        sums = ("plus sets of numerals adding up to its value, taking as many cards as "
                "possible (you choose among equal best).")
    lines = [
        f"{rules.name}: {rules.description}",
        f"Capture: {power} {'take' if ' and ' in power else 'takes'} the whole floor "
        "(laid down on an empty floor).",
        "  Q or K takes every floor card of its rank.",
        "  A..10 takes every floor card of its rank, " + sums,
        "  A card that can take must take; a card that takes nothing stays on the floor.",
    ]
    basra = f"Basra: clearing the floor with a numeral, Q or K scores {rules.basra_points}"
    if rules.basra_floor_limit is not None:
        basra += f", but only when the floor held at most {rules.basra_floor_limit} cards"
    if not rules.last_play_basra:
        basra += "; the round's last play is never a basra"
    lines.append(basra + ".")
    groups: list[tuple[PowerBasra, CardSet]] = []
    for card, rule in rules.power_basra:
        for i, (known, mask) in enumerate(groups):
            if known == rule:
                groups[i] = (known, mask | 1 << card)
                break
        else:
            groups.append((rule, 1 << card))
    lines.extend("  " + _power_basra_line(_power_subject(mask), rule) + "."
                 for rule, mask in groups)
    points = ", ".join(f"{line.label} {line.points}" for line in rules.scoring_cards)
    if rules.majority == "27-of-52":
        majority = (f"27 or more cards win {rules.majority_points}; at 26-26 the "
                    f"{rules.majority_points} is carried to the next round's majority.")
    else:
        majority = (f"the most cards win {rules.majority_points} "
                    "(every side tied for the most gets them).")
    lines.append(f"Scoring: {points}; a basra {rules.basra_points}.")
    lines.append(f"  Majority: {majority}")
    if rules.sets_to_win > 1:
        extra = (f" (the deciding set to {rules.deciding_set_target})"
                 if rules.deciding_set_target else "")
        lines.append(f"Winning: a set goes to the first side to {rules.target}{extra}; "
                     f"the match to the first side to win {rules.sets_to_win} sets.")
    else:
        lines.append(f"Winning: the first side to {rules.target} wins (a tie at the top plays "
                     "another round).")
    return [part for line in lines
            for part in textwrap.wrap(line, HELP_WIDTH, subsequent_indent="  ")]


COMMANDS_HELP = [
    "Commands: a number from your hand list, or a card name (5H, 10d, T♦, qs) to play it;",
    "  5H:4C+AD plays a card with a given take; when a card has several takes you choose one.",
    "  hint: the medium bot's suggestion · plays: this round's plays so far · table: show the",
    "  table again · help: this text · quit: stop (the record so far is saved).",
]

PARTS_EXPLAINED = ("The client seed is one part per seat: yours is your text plus fresh "
                   "randomness, chosen after you see the commitment; each bot's part is derived "
                   "from the server seed, so the server cannot pick it.")


__all__ = ["COMMANDS_HELP", "HELP_WIDTH", "PARTS_EXPLAINED", "rules_help"]
