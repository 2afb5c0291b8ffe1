"""Match records (RECORDS.md, basra-record/1): parse, write, build (basra.match.records),
replay and verify (basra.match.replay)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from basra.errors import RecordError, SeatingError, UnknownVariantError
from basra.game.cards import NAMES, parse_card
from basra.game.engine import Match, Play, legal_match_plays, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import commitment, seat_part, shuffled_deck
from basra.match.records import (
    FORMAT,
    Fairness,
    MatchRecord,
    PlayEntry,
    RecordBuilder,
    RoundRecord,
    dumps,
    parse_record,
    round_deck,
    seat_parts_problem,
    to_json,
)
from basra.match.replay import replay, replay_json, verify

DATA = Path(__file__).parents[1] / "data"
EXAMPLES = ("egyptian-2p", "serbian-4t", "lebanese-3p-partial")

SEATINGS = [
    ("egyptian", 2, False), ("egyptian", 4, True), ("arabic101", 2, False),
    ("lebanese", 2, False), ("lebanese", 3, False), ("lebanese", 4, False),
    ("lebanese", 4, True), ("serbian", 2, False), ("serbian", 4, True),
]


def server_seed(rng: random.Random) -> str:
    """A server seed drawn from a seeded generator (tests must be reproducible)."""
    return f"{rng.getrandbits(256):064x}"


def honest_client_seed(players: Sequence[str], seed: str, nonce: int,
                       rng: random.Random) -> str:
    """A client seed as FAIRNESS.md's "Seat parts" make it: a person's part is their own
    (here a random text), a bot's part is derived from the server seed."""
    return "|".join(seat_part(seed, nonce, s) if name.startswith("bot:") else f"c{rng.random()}"
                    for s, name in enumerate(players))


def random_match(variant: str, seats: int, teams: bool, seed: int, *, fair: bool = False,
                 rounds: int | None = None, players: Sequence[str] | None = None,
                 client_seed: Callable[[str, int], str] | None = None,
                 ) -> tuple[Match, MatchRecord]:
    """Play random legal plays until the match is decided (or ``rounds`` rounds are
    started), building a record alongside. With ``fair`` every deck comes from seeds, and
    the client seed from ``client_seed(server_seed, nonce)`` (by default an honest one)."""
    rng = random.Random(seed)
    rules = find_variant(variant)
    names = list(players) if players is not None else [f"p{s}" for s in range(seats)]
    builder = RecordBuilder(variant, names, teams)
    match = new_match(rules, seats, teams)
    while not match.over and (rounds is None or match.rounds_started < rounds):
        if fair:
            nonce = match.rounds_started + 1
            seed_of_round = server_seed(rng)
            client = (client_seed(seed_of_round, nonce) if client_seed is not None
                      else honest_client_seed(names, seed_of_round, nonce, rng))
            fairness = Fairness.from_seeds(seed_of_round, client, nonce)
            deck = fairness.deck()
            builder.start_round(deck if rng.random() < 0.5 else None, fairness)
        else:
            deck = tuple(rng.sample(range(52), 52))
            builder.start_round(deck)
        match = start_round(match, deck)
        while match.in_round:
            assert match.round is not None
            seat = match.round.turn
            move = rng.choice(legal_match_plays(match))
            builder.add_play(move, seat if rng.random() < 0.5 else None)
            match = play(match, move, seat)
    return match, builder.build()


def load(name: str) -> dict[str, object]:
    """An example record from tests/data as a JSON object."""
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS,
                         ids=[f"{v}-{n}{'-teams' if t else ''}" for v, n, t in SEATINGS])
def test_random_matches_replay_to_the_engines_scores(variant: str, seats: int,
                                                     teams: bool) -> None:
    for seed in range(4):
        match, record = random_match(variant, seats, teams, seed)
        text = dumps(record)
        assert parse_record(text) == record
        assert parse_record(dumps(record, compact=True)) == record
        result = replay(parse_record(text))
        assert result.results == match.results
        assert match.winner is not None
        assert result.winner == match.winner
        assert result.match.totals == match.totals
        assert result.match.sets == match.sets
        out = replay_json(result)
        assert [r["totals"] for r in out["rounds"]] == [
            list(r.totals) for r in match.results]
        assert out["winner"] == match.winner


def test_replay_json_is_the_records_md_object() -> None:
    match, record = random_match("egyptian", 2, False, 7)
    out = replay_json(replay(record))
    assert list(out) == ["variant", "rounds", "winner"]
    assert out["variant"] == "egyptian"
    for row, res in zip(out["rounds"], match.results, strict=True):
        assert row == {"cards": list(res.cards), "basras": list(res.basras),
                       "points": list(res.points), "carry": res.carry,
                       "totals": list(res.totals)}
        assert sum(row["cards"]) == 52
    json.dumps(out)  # plain JSON types only


def test_serbian_reports_set_winners_and_sets() -> None:
    match, record = random_match("serbian", 2, False, 3)
    out = replay_json(replay(record))
    assert list(out) == ["variant", "rounds", "sets", "winner"]
    assert out["sets"] == list(match.sets)
    assert max(match.sets) == 3
    rows = out["rounds"]
    enders = [r for r in rows if "set_winner" in r]
    assert len(enders) == sum(match.sets)
    previous = [0, 0]
    for row in rows:
        totals = row["totals"]
        assert totals == [p + q for p, q in zip(previous, row["points"], strict=True)]
        previous = [0, 0] if "set_winner" in row else totals
        if "set_winner" in row:
            assert max(totals) >= 101 and totals.index(max(totals)) == row["set_winner"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_records_replay_to_their_stored_results(name: str) -> None:
    record = parse_record((DATA / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((DATA / f"{name}.replay.json").read_text(encoding="utf-8"))
    assert replay_json(replay(record)) == expected
    assert dumps(record) == (DATA / f"{name}.json").read_text(encoding="utf-8")


def test_an_incomplete_last_round_leaves_the_winner_null() -> None:
    full, record = random_match("egyptian", 2, False, 11, rounds=2)
    last = record.rounds[-1]
    cut = replace(record, rounds=(*record.rounds[:-1], replace(last, plays=last.plays[:17])))
    result = replay(cut)
    assert result.winner is None
    assert len(result.results) == 1 == len(replay_json(result)["rounds"])
    assert result.match.in_round and result.match.round is not None
    assert result.match.round.played == 17
    assert result.results[0] == full.results[0]


def test_a_record_with_no_rounds_is_a_match_not_started() -> None:
    record = parse_record({"format": FORMAT, "variant": "arabic101", "players": ["a", "b"],
                           "rounds": []})
    assert record.teams is False
    assert replay_json(replay(record)) == {"variant": "arabic101", "rounds": [],
                                            "winner": None}


# --------------------------------------------------------------------------- parsing


def test_parsing_accepts_extra_fields_aliases_and_loose_card_notation() -> None:
    data = load("egyptian-2p")
    data["variant"] = "Egypt"
    data["started_at"] = "2026-11-29T20:00:00Z"
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    rounds[0]["note"] = "first"
    rounds[0]["plays"][0]["card"] = rounds[0]["plays"][0]["card"].lower()
    rounds[0]["plays"][0]["think_ms"] = 1200
    record = parse_record(data)
    assert record.variant == "egyptian"
    assert record == parse_record((DATA / "egyptian-2p.json").read_bytes())


def test_records_are_written_with_canonical_names_and_sorted_takes() -> None:
    ten, four, ace = parse_card("10D"), parse_card("4C"), parse_card("AD")
    entry = PlayEntry(ten, 1 << ace | 1 << four, 1)
    assert entry.to_json() == {"seat": 1, "card": "10D", "take": ["4C", "AD"]}
    assert PlayEntry(ten, 0).to_json() == {"card": "10D", "take": []}
    record = MatchRecord("egyptian", ("a", "b"), False,
                         (RoundRecord((entry,), tuple(range(52))),))
    out = to_json(record)
    assert out["format"] == FORMAT
    assert out["rounds"] == [{"deck": list(NAMES), "plays": [entry.to_json()]}]
    assert json.loads(dumps(record)) == out == json.loads(dumps(record, compact=True))


@pytest.mark.parametrize(("source", "message"), [
    ("{", "record: not valid JSON: Expecting property name enclosed in double quotes "
          "(line 1, column 2)"),
    (b"\xff\xfe", "record: not valid JSON: the text is not UTF-8"),
    ("[" * 100_000, "record: not valid JSON: nested too deeply"),
    ("[]", "record: expected a JSON object, got a list"),
    ('{"format": "basra-record/2"}',
     'record: format must be "basra-record/1", got "basra-record/2"'),
    ("{}", 'record: format must be "basra-record/1", got nothing'),
])
def test_text_that_is_not_a_record(source: str | bytes, message: str) -> None:
    with pytest.raises(RecordError) as err:
        parse_record(source)
    assert str(err.value) == message


def test_record_errors_keep_the_record_code() -> None:
    with pytest.raises(RecordError) as err:
        parse_record({"format": FORMAT, "variant": "nope", "players": [], "rounds": []})
    assert err.value.code == "record/invalid"
    assert str(err.value).startswith("record: unknown variant 'nope'")


# --------------------------------------------------------------------------- building


def test_the_builder_checks_its_input() -> None:
    with pytest.raises(SeatingError):
        RecordBuilder("arabic101", ["a", "b", "c"])
    with pytest.raises(UnknownVariantError):
        RecordBuilder("chess", ["a", "b"])
    builder = RecordBuilder(find_variant("serbian"), ["a", "b", "c", "d"], teams=True)
    with pytest.raises(RecordError, match="no round has been started"):
        builder.add_play(legal_plays_of_any_deck()[0])
    with pytest.raises(RecordError, match="no deck and no fairness data"):
        builder.start_round()
    assert builder.build() == MatchRecord("serbian", ("a", "b", "c", "d"), True, ())


def legal_plays_of_any_deck() -> list[Play]:
    """Some legal plays, to feed the builder."""
    match = start_round(new_match(find_variant("egyptian")), tuple(range(52)))
    return list(legal_match_plays(match))


def test_the_builder_can_go_on_after_build() -> None:
    builder = RecordBuilder("egyptian", ["a", "b"])
    builder.start_round(tuple(range(52)))
    first = builder.build()
    match = start_round(new_match(find_variant("egyptian")), tuple(range(52)))
    builder.add_play(legal_match_plays(match)[0], 1)
    assert first.rounds[0].plays == ()
    assert len(builder.build().rounds[0].plays) == 1


def test_fairness_from_seeds_computes_the_commitment() -> None:
    seed = "00" * 31 + "01"
    fair = Fairness.from_seeds(seed.upper(), "alice|bob", 1)
    assert fair.server_seed == seed
    assert fair.commitment == commitment(seed)
    assert fair.deck() == shuffled_deck(seed, "alice|bob", 1)
    assert NAMES[fair.deck()[0]] == "7H"


# --------------------------------------------------------------------------- verifying


def test_a_fair_record_verifies_round_by_round() -> None:
    _, record = random_match("lebanese", 4, True, 5, fair=True)
    outcome = verify(parse_record(dumps(record)))
    assert outcome.ok and outcome.failure is None
    assert outcome.lines == tuple(f"round {n}: fair" for n in range(1, len(record.rounds) + 1))


def test_rounds_without_fairness_are_reported_not_failed() -> None:
    _, fair = random_match("egyptian", 2, False, 6, fair=True, rounds=2)
    first = replace(fair.rounds[0], fairness=None, deck=round_deck(fair.rounds[0]))
    outcome = verify(replace(fair, rounds=(first, fair.rounds[1])))
    assert outcome.ok
    assert outcome.lines == ("round 1: no fairness data", "round 2: fair")


def test_a_record_without_fairness_cannot_be_verified() -> None:
    _, record = random_match("egyptian", 2, False, 6, rounds=1)
    outcome = verify(record)
    assert not outcome.ok
    assert outcome.failure == "record: no round carries fairness data"
    assert outcome.lines == ()


def fair_record(rounds: int = 3) -> MatchRecord:
    """A record whose every round gives both its deck and its fairness data."""
    _, record = random_match("egyptian", 2, False, 8, fair=True, rounds=rounds)
    return replace(record, rounds=tuple(
        replace(r, deck=round_deck(r)) for r in record.rounds))


def with_round(record: MatchRecord, index: int, rnd: RoundRecord) -> MatchRecord:
    """``record`` with its round ``index`` (0-based) replaced."""
    rounds = list(record.rounds)
    rounds[index] = rnd
    return replace(record, rounds=tuple(rounds))


def test_a_tampered_deck_fails_in_its_round() -> None:
    record = fair_record()
    second = record.rounds[1]
    assert second.deck is not None
    deck = list(second.deck)
    deck[5], deck[40] = deck[40], deck[5]
    tampered = with_round(record, 1, replace(second, deck=tuple(deck)))
    reason = (f"deck does not follow from the seeds (card 6 is {NAMES[deck[5]]}, "
              f"the seeds give {NAMES[deck[40]]})")
    outcome = verify(tampered)
    assert outcome.lines == ("round 1: fair",)
    assert outcome.failure == f"round 2: not fair: {reason}"
    with pytest.raises(RecordError) as err:
        replay(tampered)
    assert str(err.value) == f"round 2: {reason}"


def test_a_tampered_play_fails_in_its_round_and_play() -> None:
    record = fair_record()
    second = record.rounds[1]
    plays = list(second.plays)
    swapped = next(c for c in range(52) if c != plays[9].card)
    plays[9] = replace(plays[9], card=swapped)
    outcome = verify(with_round(record, 1, replace(second, deck=None, plays=tuple(plays))))
    assert outcome.lines == ("round 1: fair",)
    assert outcome.failure is not None
    assert outcome.failure.startswith("round 2, play 10: not fair: ")


def test_a_commitment_that_does_not_match_fails() -> None:
    record = fair_record(1)
    first = record.rounds[0]
    assert first.fairness is not None
    forged = replace(first.fairness, commitment=commitment("ab" * 32))
    tampered = with_round(record, 0, replace(first, fairness=forged))
    assert verify(tampered).failure == (
        "round 1: not fair: commitment does not match the server seed")
    with pytest.raises(RecordError, match=r"^round 1: commitment does not match the server "):
        replay(tampered)


def test_verify_requires_the_nonce_to_be_the_round_number() -> None:
    record = fair_record(2)
    second = record.rounds[1]
    assert second.fairness is not None
    fair = Fairness.from_seeds(second.fairness.server_seed, second.fairness.client_seed, 7)
    moved = with_round(record, 1, replace(second, deck=fair.deck(), fairness=fair))
    assert verify(moved).failure == "round 2: not fair: nonce is 7, but round 2 must use nonce 2"


def test_a_record_built_by_hand_is_checked_too() -> None:
    bare = MatchRecord("egyptian", ("a", "b"), False, (RoundRecord(),))
    with pytest.raises(RecordError, match=r"^round 1: no deck and no fairness data$"):
        replay(bare)
    short = MatchRecord("egyptian", ("a", "b"), False, (RoundRecord(deck=(1, 2, 3)),))
    with pytest.raises(RecordError, match=r"^round 1: deck has 3 cards, not 52 \(missing AC "):
        replay(short)


# --------------------------------------------------------------------------- seat parts


BOTS = ("amira", "bot:hard", "nour", "bot:easy")


def test_a_record_with_bots_whose_parts_are_derived_verifies() -> None:
    _, record = random_match("lebanese", 4, False, 12, fair=True, rounds=3, players=BOTS)
    outcome = verify(parse_record(dumps(record)))
    assert outcome.ok, outcome.failure
    assert outcome.lines == ("round 1: fair", "round 2: fair", "round 3: fair")
    for number, rnd in enumerate(record.rounds, 1):
        assert rnd.fairness is not None
        parts = rnd.fairness.client_seed.split("|")
        assert parts[1] == seat_part(rnd.fairness.server_seed, number, 1)
        assert parts[3] == seat_part(rnd.fairness.server_seed, number, 3)


def tampered_bot(seed: str, nonce: int) -> str:
    """A client seed whose bot part in round 2 is picked freely ('abc'), not derived."""
    bot = "abc" if nonce == 2 else seat_part(seed, nonce, 1)
    return f"amira-{nonce}|{bot}"


def test_a_bot_part_picked_freely_is_not_fair_but_replays() -> None:
    # Every deck follows from its seeds and every play is legal: only check 3 can tell.
    _, record = random_match("egyptian", 2, False, 13, fair=True, rounds=3,
                             players=("amira", "bot:hard"), client_seed=tampered_bot)
    record = replace(record, rounds=tuple(replace(r, deck=round_deck(r)) for r in record.rounds))
    second = record.rounds[1].fairness
    assert second is not None
    derived = seat_part(second.server_seed, 2, 1)
    outcome = verify(parse_record(dumps(record)))
    assert outcome.lines == ("round 1: fair",)
    assert outcome.failure == (
        f"round 2: not fair: seat 1 (bot:hard) has client seed part 'abc', but a bot's part "
        f"must be {derived} (derived from the server seed)")
    assert len(replay(record).match.results) == 3  # replay checks legality only


@pytest.mark.parametrize(("bot_part", "why"), [
    pytest.param(lambda seed, nonce: seat_part(seed, nonce + 1, 0), "another round's part",
                 id="other-round"),
    pytest.param(lambda seed, nonce: seat_part(seed, nonce, 1), "another seat's part",
                 id="other-seat"),
    pytest.param(lambda seed, nonce: seat_part(seed, nonce, 0).upper(), "upper case",
                 id="upper-case"),
    pytest.param(lambda seed, nonce: seat_part(seed, nonce, 0) + " ", "a trailing space",
                 id="trailing-space"),
    pytest.param(lambda seed, nonce: "", "empty", id="empty"),
])
def test_a_bot_part_must_be_exactly_the_derived_one(
        bot_part: Callable[[str, int], str], why: str) -> None:
    _, record = random_match("egyptian", 2, False, 14, fair=True, rounds=1,
                             players=("bot:random", "amira"),
                             client_seed=lambda seed, nonce: f"{bot_part(seed, nonce)}|mine")
    failure = verify(record).failure
    assert failure is not None, why
    assert failure.startswith("round 1: not fair: seat 0 (bot:random) has client seed part ")
    assert failure.endswith(" (derived from the server seed)")
    assert "\n" not in failure


def test_a_long_bot_part_is_cut_in_the_message() -> None:
    fair = Fairness.from_seeds("00" * 31 + "01", "me|" + "z" * 200, 1)
    problem = seat_parts_problem(("me", "bot:hard"), fair)
    assert problem is not None
    assert f"part '{'z' * 64}…', but" in problem
    evil = Fairness.from_seeds("00" * 31 + "01", "me|a\nb", 1)
    assert "part 'a\\nb', but" in (seat_parts_problem(("me", "bot:x"), evil) or "")


@pytest.mark.parametrize(("client", "count"), [
    ("alice|bob|carol", "3 parts"),
    ("alice", "1 part"),
    ("", "1 part"),
])
def test_the_client_seed_needs_one_part_per_seat(client: str, count: str) -> None:
    _, record = random_match("egyptian", 2, False, 15, fair=True, rounds=2,
                             client_seed=lambda seed, nonce: client)
    outcome = verify(record)
    assert outcome.lines == ()
    assert outcome.failure == (
        f"round 1: not fair: the client seed has {count}, but the match has 2 seats")
    replay(record)  # legal all the same


def test_a_later_round_with_the_wrong_number_of_parts() -> None:
    _, record = random_match("lebanese", 3, False, 16, fair=True, rounds=2,
                             players=("a", "b", "bot:medium"),
                             client_seed=lambda seed, nonce: (
                                 f"a|b|{seat_part(seed, 1, 2)}" if nonce == 1 else "a|b|c|d"))
    outcome = verify(record)
    assert outcome.lines == ("round 1: fair",)
    assert outcome.failure == (
        "round 2: not fair: the client seed has 4 parts, but the match has 3 seats")


@pytest.mark.parametrize("mine", ["", " ", "ünïcødé ✓", "x" * 200, "bot", "8dcc8d99a2ec07c3",
                                  "amira.0123456789abcdef", "{\"json\": 1}"])
def test_a_persons_part_is_free_text(mine: str) -> None:
    _, record = random_match("egyptian", 2, False, 17, fair=True, rounds=2,
                             players=("bot:medium", "amira"),
                             client_seed=lambda seed, nonce: f"{seat_part(seed, nonce, 0)}|{mine}")
    outcome = verify(parse_record(dumps(record)))
    assert outcome.ok, outcome.failure
    assert outcome.lines == ("round 1: fair", "round 2: fair")


def test_only_a_name_starting_with_bot_colon_is_a_bot() -> None:
    fair = Fairness.from_seeds("00" * 31 + "01", "x|y|z|w", 1)
    assert seat_parts_problem(("bot", "Bot:hard", "robot:x", "bots"), fair) is None
    assert seat_parts_problem(("a", "bot:", "c", "d"), fair) is not None


def test_rounds_with_a_deck_only_are_not_checked_for_parts() -> None:
    _, fair = random_match("egyptian", 2, False, 18, fair=True, rounds=2,
                           players=("amira", "bot:hard"))
    # Round 1 gives only its deck (with no fairness data its client seed is unknown).
    first = replace(fair.rounds[0], fairness=None, deck=round_deck(fair.rounds[0]))
    record = replace(fair, rounds=(first, fair.rounds[1]))
    outcome = verify(parse_record(dumps(record)))
    assert outcome.ok, outcome.failure
    assert outcome.lines == ("round 1: no fairness data", "round 2: fair")
    # A record whose every round gives a deck only is replayed as before and not verified.
    _, bare = random_match("egyptian", 2, False, 18, rounds=2, players=("amira", "bot:hard"))
    assert replay(bare).match.rounds_started == 2
    assert verify(bare).failure == "record: no round carries fairness data"


def test_the_parts_check_comes_after_the_commitment_and_the_deck() -> None:
    _, record = random_match("egyptian", 2, False, 19, fair=True, rounds=1,
                             players=("amira", "bot:hard"),
                             client_seed=lambda seed, nonce: "amira|abc")
    first = record.rounds[0]
    assert first.fairness is not None
    forged = replace(first.fairness, commitment=commitment("ab" * 32))
    assert verify(with_round(record, 0, replace(first, fairness=forged))).failure == (
        "round 1: not fair: commitment does not match the server seed")
    deck = list(round_deck(first))
    deck[0], deck[1] = deck[1], deck[0]
    failure = verify(with_round(record, 0, replace(first, deck=tuple(deck)))).failure
    assert failure is not None and "deck does not follow from the seeds" in failure
