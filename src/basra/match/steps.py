"""A finished match step by step, every hand face up: what the replay page shows
(``GET /api/replays/ID``, ``POST /api/replays``; docs/PROTOCOL.md section 1.5).

The record is replayed as ``basra replay`` replays it (:func:`basra.match.replay.replay`: the same
checks, the same one-line :class:`~basra.errors.RecordError`), then walked once more through
a :class:`~basra.match.driver.MatchDriver`, and every round is given as its steps: the deal (step
0) and the table just after each play (step ``k`` after play ``k``): every seat's hand, the
floor, the cards left to deal, the piles' counts, the basras, whose turn, and on the last
step the leftover floor and the side it went to. Each round also carries its fairness proof
(FAIRNESS.md: the commitment, the seeds, the nonce and the seats' parts) with the verdict of
the verifier's checks (:func:`basra.match.records.fairness_problem` with the nonce, and check 3,
:func:`basra.match.records.seat_parts_problem`), and its scores (the engine's breakdown per side,
the same :class:`~basra.game.views.RoundSummary` a table's view gives). Nothing is hidden: a
replay is of a finished match (or a record the reader holds already).

>>> from basra.match.records import RecordBuilder, dumps, parse_record
>>> from basra.game.shuffle import shuffled_deck
>>> builder = RecordBuilder("egyptian", ["amira", "bot:expert"])
>>> builder.start_round(deck=shuffled_deck("00" * 32, "", 1))
>>> steps = replay_steps(parse_record(dumps(builder.build())))
>>> [len(r["steps"]) for r in steps["rounds"]], steps["rounds"][0]["steps"][0]["hands"][0]
([1], ['3D', 'AH', '3H', '10H'])
"""

from __future__ import annotations

from typing import Any

from basra.game.cards import NAMES, names_of
from basra.game.engine import Round
from basra.game.seating import Seating
from basra.game.views import summaries
from basra.match.driver import MatchDriver
from basra.match.records import (
    MatchRecord,
    RoundRecord,
    fairness_problem,
    round_deck,
    seat_parts_problem,
)
from basra.match.replay import replay

FORMAT = "basra-replay/1"


def step_json(rnd: Round, seating: Seating) -> dict[str, Any]:
    """The table as it stands in ``rnd`` (just dealt, or after its last play), face up."""
    log = rnd.log
    play = None if log is None else {"seat": log.seat, "card": NAMES[log.card],
                                     "take": names_of(log.take), "basra": log.basra}
    leftover = None
    if rnd.finished and rnd.leftover:
        side = rnd.last_taker if rnd.last_taker >= 0 else seating.side_of(rnd.dealer)
        leftover = {"side": side, "cards": names_of(rnd.leftover)}
    return {"play": play, "turn": None if rnd.finished else rnd.turn,
            "deal": rnd.deal_number, "hands": [names_of(h) for h in rnd.hands],
            "floor": names_of(rnd.floor), "stock_count": rnd.stock_left,
            "pile_counts": [p.bit_count() for p in rnd.piles], "basras": list(rnd.basras),
            "basra_points": list(rnd.bonus),
            "last_taker": rnd.last_taker if rnd.last_taker >= 0 else None,
            "leftover": leftover}


def fairness_json(number: int, rnd: RoundRecord, players: tuple[str, ...]) -> Any:
    """A round's fairness proof and the verifier's verdict on it (``None``: no data)."""
    fair = rnd.fairness
    if fair is None:
        return None
    problem = (fairness_problem(number, rnd, check_nonce_number=True)
               or seat_parts_problem(players, fair))
    return {"commitment": fair.commitment, "server_seed": fair.server_seed,
            "client_seed": fair.client_seed, "nonce": fair.nonce,
            "parts": fair.client_seed.split("|"), "fair": problem is None,
            "problem": problem}


def replay_steps(record: MatchRecord, table: str | None = None) -> dict[str, Any]:
    """basra-replay/1 of ``record`` (checked first as :func:`basra.match.replay.replay` checks
    it; raises its :class:`~basra.errors.RecordError`). ``table``: the match's id on the
    server, if it is one of its matches."""
    replayed = replay(record)
    seating = Seating(len(record.players), record.teams)
    driver = MatchDriver(record.rules, seating, record.players)
    rounds: list[dict[str, Any]] = []
    for number, rnd in enumerate(record.rounds, 1):
        before = driver.match
        driver.deal_deck(round_deck(rnd), rnd.fairness, keep_deck=rnd.deck is not None)
        dealt = driver.match.round
        assert dealt is not None
        steps = [step_json(dealt, seating)]
        for entry in rnd.plays:
            seat = entry.seat if entry.seat is not None else driver.to_play
            assert seat is not None  # replay() passed: every play is legal
            driver.apply(seat, entry.play)
            now = driver.match.round
            assert now is not None
            steps.append(step_json(now, seating))
        finished = driver.match.round is not None and driver.match.round.finished
        result = summaries(driver.match)[-1].to_json() if finished else None
        rounds.append({"number": number, "dealer": dealt.dealer,
                       "totals_before": list(before.totals), "carry_before": before.carry,
                       "fairness": fairness_json(number, rnd, record.players),
                       "steps": steps, "result": result})
    match = replayed.match
    return {"format": FORMAT, "table": table, "variant": record.rules.name,
            "seats": len(record.players), "teams": record.teams, "sides": seating.sides,
            "players": list(record.players), "target": match.target,
            "winner": match.winner, "resigned": record.resigned,
            "totals": list(match.totals), "sets": list(match.sets),
            "record": None if table is None else f"/api/tables/{table}/record",
            "rounds": rounds}


__all__ = ["FORMAT", "fairness_json", "replay_steps", "step_json"]
