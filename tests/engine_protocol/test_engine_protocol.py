"""basra-engine/1 (docs/ENGINE_PROTOCOL.md): the engine (``serve``, ``basra engine``) and
the client (``ExternalBot``), each against the other and against examples/random_bot.py."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.engine_protocol.messages import ERROR_CODES, MAX_LINE, PROTOCOL, play_request
from basra.engine_protocol.our_bots import BotOptions, serve
from basra.engine_protocol.outside_bots import ExternalBot, ExternalBotError
from basra.game.engine import Match, Play, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import shuffled_deck
from basra.game.views import SeatView, view

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = [sys.executable, str(ROOT / "examples" / "random_bot.py")]
OUR_ENGINE = [sys.executable, "-m", "basra.bot_protocol"]
HELLO = {"type": "hello", "protocol": PROTOCOL}
SEED = "00" * 31 + "01"


def exchange(*lines: object, **options: Any) -> list[dict[str, object]]:
    """Run ``serve`` on ``lines`` (objects are sent as JSON, text as is) with the options'
    first values ``options``; its replies."""
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    out = io.StringIO()
    assert serve(io.StringIO(text), out, BotOptions(**options)) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def first_view(variant: str = "egyptian", players: int = 2, teams: bool = False,
               plays: int = 3) -> tuple[Match, SeatView]:
    """A match a few plays into its first round, and the view of the seat to play."""
    match = start_round(new_match(find_variant(variant), players, teams),
                        shuffled_deck(SEED, "tests", 1))
    bot = make_bot("easy", seed=1)
    for _ in range(plays):
        assert match.round is not None
        seat = match.round.turn
        match = play(match, bot.choose(view(match, seat)), seat)
    assert match.round is not None
    return match, view(match, match.round.turn)


def as_play(reply: dict[str, object]) -> Play:
    return Play.parse(f"{reply['card']}:{'+'.join(reply['take'])}")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the engine


def test_handshake_names_the_engine_and_its_options() -> None:
    [hello] = exchange(HELLO)
    assert hello["type"] == "hello"
    assert hello["protocol"] == PROTOCOL
    assert hello["name"] == "basra"
    assert isinstance(hello["version"], str) and hello["version"]
    options = {o["name"]: o for o in hello["options"]}  # type: ignore[attr-defined]
    assert set(options) == {"level", "iterations", "time_cap", "seed"}
    assert options["level"]["choices"] == ["random", "easy", "medium", "hard", "expert"]
    assert options["level"]["default"] == "medium"


def test_the_command_line_sets_the_options_first_values() -> None:
    [hello] = exchange(HELLO, level="hard", iterations=40, time_cap=0.0, seed=5)
    values = {o["name"]: o["default"] for o in hello["options"]}  # type: ignore[attr-defined]
    assert values == {"level": "hard", "iterations": 40, "time_cap": 0.0, "seed": 5}


def test_requests_before_the_handshake_are_refused() -> None:
    replies = exchange({"type": "ping", "id": 1}, {"type": "hello", "protocol": "basra/9"},
                       HELLO, {"type": "ping", "id": 2})
    assert [r["type"] for r in replies] == ["error", "error", "hello", "pong"]
    assert replies[0] == {"type": "error", "id": 1, "code": "protocol/no_hello",
                          "message": replies[0]["message"]}
    assert replies[1]["code"] == "protocol/unsupported_version"
    assert replies[3]["id"] == 2


def test_options_are_acknowledged_or_refused() -> None:
    replies = exchange(
        HELLO,
        {"type": "option", "name": "level", "value": "hard", "id": "a"},
        {"type": "option", "name": "iterations", "value": 50},
        {"type": "option", "name": "time_cap", "value": 0},
        {"type": "option", "name": "seed", "value": "any text"},
        {"type": "option", "name": "seed", "value": None},
        {"type": "option", "name": "level", "value": "grandmaster"},
        {"type": "option", "name": "level", "value": "oracle"},
        {"type": "option", "name": "iterations", "value": 0},
        {"type": "option", "name": "iterations", "value": True},
        {"type": "option", "name": "time_cap", "value": -1},
        {"type": "option", "name": "seed", "value": [1]},
        {"type": "option", "name": "speed", "value": 1},
        {"type": "option", "name": "level"},
        {"type": "option", "value": 1},
    )
    assert replies[1] == {"type": "ok", "id": "a", "name": "level", "value": "hard"}
    assert [r["type"] for r in replies[2:6]] == ["ok"] * 4
    assert "yardstick for `basra arena`" in replies[7]["message"]
    assert [r["code"] for r in replies[6:]] == [
        "option/bad_value", "option/bad_value", "option/bad_value", "option/bad_value",
        "option/bad_value", "option/bad_value", "option/unknown", "protocol/bad_message",
        "protocol/bad_message"]
    for reply in replies[6:]:
        assert "\n" not in str(reply["message"])


@pytest.mark.parametrize(("variant", "players", "teams"),
                         [("egyptian", 2, False), ("serbian", 4, True), ("lebanese", 3, False)])
@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_a_play_request_gets_a_legal_play(variant: str, players: int, teams: bool,
                                          level: str) -> None:
    _, seat_view = first_view(variant, players, teams)
    replies = exchange(HELLO, {"type": "option", "name": "level", "value": level},
                       play_request(seat_view, 7))
    reply = replies[-1]
    assert reply["type"] == "play" and reply["id"] == 7
    assert as_play(reply) in seat_view.legal


def test_the_hard_level_with_a_tiny_budget_answers_deterministically() -> None:
    _, seat_view = first_view("egyptian", plays=5)
    request = play_request(seat_view, 1)
    runs = [exchange(HELLO, request, request, level="hard", iterations=20, time_cap=0,
                     seed=3)[1:] for _ in range(2)]
    assert runs[0] == runs[1]
    assert all(as_play(r) in seat_view.legal for r in runs[0])


def test_setting_the_seed_restarts_the_random_choices() -> None:
    _, seat_view = first_view(plays=1)
    request = play_request(seat_view)
    seed = {"type": "option", "name": "seed", "value": 11}
    replies = exchange(HELLO, {"type": "option", "name": "level", "value": "random"},
                       seed, *[request] * 6, seed, *[request] * 6)
    first, second = replies[3:9], replies[10:16]
    assert first == second


def test_malformed_lines_get_an_error_and_the_engine_goes_on() -> None:
    _, seat_view = first_view()
    spectator = seat_view.to_json() | {"seat": None}
    no_legal = seat_view.to_json() | {"legal": []}
    lines: list[object] = [
        HELLO,
        "this is not json",
        "{\"type\": \"play\",",
        "[1, 2, 3]",
        "42",
        {"kind": "hello"},
        {"type": 5},
        {"type": "go"},
        {"type": "ping", "id": [1]},
        {"type": "hello"},
        {"type": "play"},
        {"type": "play", "view": "seat 0"},
        {"type": "play", "id": 1, "view": {"variant": "egyptian"}},
        {"type": "play", "view": seat_view.to_json() | {"variant": "poker"}},
        {"type": "play", "view": seat_view.to_json() | {"hand": ["ZZ"]}},
        {"type": "play", "view": spectator},
        {"type": "play", "id": 2, "view": no_legal},
        "",
        "   ",
        {"type": "ping", "id": "still here"},
    ]
    replies = exchange(*lines)
    codes = [r.get("code") for r in replies[1:-1]]
    assert codes == [
        "protocol/bad_json", "protocol/bad_json", "protocol/not_object",
        "protocol/not_object", "protocol/bad_message", "protocol/bad_message",
        "protocol/unknown_type", "protocol/bad_message", "protocol/bad_message",
        "protocol/bad_message", "protocol/bad_message", "view/invalid", "view/invalid",
        "view/invalid", "view/invalid", "view/not_your_turn",
    ]
    assert set(codes) <= set(ERROR_CODES)
    assert replies[12]["id"] == 1 and replies[16]["id"] == 2
    assert replies[-1] == {"type": "pong", "id": "still here"}


def test_an_over_long_line_is_skipped_with_an_error() -> None:
    replies = exchange(HELLO, "x" * (MAX_LINE + 10), {"type": "ping"})
    assert [r.get("code", r["type"]) for r in replies] == [
        "hello", "protocol/line_too_long", "pong"]


def test_quit_stops_the_engine_without_a_reply() -> None:
    replies = exchange(HELLO, {"type": "quit"}, {"type": "ping"})
    assert [r["type"] for r in replies] == ["hello"]
    assert exchange() == []  # the end of the input: exit 0, nothing written


def run_engine(lines: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*OUR_ENGINE, *args], input="".join(x + "\n" for x in lines),
                          capture_output=True, text=True, timeout=60, check=False)


def test_basra_engine_speaks_only_protocol_lines_on_stdout() -> None:
    _, seat_view = first_view()
    lines = [json.dumps(HELLO), "garbage", json.dumps(play_request(seat_view, 9)),
             json.dumps({"type": "quit"}), json.dumps({"type": "ping"})]
    done = run_engine(lines, "--level", "easy", "--seed", "2")
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["type"] for r in replies] == ["hello", "error", "play"]
    assert as_play(replies[2]) in seat_view.legal
    assert done.stderr == ""


@pytest.mark.parametrize("args", [["--level", "grandmaster"], ["--level", "oracle"],
                                  ["--iterations", "0"], ["--time-cap", "-2"], ["--bogus"]])
def test_basra_engine_bad_arguments_are_one_line_and_exit_2(args: list[str]) -> None:
    done = run_engine([], *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    if args == ["--level", "oracle"]:
        assert "never a player" in done.stderr


# --------------------------------------------------------------------------- the client


def play_round(bots: list[Bot], variant: str = "egyptian", nonce: int = 1) -> list[Play]:
    """One whole round, ``bots[s]`` playing seat ``s``; every play checked by the engine."""
    match = start_round(new_match(find_variant(variant), len(bots)),
                        shuffled_deck(SEED, "client", nonce))
    plays = []
    while match.in_round:
        assert match.round is not None
        seat = match.round.turn
        choice = bots[seat].choose(view(match, seat))
        match = play(match, choice, seat)
        plays.append(choice)
    assert match.round is not None and match.round.finished
    return plays


@pytest.fixture
def our_engine() -> Iterator[ExternalBot]:
    with ExternalBot([*OUR_ENGINE, "--level", "medium"], timeout=30,
                     options={"seed": 4}) as bot:
        yield bot


def test_external_bot_plays_a_round_through_basra_engine(our_engine: ExternalBot) -> None:
    assert our_engine.name == "external:basra"
    assert our_engine.engine_version
    assert our_engine.has_seed
    plays = play_round([make_bot("random", seed=1), our_engine])
    assert len(plays) == 48


def test_external_bot_over_the_wire_plays_like_the_bot_itself() -> None:
    """Our medium bot through the protocol makes the same plays as in process."""
    with ExternalBot([*OUR_ENGINE, "--level", "medium", "--seed", "9"], timeout=30) as ext:
        wire = play_round([ext, make_bot("easy", seed=2)], nonce=2)
    local = play_round([make_bot("medium", seed=9), make_bot("easy", seed=2)], nonce=2)
    assert wire == local


def test_external_bot_plays_with_the_example_random_bot() -> None:
    runs = []
    for _ in range(2):
        with ExternalBot(RANDOM_BOT, options={"seed": 12}) as bot:
            assert bot.name == "external:random_bot.py"
            runs.append(play_round([bot, make_bot("easy", seed=1), make_bot("easy", seed=2)],
                                   variant="lebanese"))
    assert runs[0] == runs[1]  # seeded: the same plays


def test_the_example_random_bot_handles_errors_itself() -> None:
    lines = [json.dumps({"type": "ping"}), json.dumps(HELLO), "nonsense",
             json.dumps({"type": "option", "name": "level", "value": "x"}),
             json.dumps({"type": "play", "id": 1, "view": {"legal": []}}),
             json.dumps({"type": "quit"})]
    done = subprocess.run(RANDOM_BOT, input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r.get("code", r["type"]) for r in replies] == [
        "protocol/no_hello", "hello", "protocol/bad_json", "option/unknown",
        "view/not_your_turn"]


FAKE = """
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    def say(reply):
        print(json.dumps({"id": msg.get("id"), **reply}), flush=True)
    if kind == "quit":
        break
    if kind == "hello":
        say(HELLO)
    elif kind == "option":
        say({"type": "ok", "name": msg["name"], "value": msg["value"]})
    else:
        PLAY
"""


def fake(play_code: str, hello: str = '{"type": "hello", "protocol": "basra-engine/1", '
         '"name": "fake"}') -> list[str]:
    """A program that shakes hands properly, then runs ``play_code`` for a play."""
    code = FAKE.replace("HELLO", hello).replace("PLAY", play_code)
    return [sys.executable, "-c", textwrap.dedent(code)]


def expect_failure(command: list[str], code: str, *, timeout: float = 10.0) -> str:
    _, seat_view = first_view()
    with ExternalBot(command, timeout=timeout, label="fake bot") as bot, \
            pytest.raises(ExternalBotError) as info:
        bot.choose(seat_view)
    err = info.value
    assert err.code == code, str(err)
    message = str(err)
    assert "\n" not in message
    assert message.startswith("external bot 'fake bot': ")
    # After a failure the bot stays failed.
    with pytest.raises(ExternalBotError):
        bot.choose(seat_view)
    return message


def test_an_illegal_reply_is_a_clear_error() -> None:
    message = expect_failure(fake('say({"type": "play", "card": "KS", "take": ["AC"]})'),
                             "external/illegal_play")
    assert "illegal play KS:AC" in message
    assert "legal plays" in message


def test_a_timeout_is_a_clear_error() -> None:
    message = expect_failure(fake("time.sleep(30)"), "external/timeout", timeout=0.5)
    assert "no answer to play within 0.5 s" in message


def test_a_program_that_exits_is_a_clear_error() -> None:
    message = expect_failure(fake('sys.stderr.write("boom: out of ideas\\n"); sys.exit(3)'),
                             "external/exited")
    assert "exited with status 3" in message
    assert "boom: out of ideas" in message


@pytest.mark.parametrize(("play_code", "code"), [
    ('print("I play the five of hearts", flush=True)', "external/garbage"),
    ('say({"type": "pong"})', "external/garbage"),
    ('say({"type": "play", "card": "5X", "take": []})', "external/garbage"),
    ('say({"type": "play", "card": "5H", "take": "4C"})', "external/garbage"),
    ('print(json.dumps({"type": "play", "id": 999, "card": "QD", "take": []}), flush=True)',
     "external/garbage"),
    ('say({"type": "error", "code": "view/invalid", "message": "no idea"})',
     "external/refused"),
])
def test_garbage_and_refusals_are_clear_errors(play_code: str, code: str) -> None:
    expect_failure(fake(play_code), code)


def test_a_bad_handshake_or_a_missing_program_fails_at_start() -> None:
    with pytest.raises(ExternalBotError) as info:
        ExternalBot(fake("pass", hello='{"type": "hello", "protocol": "uci"}'))
    assert info.value.code == "external/garbage"
    with pytest.raises(ExternalBotError) as info:
        ExternalBot(["/nonexistent/basra-bot"])
    assert info.value.code == "external/start"
    assert "cannot start" in str(info.value)
    with pytest.raises(ExternalBotError) as info:
        ExternalBot(RANDOM_BOT, options={"level": "hard"})
    assert info.value.code == "external/refused"
    assert "option/unknown" in str(info.value)
    with pytest.raises(ExternalBotError) as info:
        ExternalBot([sys.executable, "-c", "import sys; sys.exit(0)"])
    assert info.value.code == "external/exited"


def test_a_command_string_is_split_like_a_shell_would() -> None:
    command = " ".join(f'"{part}"' for part in RANDOM_BOT)
    with ExternalBot(command) as bot:
        assert bot.label == command
        _, seat_view = first_view()
        assert bot.choose(seat_view) in seat_view.legal
    with pytest.raises(ExternalBotError):
        ExternalBot("")
