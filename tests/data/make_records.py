"""Regenerate the example records in this folder: ``python tests/data/make_records.py``.

Each record is a match between random players (a seeded ``random.Random`` picks among the
legal plays), built with :class:`basra.match.records.RecordBuilder`; next to it goes the output
of ``basra replay --json`` for it (``*.replay.json``), which the tests compare against.
Each round's client seed is one part per seat (FAIRNESS.md, "Seat parts"): a person's part
is their name and ``-seed``, a bot's part (``bot:LEVEL``) the one derived from the round's
server seed, so the records pass ``basra verify``'s check 3.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from basra.game.engine import legal_match_plays, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import seat_part
from basra.match.records import Fairness, MatchRecord, RecordBuilder, dumps
from basra.match.replay import replay, replay_json

HERE = Path(__file__).parent


def seed_for(name: str, number: int) -> str:
    """A server seed that anyone can recompute from the file's name and the round."""
    return hashlib.sha256(f"{name}/{number}".encode()).hexdigest()


def client_seed_for(players: list[str], server_seed: str, number: int) -> str:
    """Round ``number``'s client seed: a part per seat, a bot's derived from the server seed."""
    return "|".join(
        seat_part(server_seed, number, seat) if name.startswith("bot:")
        else f"{name}-seed"
        for seat, name in enumerate(players))


def make(name: str, variant: str, players: list[str], teams: bool, *, deck: bool,
         fairness: bool, seats: bool, stop_after: int | None = None) -> None:
    """Play a random match and write ``name.json`` (and ``name.replay.json``).

    ``stop_after`` ends the record that many plays into its last round (a match in progress).
    """
    rng = random.Random(name)
    rules = find_variant(variant)
    builder = RecordBuilder(rules, players, teams)
    match = new_match(rules, len(players), teams)
    while not match.over:
        number = match.rounds_started + 1
        server_seed = seed_for(name, number)
        client_seed = client_seed_for(players, server_seed, number)
        fair = Fairness.from_seeds(server_seed, client_seed, number)
        cards = fair.deck()
        builder.start_round(cards if deck else None, fair if fairness else None)
        match = start_round(match, cards)
        stop = stop_after if stop_after is not None and number == 2 else None
        while match.in_round and stop != 0:
            assert match.round is not None
            seat = match.round.turn
            move = rng.choice(legal_match_plays(match))
            builder.add_play(move, seat if seats else None)
            match = play(match, move, seat)
            stop = None if stop is None else stop - 1
        if stop == 0:
            break
    record = builder.build()
    (HERE / f"{name}.json").write_text(dumps(record), encoding="utf-8")
    (HERE / f"{name}.replay.json").write_text(replay_text(record), encoding="utf-8")


def replay_text(record: MatchRecord) -> str:
    """``basra replay --json``'s object for ``record``, one round a line."""
    out = replay_json(replay(record))
    lines = ",\n".join("  " + json.dumps(r) for r in out["rounds"])
    tail = "".join(f", {json.dumps(k)}: {json.dumps(v)}" for k, v in out.items()
                   if k not in ("variant", "rounds"))
    return f'{{"variant": {json.dumps(out["variant"])}, "rounds": [\n{lines}\n]{tail}}}\n'


def main() -> None:
    """Write every example record."""
    make("egyptian-2p", "egyptian", ["amira", "bot:expert"], False,
         deck=True, fairness=True, seats=True)
    make("serbian-4t", "serbian", ["ana", "bojan", "vesna", "goran"], True,
         deck=True, fairness=False, seats=True)
    make("lebanese-3p-partial", "lebanese", ["rami", "nour", "bot:greedy"], False,
         deck=False, fairness=True, seats=False, stop_after=17)


if __name__ == "__main__":
    main()
