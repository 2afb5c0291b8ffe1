"""The match driver (basra.match.driver): its events and record, checking and applying plays,
fair seeding, and the one way a match is played: the same match through the terminal
(``basra play``), the arena and the driver itself gives the same record, and replaying that
record gives the same results.

:func:`reference_match` builds a match's record by stepping a driver the way the server
does (commit, deal, then check and apply each play); a test of another way of playing can
compare its record against it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from basra.arena import games as arena
from basra.bots import make_bot
from basra.errors import IllegalPlayError
from basra.game.cards import NAMES, names_of, parse_card
from basra.game.engine import Match, Play, legal_match_plays
from basra.game.engine import play as engine_play
from basra.game.rules import Rules, find_variant
from basra.game.seating import Seating
from basra.game.shuffle import commitment, seat_part, shuffled_deck
from basra.game.views import view
from basra.match import driver as driver_module
from basra.match import driver as ev  # the driver's events: ev.Committed, ev.Dealt, ...
from basra.match.driver import MatchDriver, Player, RoundSource
from basra.match.records import MatchRecord, parse_record, to_json
from basra.match.replay import replay, replay_json, verify
from basra.terminal.command import build_parser
from basra.terminal.seeds import seeded_part, seeded_server_seed
from basra.terminal.session import Session

SEED_1 = "00" * 31 + "01"
SEED_F = "ff" * 32
EGYPTIAN = find_variant("egyptian")


def reference_match(rules: Rules, seating: Seating, names: Sequence[str],
                    players: Sequence[Player], seeds: RoundSource, *,
                    keep_decks: bool = False) -> MatchRecord:
    """The record of a whole match played by ``players`` (one a seat, fresh: bots keep
    state), each round committed to ``seeds(number)``'s server seed and dealt from its parts,
    by stepping a :class:`MatchDriver` as the server does: ``check`` a play, then ``apply``
    what it returned. ``names`` are the record's players."""
    driver = MatchDriver(rules, seating, names)
    driver.keep_decks = keep_decks
    while not driver.match.over:
        assert driver.match.rounds_started < 200, "the match does not end"
        server_seed, parts = seeds(driver.next_round)
        driver.commit(server_seed)
        driver.deal(parts)
        while (seat := driver.to_play) is not None:
            move = players[seat].choose(driver.view(seat))
            driver.apply(seat, move, driver.check(seat, move))
    return driver.record.build()


def derived_seeds(label: str) -> RoundSource:
    """Server seeds made from ``label`` and the round; every part derived."""

    def seeds(number: int) -> tuple[str, Sequence[str | None]]:
        return f"{label}{number:02x}".rjust(64, "0")[-64:], ()

    return seeds


def random_bots(seats: int, seed: int = 0) -> list[Player]:
    return [make_bot("random", seed=seed * 10 + s) for s in range(seats)]


def played_match(seats: int = 2, teams: bool = False) -> tuple[MatchDriver, list[ev.Event]]:
    """A whole egyptian match between random bots, with the events it told."""
    events: list[ev.Event] = []
    seating = Seating.choose(EGYPTIAN, seats, teams)
    d = MatchDriver(EGYPTIAN, seating, ["bot:random"] * seats, events.append)
    bots = random_bots(seats)
    while not d.match.over:
        d.commit(derived_seeds("a1")(d.next_round)[0])
        d.deal()
        d.play_round(bots)
    return d, events


# --------------------------------------------------------------------------- a whole match


@pytest.mark.parametrize(("seats", "teams"), [(2, False), (4, True)])
def test_a_whole_match_tells_its_events_and_keeps_its_record(seats: int, teams: bool) -> None:
    d, events = played_match(seats, teams)
    record = d.record.build()
    rounds = len(record.rounds)
    assert rounds == d.match.rounds_started >= 2
    assert d.match.winner is not None and d.to_play is None
    plays = EGYPTIAN.plays_per_round
    # Per round: the commitment, the deal, every play, the round's end; then the winner.
    kinds = [type(e) for e in events]
    one_round = [ev.Committed, ev.Dealt, *[ev.Played] * plays, ev.RoundOver]
    assert kinds == one_round * rounds + [ev.MatchOver]
    for number, rnd in enumerate(record.rounds, 1):
        at = (number - 1) * len(one_round)
        committed, dealt = events[at], events[at + 1]
        assert isinstance(committed, ev.Committed) and isinstance(dealt, ev.Dealt)
        assert committed.seeds.number == dealt.number == number
        assert dealt.seeds is not None and dealt.seeds.fairness == rnd.fairness
        assert committed.seeds.commitment == commitment(committed.seeds.server_seed)
        assert committed.seeds.client_seed is None  # made only at the deal
        assert d.rounds[number - 1] == dealt.seeds
        played = events[at + 2:at + 2 + plays]
        assert all(isinstance(e, ev.Played) for e in played)
        assert [(e.seat, e.play) for e in played if isinstance(e, ev.Played)] == [
            (p.seat, p.play) for p in rnd.plays]
        over = events[at + 2 + plays]
        assert isinstance(over, ev.RoundOver) and over.number == number
        assert over.result == d.match.results[number - 1]
        assert rnd.deck is None  # the driver's records give the seeds only, by default
        fairness = rnd.fairness
        assert fairness is not None and fairness.nonce == number
        assert fairness.client_seed == "|".join(
            seat_part(fairness.server_seed, number, s) for s in range(seats))
    assert events[-1] == ev.MatchOver(d.match.winner)
    # A played event holds the engine's log entry and the match before the play.
    first = events[2]
    assert isinstance(first, ev.Played) and first.before.round is not None
    assert first.before.round.played == 0 and first.log.card == first.play.card
    # The record is fair, and replays to the driver's match.
    assert verify(record).ok
    again = replay(parse_record(to_json(record)))
    assert again.results == d.match.results and again.winner == d.match.winner


def test_a_record_kept_with_decks_gives_each_rounds_deck() -> None:
    d = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"])
    d.keep_decks = True
    seeds = d.deal(["x", "y"], seed=None)
    rnd = d.record.build().rounds[0]
    assert rnd.deck == shuffled_deck(seeds.server_seed, "x|y", 1)
    assert rnd.fairness is not None and rnd.fairness.client_seed == "x|y"


# --------------------------------------------------------------------------- checking


def started(seed: str = SEED_1) -> MatchDriver:
    d = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"])
    d.commit(seed)
    d.deal()
    return d


def test_check_refuses_illegal_plays_and_changes_nothing() -> None:
    d = started()
    seat = d.to_play
    assert seat is not None
    before, record, rounds = d.match, d.record.build(), list(d.rounds)
    legal = legal_match_plays(d.match)
    hand = d.view(seat).hand
    not_held = next(c for c in range(52) if c not in hand and c not in d.view(seat).floor)
    wrong = [
        (1 - seat, legal[0], "play/wrong_seat"),
        (seat, Play(not_held, 0), "play/not_in_hand"),
    ]
    takes = [p for p in legal if p.take]
    if takes:  # a card that can take laid down instead: who can take must take
        wrong.append((seat, Play(takes[0].card, 0), "play/must_take"))
    for who, move, code in wrong:
        with pytest.raises(IllegalPlayError) as caught:
            d.check(who, move)
        assert caught.value.code == code
        assert d.match is before and d.to_play == seat
        assert d.record.build() == record and d.rounds == rounds
    # A legal play is checked without being applied: the same check twice, nothing moves.
    after = d.check(seat, legal[0])
    assert d.check(seat, legal[0]) == after and d.match is before
    events = d.apply(seat, legal[0], after)
    assert d.match is after and [type(e) for e in events] == [ev.Played]
    assert d.record.build().rounds[0].plays[0].play == legal[0]


def test_no_play_before_a_deal_or_after_the_match() -> None:
    d = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"])
    assert d.to_play is None and d.pending is None
    with pytest.raises(IllegalPlayError) as caught:
        d.check(1, Play(parse_card("5H"), 0))
    assert caught.value.code == "play/no_round"
    over, _ = played_match()
    with pytest.raises(IllegalPlayError) as caught:
        over.check(0, Play(parse_card("5H"), 0))
    assert caught.value.code == "play/match_over"
    with pytest.raises(IllegalPlayError) as caught:
        over.rename(["c", "d"])
    assert caught.value.code == "play/match_begun"


def test_a_play_is_applied_to_the_engine_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Play] = []
    real = engine_play  # what the driver module calls engine_play

    def counted(match: Match, move: Play, seat: int | None = None) -> Match:
        calls.append(move)
        return real(match, move, seat)

    monkeypatch.setattr(driver_module, "engine_play", counted)
    d = started()
    seat = d.to_play
    assert seat is not None
    move = legal_match_plays(d.match)[0]
    d.apply(seat, move, d.check(seat, move))  # checked, then applied: once
    assert calls == [move]
    seat = d.to_play
    assert seat is not None
    move = legal_match_plays(d.match)[-1]
    d.apply(seat, move)  # applied without a check: once
    assert calls[1:] == [move]
    calls.clear()
    d.play_round(random_bots(2))  # the rest of the round: once a play
    assert len(calls) == EGYPTIAN.plays_per_round - 2
    assert len(d.record.build().rounds[0].plays) == EGYPTIAN.plays_per_round


# --------------------------------------------------------------------------- seeding


def test_the_commitment_is_published_before_the_deal() -> None:
    told: list[tuple[str, int, bool]] = []
    d: MatchDriver

    def listener(event: ev.Event) -> None:
        told.append((type(event).__name__, d.match.rounds_started, d.match.in_round))

    d = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"], listener)
    seeds = d.commit(SEED_1)
    assert told == [("Committed", 0, False)]  # nothing dealt yet
    assert seeds.commitment == commitment(SEED_1) and d.pending == seeds
    assert d.commit() == seeds  # a committed round keeps its seed (another is refused)
    assert len(told) == 1
    dealt = d.deal(["me"])
    assert told[1:] == [("Dealt", 1, True)]
    assert (dealt.server_seed, dealt.commitment) == (seeds.server_seed, seeds.commitment)
    assert d.pending is None and d.rounds == [dealt]
    # Dealing with nothing committed commits first: the commitment is told before the deal.
    d.play_round(random_bots(2))
    d.deal()
    assert [name for name, _, _ in told[-3:]] == ["RoundOver", "Committed", "Dealt"]
    assert d.rounds[1].number == 2 and d.rounds[1].commitment == commitment(
        d.rounds[1].server_seed)


def test_a_committed_round_keeps_its_server_seed() -> None:
    """Committing again while a round is pending gives the pending round; naming another
    server seed for it is refused (the store and the deal would disagree)."""
    d = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"])
    first = d.commit(SEED_F)
    assert d.commit() is first and d.commit(SEED_F.upper()) is first
    with pytest.raises(IllegalPlayError) as caught:
        d.commit("00" * 32)
    assert caught.value.code == "play/committed"
    assert d.rounds == [first]


def test_client_seed_derives_missing_parts() -> None:
    # FAIRNESS.md's vectors (server seed 00..01 and ff..ff).
    d = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"])
    with pytest.raises(IllegalPlayError) as caught:
        d.client_seed()
    assert caught.value.code == "play/no_commitment"
    d.commit(SEED_1)
    assert d.client_seed() == "325044ddfe5478f0|8dcc8d99a2ec07c3"
    assert d.client_seed(["amira"]) == "amira|8dcc8d99a2ec07c3"
    assert d.client_seed([None, "nour"]) == "325044ddfe5478f0|nour"
    d.deal(["amira"])
    d.play_round(random_bots(2))
    d.commit(SEED_1)
    assert d.client_seed(["amira"]) == "amira|7d9082400dc4c67d"  # nonce 2
    other = MatchDriver(EGYPTIAN, Seating(2), ["a", "b"])
    other.commit(SEED_F)
    assert other.client_seed(["x"]) == "x|5706e4a2b583475d"
    four = MatchDriver(EGYPTIAN, Seating(4, teams=True), ["a", "b", "c", "d"])
    bots = random_bots(4)
    for _ in range(2):
        four.deal()
        four.play_round(bots)
    four.commit(SEED_1)
    assert four.client_seed(["w", "x", "y"]) == "w|x|y|f102c21bed08b872"  # nonce 3, seat 3
    assert four.deal(["w", "x", "y"]).client_seed == "w|x|y|f102c21bed08b872"


# --------------------------------------------------------------------------- one match, three ways


SEED = "17"
"""``basra play --seed``: its server seeds and the person's parts come from it."""
LEVEL = "easy"


def person() -> Player:
    """The person at the terminal: their answers are this bot's plays."""
    return make_bot("medium", seed="person")


def table_bots() -> list[Player]:
    """The person, then the bots ``basra play --bot easy --seed 17`` seats (seeded as it
    seeds them: ``SEED|bot|SEAT``)."""
    return [person(), make_bot(LEVEL, f"{SEED}|bot|1")]


def terminal_seeds(number: int) -> tuple[str, Sequence[str | None]]:
    """Round ``number``'s seeds as ``basra play --seed 17`` makes them (no own text)."""
    return seeded_server_seed(SEED, number), [seeded_part(SEED, number)]


NAMES_AT_TABLE = ("amira", f"bot:{LEVEL}")


def through_the_terminal(folder: Path) -> MatchRecord:
    """The match played in ``basra play``: the person reads their view and types each play
    as ``CARD:TAKE``, which the terminal parses and checks like any answer."""
    chooser = person()
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, no_color=True, color_system=None)
    typed: list[str] = []

    def answer(prompt: str) -> str:
        line = buffer.getvalue().rsplit("\n", 1)[-1]
        if line.startswith(("Your client seed text", "Enter: deal round")):
            return ""
        assert line.startswith("Your play"), line
        move = chooser.choose(session.driver.view(0))
        typed.append(f"{NAMES[move.card]}:{'+'.join(names_of(move.take))}")
        return typed[-1]

    args = build_parser().parse_args(["--bot", LEVEL, "--seed", SEED, "--name", "amira",
                                      "--save", str(folder)])
    session = Session(args, EGYPTIAN, Seating.choose(EGYPTIAN, 2), console, answer)
    assert session.run() == 0
    assert session.saved is not None
    assert "wins the match" in buffer.getvalue() or "You win the match" in buffer.getvalue()
    assert len(typed) == EGYPTIAN.plays_per_round // 2 * session.match.rounds_started
    return parse_record(session.saved.read_bytes())


def through_the_arena() -> MatchRecord:
    """The match played by the arena's game loop, the same players timed as it times them."""
    times: list[float] = []
    d = MatchDriver(EGYPTIAN, Seating(2), NAMES_AT_TABLE)
    d.keep_decks = True  # as basra play's records
    players = [arena.Timed(p, times) for p in table_bots()]
    arena.play_game(d, players, terminal_seeds, arena.MAX_MATCH_ROUNDS)
    assert d.match.over
    assert len(times) == EGYPTIAN.plays_per_round * d.match.rounds_started
    return d.record.build()


def test_the_same_match_through_terminal_arena_driver_and_replay(tmp_path: Path) -> None:
    expected = reference_match(EGYPTIAN, Seating(2), NAMES_AT_TABLE, table_bots(),
                               terminal_seeds, keep_decks=True)
    assert len(expected.rounds) >= 2
    terminal = through_the_terminal(tmp_path)
    assert to_json(terminal) == to_json(expected)
    assert to_json(through_the_arena()) == to_json(expected)
    # Replaying the record gives the match the driver played, and it is fair.
    replayed = replay(terminal)
    assert replayed.winner is not None
    d = MatchDriver(EGYPTIAN, Seating(2), NAMES_AT_TABLE)
    bots = table_bots()
    while not d.match.over:
        server_seed, parts = terminal_seeds(d.next_round)
        d.commit(server_seed)
        d.deal(parts)
        d.play_round(bots)
    assert replayed.results == d.match.results and replayed.winner == d.match.winner
    assert replay_json(replayed) == replay_json(replay(expected))
    outcome = verify(terminal)
    assert outcome.ok, outcome.failure
    assert outcome.lines == tuple(f"round {n}: fair" for n in range(1, len(expected.rounds) + 1))


def test_replay_goes_through_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    d, _ = played_match()
    record = d.record.build()
    applied: list[int] = []
    real = MatchDriver.apply

    def counted(self: MatchDriver, seat: int, move: Play, after: Match | None = None
                ) -> list[ev.Event]:
        applied.append(seat)
        return real(self, move=move, seat=seat, after=after)

    monkeypatch.setattr(MatchDriver, "apply", counted)
    assert replay(record).results == d.match.results
    assert applied == [p.seat for r in record.rounds for p in r.plays]


@pytest.mark.parametrize(("seats", "teams"), [(2, False), (4, True)])
def test_the_drivers_views_are_the_views_of_its_match(seats: int, teams: bool) -> None:
    """The driver keeps the summaries and the round's public plays as the match goes; every
    view it gives, at every step and for every seat, is views.view of its match."""
    seating = Seating.choose(EGYPTIAN, seats, teams)
    d = MatchDriver(EGYPTIAN, seating, ["bot:random"] * seats)
    bots = random_bots(seats, seed=3)
    steps = 0
    while not d.match.over:
        if not d.match.in_round:
            d.commit(derived_seeds("b2")(d.next_round)[0])
            d.deal()
        seat = d.to_play
        assert seat is not None
        for who in [*range(seats), None]:
            assert d.view(who) == view(d.match, who)
        d.apply(seat, bots[seat].choose(d.view(seat)))
        steps += 1
    for who in [*range(seats), None]:
        assert d.view(who) == view(d.match, who)
    assert steps > EGYPTIAN.plays_per_round
