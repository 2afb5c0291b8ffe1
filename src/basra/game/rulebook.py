"""The rules as data for clients: what ``GET /api/variants`` serves.

The browser knows no rule of its own: names, seatings, targets (a shorter match's too),
card points, power cards and their basra conditions (in words), plays per round, the match
lengths, bot levels and the fairness limits all come from here, made from the
:class:`~basra.game.rules.Rules` objects themselves.

>>> book = variants_json(["easy", "expert"])
>>> [v["name"] for v in book["variants"]]
['egyptian', 'arabic101', 'lebanese', 'serbian']
>>> book["variants"][0]["plays_per_round"], book["default"]
(48, 'egyptian')
"""

from __future__ import annotations

from collections.abc import Iterable

from basra.game.cards import NAMES, cards_of, format_cards
from basra.game.rules import DEFAULT_VARIANT, MATCH_LENGTHS, VARIANTS, PowerBasra, Rules
from basra.game.shuffle import MAX_CLIENT_SEED_BYTES, MAX_PART_BYTES, OWN_TEXT_BYTES

FORMAT = "basra-variants/1"


def power_condition(rule: PowerBasra) -> str:
    """When a power card's sweep is a basra, in words."""
    if rule.kind == "never":
        return "its sweep is never a basra"
    if rule.kind == "unless-single-same-rank":
        return (f"its sweep is a basra worth {rule.points} unless it takes a single card "
                "of its own rank")
    if rule.kind == "only-single-same-rank":
        return (f"a basra worth {rule.points} only when it takes a single card of its own "
                "rank")
    return (f"a basra worth {rule.points} when the floor it sweeps holds no face card and "
            f"adds up to {rule.limit} or less")


def basra_conditions(rules: Rules) -> list[str]:
    """Every way a play is a basra in this variant, in words (RULES.md 4 and 6)."""
    clear = f"clearing the floor with a numeral, Q or K is a basra worth {rules.basra_points}"
    if rules.basra_floor_limit is not None:
        clear += f" when the floor held at most {rules.basra_floor_limit} cards"
    lines = [clear]
    for cards, rule in _power_groups(rules):
        lines.append(f"{format_cards(cards)}: {power_condition(rule)}")
    if not rules.last_play_basra:
        lines.append("the round's last play is never a basra")
    return lines


def _power_groups(rules: Rules) -> list[tuple[int, PowerBasra]]:
    """Power cards grouped by their condition, in the order the rules give them."""
    groups: list[tuple[int, PowerBasra]] = []
    for card, rule in rules.power_basra:
        for i, (mask, same) in enumerate(groups):
            if same == rule:
                groups[i] = (mask | 1 << card, same)
                break
        else:
            groups.append((1 << card, rule))
    return groups


def short_matches() -> str:
    """Every variant's shorter match (RULES.md 6.5), in words, for help texts.

    >>> short_matches()
    'egyptian to 61, arabic101 to 51, lebanese to 51, serbian one set to 101'
    """
    return ", ".join(
        f"{r.name} {'one set ' if r.sets_to_win > 1 else ''}to {r.shortened().target}"
        for r in VARIANTS.values())


def rules_json(rules: Rules) -> dict[str, object]:
    """One variant as plain JSON data (card names as in RECORDS.md); ``short_target`` and
    ``short_sets_to_win`` are its shorter match's (RULES.md 6.5)."""
    short = rules.shortened()
    return {
        "name": rules.name,
        "description": rules.description,
        "aliases": list(rules.aliases),
        "seatings": [{"players": n, "teams": t} for n, t in sorted(rules.seatings)],
        "target": rules.target,
        "sets_to_win": rules.sets_to_win,
        "deciding_set_target": rules.deciding_set_target,
        "short_target": short.target,
        "short_sets_to_win": short.sets_to_win,
        "deal_size": rules.deal_size,
        "floor_size": rules.floor_size,
        "plays_per_round": rules.plays_per_round,
        "opening_forbidden": [NAMES[c] for c in cards_of(rules.opening_forbidden)],
        "power": [{"cards": [NAMES[c] for c in cards_of(mask)], "kind": rule.kind,
                   "points": rule.points, "limit": rule.limit,
                   "text": power_condition(rule)}
                  for mask, rule in _power_groups(rules)],
        "sum_sets": rules.sum_sets,
        "majority": {"kind": rules.majority, "points": rules.majority_points},
        "card_points": [{"label": line.label, "cards": [NAMES[c] for c in cards_of(line.cards)],
                         "points": line.points} for line in rules.scoring_cards],
        "basra_points": rules.basra_points,
        "basra_floor_limit": rules.basra_floor_limit,
        "last_play_basra": rules.last_play_basra,
        "basra_conditions": basra_conditions(rules),
    }


def variants_json(bot_levels: Iterable[str]) -> dict[str, object]:
    """Every variant, the bot levels (the bots are above the game: the caller names them) and
    the limits a client must keep to."""
    return {
        "format": FORMAT,
        "default": DEFAULT_VARIANT,
        "lengths": list(MATCH_LENGTHS),
        "variants": [rules_json(r) for r in VARIANTS.values()],
        "bot_levels": list(bot_levels),
        "limits": {"max_part_bytes": MAX_PART_BYTES, "own_text_bytes": OWN_TEXT_BYTES,
                   "max_client_seed_bytes": MAX_CLIENT_SEED_BYTES},
    }


__all__ = ["FORMAT", "basra_conditions", "power_condition", "rules_json", "short_matches",
           "variants_json"]
