"""``basra play``: whole matches driven through ``main`` by a scripted person who reads the
screen (a rich Console writing to a StringIO, 100 columns, no colour) and answers each
prompt from what it shows."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from basra.game.captures import takes
from basra.game.cards import NAMES, mask_of, parse_card
from basra.game.rules import find_variant
from basra.game.shuffle import OWN_TEXT_BYTES, seat_part
from basra.match.records import parse_record
from basra.match.replay import replay, replay_json, verify
from basra.terminal.command import build_parser, main
from basra.terminal.help_words import PARTS_EXPLAINED, rules_help
from basra.terminal.screen import card_label, card_text

MAX_PROMPTS = 3000
HEX = frozenset("0123456789abcdef")


class Screen:
    """A 100-column no-colour console and the person at it.

    ``policy(screen, prompt)`` answers each prompt (the screen's last, unfinished line);
    raising ``EOFError`` ends the input. The default policy plays the first card of the
    hand, the first take, deals every round and says yes to quitting.
    """

    def __init__(self, policy: Callable[[Screen, str], str] | None = None) -> None:
        self.buffer = io.StringIO()
        self.console = Console(file=self.buffer, width=100, no_color=True, color_system=None,
                               highlight=False)
        self.policy = policy or default_policy
        self.prompts: list[str] = []
        self.answers: list[str] = []

    @property
    def text(self) -> str:
        return self.buffer.getvalue()

    def input(self, prompt: str) -> str:
        assert prompt == ""
        line = self.text.rsplit("\n", 1)[-1]
        self.prompts.append(line)
        if len(self.prompts) > MAX_PROMPTS:
            raise AssertionError("too many prompts: the game does not end")
        answer = self.policy(self, line)
        self.answers.append(answer)
        return answer

    def count(self, kind: str) -> int:
        return sum(1 for p in self.prompts if p.startswith(kind))

    def last_table(self) -> tuple[list[str], list[str]]:
        """The hand (in list order) and the floor as last shown, as canonical names."""
        hand_line = [ln for ln in self.text.splitlines() if ln.startswith("Hand ")][-1]
        floor_line = [ln for ln in self.text.splitlines() if ln.startswith("Floor ")][-1]
        hand = [NAMES[parse_card(t)] for t in re.findall(r"\d+\) (\S+)", hand_line)]
        floor_words = floor_line.split()[1:]
        floor = [] if floor_words == ["(empty)"] else [NAMES[parse_card(t)] for t in floor_words]
        return hand, floor

    def run(self, *argv: str) -> int:
        return main(list(argv), input_fn=self.input, console=self.console)


def default_policy(screen: Screen, prompt: str) -> str:
    if prompt.startswith("Your client seed text"):
        return ""
    if prompt.startswith(("Your play", "Which take?")):
        return "1"
    if prompt.startswith("Enter: deal round"):
        return ""
    if prompt.startswith("Quit the match?"):
        return "y"
    raise AssertionError(f"unexpected prompt {prompt!r}")


def eof_after(plays: int, then: Callable[[Screen, str], str] = default_policy
              ) -> Callable[[Screen, str], str]:
    """A policy that ends the input at the ``plays``-th play prompt."""

    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play") and screen.count("Your play") >= plays:
            raise EOFError
        return then(screen, prompt)

    return policy


def one_round_then_quit(screen: Screen, prompt: str) -> str:
    if prompt.startswith("Enter: deal round"):
        return "quit"
    return default_policy(screen, prompt)


def saved_record(screen: Screen, folder: Path) -> Path:
    """The record file the screen says was saved (and the only one in ``folder``)."""
    match = re.search(r"Match record saved: (\S+)", screen.text)
    assert match, screen.text[-2000:]
    path = Path(match.group(1))
    assert path.parent == folder
    assert list(folder.iterdir()) == [path]
    return path


def check_record(path: Path) -> tuple[dict[str, object], int]:
    """The replayed record's --json summary and its number of rounds; it must verify fair
    (FAIRNESS.md's check 3 included: each bot's part is the derived one), and the person's
    part is never the same in two rounds."""
    record = parse_record(path.read_bytes())
    outcome = verify(record)
    assert outcome.ok, outcome.failure
    assert outcome.lines == tuple(f"round {i}: fair" for i in range(1, len(record.rounds) + 1))
    mine = []
    for number, rnd in enumerate(record.rounds, 1):
        assert rnd.fairness is not None and rnd.fairness.nonce == number
        assert rnd.deck is not None
        parts = rnd.fairness.client_seed.split("|")
        assert len(parts) == len(record.players)
        assert parts[1:] == [seat_part(rnd.fairness.server_seed, number, seat)
                             for seat in range(1, len(parts))]
        mine.append(parts[0])
    assert len(set(mine)) == len(mine)
    return dict(replay_json(replay(record))), len(record.rounds)


def against_random(policy: Callable[[Screen, str], str], seed: str, folder: Path) -> Screen:
    """A match against the random bot with ``--seed seed``, the person answering by
    ``policy``, the record saved in ``folder``; the screen, after a clean exit."""
    screen = Screen(policy)
    assert screen.run("--bot", "random", "--seed", seed, "--save", str(folder)) == 0
    return screen


def assert_shown(text: str, *phrases: str) -> None:
    """Every one of ``phrases`` is on the screen."""
    missing = [phrase for phrase in phrases if phrase not in text]
    assert not missing, missing


def flat(text: str) -> str:
    """The screen's words with single spaces (rich wraps long lines at 100 columns)."""
    return " ".join(text.split())


def my_parts(path: Path) -> list[str]:
    """The person's part (seat 0) of every round's client seed in a saved record."""
    record = parse_record(path.read_bytes())
    return [r.fairness.client_seed.split("|")[0] for r in record.rounds if r.fairness]


def text_and_noise(part: str) -> tuple[str, str]:
    """A part made of the person's own text: (the text, the 16 hex digits after its '.')."""
    text, dot, noise = part.rpartition(".")
    assert dot and len(noise) == 16 and set(noise) <= HEX, part
    return text, noise


# --------------------------------------------------------------------------- whole matches


def test_whole_match_against_the_random_bot(tmp_path: Path) -> None:
    screen = Screen()
    status = screen.run("--bot", "random", "--seed", "11", "--client-seed", "amira-7f3a",
                        "--name", "amira", "--save", str(tmp_path))
    text = screen.text
    assert status == 0
    summary, rounds = check_record(saved_record(screen, tmp_path))
    assert summary["winner"] in (0, 1)
    results = summary["rounds"]
    assert isinstance(results, list) and len(results) == rounds >= 2
    final = results[-1]["totals"]
    assert max(final) >= 121
    shown = re.search(r"(You win|Bot 1 wins) the match, (\d+) – (\d+)!", text)
    assert shown, text[-3000:]
    winner = summary["winner"]
    assert [int(shown.group(2)), int(shown.group(3))] == [final[winner], final[1 - winner]]
    assert (shown.group(1) == "You win") == (summary["winner"] == 0)
    # Every round: commitment before, scoring and the revealed seed after.
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    assert record.players == ("amira", "bot:random")
    for number, rnd in enumerate(record.rounds, 1):
        assert rnd.fairness is not None
        assert text_and_noise(my_parts(saved_record(screen, tmp_path))[number - 1])[0] == (
            "amira-7f3a")
        committed = text.index(f"Round {number} commitment: {rnd.fairness.commitment}")
        seeded = text.index(f"Round {number} client seed: {rnd.fairness.client_seed}")
        dealt = text.index(f"───── Round {number} ─────")
        revealed = text.index(f"Round {number} server seed: {rnd.fairness.server_seed}")
        assert committed < seeded < dealt < revealed
        assert f"Round {number} scoring" in text
    assert flat(text).count(PARTS_EXPLAINED) == 1
    assert "NOT provably fair" in flat(text)
    # The person played every other card: 24 plays a round, two players.
    assert screen.count("Your play") == 24 * rounds
    # Each play is announced; each round's leftover floor is given away.
    bot_plays = re.findall(r"^Bot 1 (plays \S+ and takes|lays \S+ on the floor|sweeps the "
                           r"floor with)", text, re.MULTILINE)
    assert len(bot_plays) == 24 * rounds
    assert text.count("The cards left on the floor") + text.count(
        "The floor is empty at the end") == rounds


def test_the_turn_shows_the_whole_table(tmp_path: Path) -> None:
    screen = Screen(eof_after(3))
    assert screen.run("--bot", "easy", "--seed", "5", "--save", str(tmp_path)) == 0
    turn = screen.text.split("Round 1 · deal 1 of 6 · your turn")[-1]
    assert "egyptian, first to 121 · stock 40 · dealer you" in turn
    assert re.search(r"side\s+total\s+pile\s+basras\s+in hand", turn)
    assert re.search(r"\n\s+you\s+\d+\s+\d+\s+\d+", turn)
    assert re.search(r"\n\s+Bot 1\s+\d+\s+\d+\s+\d+", turn)
    hand, floor = screen.last_table()
    assert 1 <= len(hand) <= 4 and floor is not None
    assert any(s in turn for s in "♣♦♥♠")


def test_a_card_with_several_takes_offers_the_choice(tmp_path: Path) -> None:
    rules = find_variant("egyptian")
    seen: dict[str, object] = {}

    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play"):
            if "played" in seen:  # the choice was made: stop here
                raise EOFError
            hand, floor = screen.last_table()
            for index, name in enumerate(hand, 1):
                options = list(takes(rules, parse_card(name),
                                     mask_of(parse_card(f) for f in floor)))
                if len(options) >= 2:
                    assert 0 not in options  # a card that must take is never offered none
                    seen["card"] = name
                    seen["options"] = options
                    return str(index)
            return "1"
        if prompt.startswith("Which take?"):
            tries = screen.count("Which take?")
            if tries == 1:
                return "99"  # out of range: a hint, and the question again
            if tries == 2:
                return "back"  # choose a card again (the same one)
            seen["played"] = True
            return "2"
        return default_policy(screen, prompt)

    screen = against_random(policy, "2", tmp_path)
    assert "options" in seen, "no card with several takes came up"
    text = screen.text
    card = card_label(parse_card(str(seen["card"])))
    options = seen["options"]
    assert isinstance(options, list)
    listed = text.split(f"{card} can take:")[1].split("Which take?")[0]
    assert len(re.findall(r"\n  \d\) ", listed)) == len(options)
    assert "Type a number from 1 to" in text
    assert text.count(f"{card} can take:") == 2  # asked again after going back
    # The second option listed is the take that was played.
    second = re.search(r"\n  2\) (.*)\n", text.split(f"{card} can take:")[2])
    played = re.search(rf"You play {re.escape(card)} and take ([^.]*?)( and clear|\.)", text)
    assert second and played
    assert played.group(1).split() == second.group(1).split()
    summary, _ = check_record(saved_record(screen, tmp_path))
    assert summary["winner"] is None


def test_bad_input_gets_a_hint_and_the_game_goes_on(tmp_path: Path) -> None:
    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play"):
            n = screen.count("Your play")
            hand, floor = screen.last_table()
            if n == 1:
                return "zz"
            if n == 2:
                return "99"
            if n == 3:
                return next(c for c in NAMES if c not in hand)
            if n == 4:
                return ""
            if n == 5:
                return "0"
            if n == 6:  # a card and a take that is not on the floor
                return hand[0] + ":" + next(c for c in NAMES if c not in hand + floor)
            if n == 7:
                return hand[-1].lower()
            raise EOFError
        return default_policy(screen, prompt)

    screen = against_random(policy, "3", tmp_path)
    text = screen.text
    assert_shown(text, "'zz' is not a card or a command", "99 is out of range: your hand has",
                 "is not in your hand.", "Type a number from 1 to", "0 is out of range",
                 "cannot take")
    assert "Traceback" not in text
    # After the bad answers the person played a card, and the match went on.
    after = text.split("Your play", 7)[-1]
    assert re.search(r"You (play|lay|sweep) ", after)
    assert "Input ended: the match stops here." in text
    check_record(saved_record(screen, tmp_path))


def test_a_play_with_its_take_written_out(tmp_path: Path) -> None:
    rules = find_variant("egyptian")
    typed: list[str] = []

    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play"):
            if typed:
                raise EOFError
            hand, floor = screen.last_table()
            options = takes(rules, parse_card(hand[-1]), mask_of(parse_card(f) for f in floor))
            take = "+".join(NAMES[c] for c in range(52) if options[-1] >> c & 1)
            typed.append(f"{len(hand)}:{take.lower()}")
            return typed[-1]
        return default_policy(screen, prompt)

    screen = Screen(policy)
    assert screen.run("--seed", "13", "--save", str(tmp_path)) == 0
    assert "(medium bot)" in screen.text
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    mine = [p for p in record.rounds[0].plays if p.seat == 0]
    take = typed[0].partition(":")[2]
    assert len(mine) == 1
    assert {NAMES[c] for c in range(52) if mine[0].take >> c & 1} == (
        {t.upper() for t in take.split("+")} if take else set())


def test_help_hint_plays_and_table(tmp_path: Path) -> None:
    script = iter(["help", "hint", "plays", "table", "1"])

    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play"):
            return next(script, "")  # then an empty line, then the end of input
        return default_policy(screen, prompt)

    def ending(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play") and screen.count("Your play") > 6:
            raise EOFError
        return policy(screen, prompt)

    screen = Screen(ending)
    assert screen.run("--bot", "easy", "--seed", "4", "--save", str(tmp_path)) == 0
    text = screen.text
    assert "Capture: every J and 7D take the whole floor" in text
    assert "Commands:" in text and "quit" in text
    assert re.search(r"Hint \(medium bot\): (play|lay) ", text)
    assert "This round so far" in text or "No plays yet this round" in text
    assert text.count("Round 1 · deal 1 of 6 · your turn") >= 4  # shown again after each


def test_rules_help_follows_each_variant() -> None:
    egyptian = " ".join(" ".join(rules_help(find_variant("egyptian"))).split())
    assert "A 7D sweep is a basra (10) only if the floor had no J, Q or K" in egyptian
    assert "A J sweep is never a basra" in egyptian
    assert "27 or more cards win 30" in egyptian
    lebanese = " ".join(" ".join(rules_help(find_variant("lebanese"))).split())
    assert "at most 2 cards" in lebanese and "the most cards win 3" in lebanese
    assert "7D" not in lebanese.split("Scoring")[0]
    serbian = " ".join(" ".join(rules_help(find_variant("serbian"))).split())
    assert "as many cards as possible" in serbian and "2S -2" in serbian
    assert "first side to win 3 sets" in serbian and "162" in serbian
    arabic = " ".join(" ".join(rules_help(find_variant("arabic101"))).split())
    assert "last play is never a basra" in arabic
    assert "A J or 7D sweep is a basra (10) unless it takes a lone card of its rank" in arabic
    for variant in ("egyptian", "arabic101", "lebanese", "serbian"):
        assert all(len(line) <= 100 for line in rules_help(find_variant(variant)))


# --------------------------------------------------------------------------- stopping


def test_quit_asks_first_then_saves(tmp_path: Path) -> None:
    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play") and screen.count("Your play") in (3, 6):
            return "quit"
        if prompt.startswith("Quit the match?"):
            return "n" if screen.count("Quit the match?") == 1 else "yes"
        return default_policy(screen, prompt)

    screen = against_random(policy, "6", tmp_path)
    text = screen.text
    assert_shown(text, "Going on.", "You quit the match.", "its server seed is revealed now")
    summary, rounds = check_record(saved_record(screen, tmp_path))
    assert rounds == 1 and summary["rounds"] == [] and summary["winner"] is None
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    assert record.rounds[0].fairness is not None
    assert f"Round 1 server seed: {record.rounds[0].fairness.server_seed}" in text
    mine = [p for p in record.rounds[0].plays if p.seat == 0]
    assert len(mine) == 4  # the plays made before the quit, none after


def test_end_of_input_ends_cleanly(tmp_path: Path) -> None:
    screen = against_random(eof_after(10), "7", tmp_path)
    assert "Input ended: the match stops here." in screen.text
    _, rounds = check_record(saved_record(screen, tmp_path))
    assert rounds == 1


def test_end_of_input_before_the_first_deal_saves_nothing(tmp_path: Path) -> None:
    def policy(screen: Screen, prompt: str) -> str:
        raise EOFError

    screen = Screen(policy)
    assert screen.run("--save", str(tmp_path)) == 0
    assert "No round was dealt" in screen.text
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_saves_and_exits_130(tmp_path: Path) -> None:
    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your play") and screen.count("Your play") == 2:
            raise KeyboardInterrupt
        return default_policy(screen, prompt)

    screen = Screen(policy)
    assert screen.run("--bot", "random", "--save", str(tmp_path)) == 130
    assert "Interrupted" in screen.text
    check_record(saved_record(screen, tmp_path))


def test_a_record_that_cannot_be_saved_exits_1(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    screen = Screen(eof_after(1))
    assert screen.run("--bot", "random", "--save", str(blocker / "records")) == 1
    assert "Could not save the match record" in screen.text


def test_a_name_is_text_not_markup(tmp_path: Path) -> None:
    screen = Screen(one_round_then_quit)
    assert screen.run("--bot", "random", "--seed", "1", "--name", "[bold]x[/]",
                      "--save", str(tmp_path)) == 0
    assert "[bold]x[/]" in screen.text
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    assert record.players[0] == "[bold]x[/]"


# --------------------------------------------------------------------------- other tables


def test_lebanese_three_players_play_a_round(tmp_path: Path) -> None:
    screen = Screen(one_round_then_quit)
    assert screen.run("--variant", "lebanese", "--players", "3", "--bot", "easy", "--seed",
                      "8", "--save", str(tmp_path)) == 0
    text = screen.text
    assert "Round 1 · deal 1 of 4 · your turn" in text
    assert "lebanese, first to 100" in text
    assert "Round 1 scoring" in text
    assert re.search(r"Bot 2 (plays|lays|sweeps) ", text)
    summary, rounds = check_record(saved_record(screen, tmp_path))
    assert rounds == 1
    results = summary["rounds"]
    assert isinstance(results, list) and len(results) == 1
    assert sum(results[0]["cards"]) == 52
    assert screen.count("Your play") == 16


def test_egyptian_four_players_in_teams(tmp_path: Path) -> None:
    screen = Screen(one_round_then_quit)
    assert screen.run("--players", "4", "--teams", "--bot", "random", "--seed", "9",
                      "--save", str(tmp_path)) == 0
    text = screen.text
    assert "You and your partner Bot 2 (seat 2) against Bot 1 and Bot 3" in text
    assert "Round 1 · deal 1 of 3 · your turn" in text
    assert "you & Bot 2" in text and "Bot 1 & Bot 3" in text
    summary, _ = check_record(saved_record(screen, tmp_path))
    results = summary["rounds"]
    assert isinstance(results, list) and len(results) == 1
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    assert record.teams and len(record.players) == 4
    fairness = record.rounds[0].fairness
    assert fairness is not None and len(fairness.client_seed.split("|")) == 4


def test_four_players_in_egyptian_means_teams(tmp_path: Path) -> None:
    screen = Screen(eof_after(1))
    assert screen.run("--players", "4", "--bot", "random", "--save", str(tmp_path)) == 0
    assert "your partner Bot 2" in screen.text


def test_serbian_shows_the_sets(tmp_path: Path) -> None:
    screen = Screen(eof_after(2))
    assert screen.run("--variant", "serbian", "--bot", "random", "--seed", "1",
                      "--save", str(tmp_path)) == 0
    assert "serbian, set 1 to 101, first to 3 sets · stock 40" in screen.text
    assert re.search(r"side\s+sets\s+total\s+pile\s+basras\s+in hand", screen.text)


@pytest.mark.parametrize(("variant", "target"), [("egyptian", 61), ("lebanese", 51)])
def test_a_short_match(tmp_path: Path, variant: str, target: int) -> None:
    screen = Screen()
    assert screen.run("--variant", variant, "--length", "short", "--bot", "random",
                      "--seed", "5", "--save", str(tmp_path)) == 0
    text = flat(screen.text)
    assert f"A shorter match: the first side to {target} wins." in text
    assert f"{variant}, first to {target} · stock" in text
    path = saved_record(screen, tmp_path)
    assert parse_record(path.read_bytes()).length == "short"
    summary, _ = check_record(path)
    assert summary["length"] == "short" and summary["winner"] in (0, 1)
    results = summary["rounds"]
    assert isinstance(results, list)
    assert max(results[-1]["totals"]) >= target
    assert all(max(r["totals"]) < target or r["totals"][0] == r["totals"][1]
               for r in results[:-1])


def test_a_short_serbian_match_is_one_set(tmp_path: Path) -> None:
    screen = Screen(eof_after(2))
    assert screen.run("--variant", "serbian", "--length", "short", "--bot", "random",
                      "--seed", "1", "--save", str(tmp_path)) == 0
    assert "serbian, first to 101 · stock 40" in screen.text
    assert not re.search(r"side\s+sets\s+total", screen.text)  # no sets to count
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    assert record.length == "short" and record.rules.sets_to_win == 1


def test_a_new_client_seed_between_rounds(tmp_path: Path) -> None:
    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Enter: deal round"):
            n = screen.count("Enter: deal round")
            answers = {1: "what", 2: "seed a|b", 3: "seed", 4: "seed fresh-start", 5: "help",
                       6: "", 7: "seed " + "é" * 40, 8: ""}
            return answers[n]
        if prompt.startswith("Your play") and "───── Round 3 ─────" in screen.text:
            raise EOFError
        return default_policy(screen, prompt)

    screen = Screen(policy)
    assert screen.run("--bot", "random", "--seed", "10", "--client-seed", "first",
                      "--save", str(tmp_path)) == 0
    text = screen.text
    assert "'what' is not understood" in text
    assert "A client seed may not contain '|'." in text
    assert flat(text).count(PARTS_EXPLAINED) == 2  # at the start, and after help
    assert "Your client seed text: none (your part is 16 random bytes, new each round)" in text
    assert f"Only the first {OWN_TEXT_BYTES} bytes of your text are used." in text
    parts = my_parts(saved_record(screen, tmp_path))
    assert len(parts) == 3
    assert text_and_noise(parts[0])[0] == "first"
    assert text_and_noise(parts[1])[0] == "fresh-start"
    assert text_and_noise(parts[2])[0] == "é" * 21  # 42 bytes: a character is not cut
    check_record(saved_record(screen, tmp_path))


# --------------------------------------------------------------------------- fairness, seeds


def test_seed_makes_the_match_reproducible(tmp_path: Path) -> None:
    decks = []
    for run in ("a", "b"):
        folder = tmp_path / run
        screen = Screen(eof_after(8))
        assert screen.run("--bot", "easy", "--seed", "12", "--save", str(folder)) == 0
        assert "your random parts come from the seed" in flat(screen.text)
        record = parse_record(saved_record(screen, folder).read_bytes())
        decks.append(record.to_json()["rounds"])
    assert decks[0] == decks[1]


def two_rounds(screen: Screen, prompt: str) -> str:
    if prompt.startswith("Enter: deal round 3"):
        return "quit"
    return default_policy(screen, prompt)


@pytest.mark.parametrize("own", [[], ["--client-seed", "amira"]], ids=["random", "own-text"])
def test_with_seed_my_parts_come_from_the_seed_and_the_round(tmp_path: Path,
                                                             own: list[str]) -> None:
    runs = []
    for run, seed in (("a", "21"), ("b", "21"), ("c", "22")):
        folder = tmp_path / run
        screen = Screen(two_rounds)
        assert screen.run("--bot", "random", "--seed", seed, *own, "--save", str(folder)) == 0
        check_record(saved_record(screen, folder))
        runs.append(my_parts(saved_record(screen, folder)))
    assert runs[0] == runs[1] != runs[2]
    for parts in runs:
        assert len(parts) == 2 and parts[0] != parts[1]
        if own:
            assert [text_and_noise(p)[0] for p in parts] == ["amira", "amira"]
        else:
            assert all(len(p) == 32 and set(p) <= HEX for p in parts)


def test_bots_parts_are_derived_and_mine_is_fresh_every_round(tmp_path: Path) -> None:
    screen = Screen(two_rounds)
    assert screen.run("--players", "4", "--bot", "random", "--client-seed", "me",
                      "--save", str(tmp_path)) == 0
    check_record(saved_record(screen, tmp_path))  # the bots' parts are the derived ones
    parts = my_parts(saved_record(screen, tmp_path))
    assert len(parts) == 2
    noise = [text_and_noise(p) for p in parts]
    assert noise[0][0] == noise[1][0] == "me" and noise[0][1] != noise[1][1]
    assert flat(screen.text).count(PARTS_EXPLAINED) == 1


def test_without_seed_every_round_has_a_fresh_server_seed(tmp_path: Path) -> None:
    seeds = []
    for run in ("a", "b"):
        folder = tmp_path / run
        screen = Screen(eof_after(1))
        assert screen.run("--bot", "random", "--save", str(folder)) == 0
        assert "NOT provably fair" not in screen.text
        record = parse_record(saved_record(screen, folder).read_bytes())
        fairness = record.rounds[0].fairness
        assert fairness is not None
        seeds.append((fairness.server_seed, fairness.client_seed.split("|")[0]))
    assert seeds[0][0] != seeds[1][0]
    assert seeds[0][1] != seeds[1][1]  # Enter: no text, so the part is 16 random bytes
    assert all(len(part) == 32 and set(part) <= HEX for _, part in seeds)


def test_the_typed_client_seed_is_used(tmp_path: Path) -> None:
    def policy(screen: Screen, prompt: str) -> str:
        if prompt.startswith("Your client seed text"):
            return {1: "x|y", 2: "a\x07b", 3: "help", 4: "x" * 300}[
                screen.count("Your client seed text")]
        return eof_after(1)(screen, prompt)

    screen = Screen(policy)
    assert screen.run("--bot", "random", "--save", str(tmp_path)) == 0
    text = screen.text
    assert "A client seed may not contain '|'." in text
    assert "A client seed may not contain control characters." in text
    assert "8 fresh random bytes, made after you see the round's commitment" in text
    assert f"Only the first {OWN_TEXT_BYTES} bytes of your text are used." in text
    assert f"Your client seed text: {'x' * OWN_TEXT_BYTES} (8 random bytes, new each" in text
    record = parse_record(saved_record(screen, tmp_path).read_bytes())
    fairness = record.rounds[0].fairness
    assert fairness is not None
    assert text_and_noise(fairness.client_seed.split("|")[0])[0] == "x" * OWN_TEXT_BYTES
    assert f"Round 1 client seed: {fairness.client_seed}  (your part, then each bot's)" in text
    # The part is made after the commitment is shown, and before the deal.
    assert (text.index("Round 1 commitment: ") < text.index("Your client seed text: ")
            < text.index("Round 1 client seed: ") < text.index("───── Round 1 ─────"))


# --------------------------------------------------------------------------- arguments, cards


@pytest.mark.parametrize("argv", [
    ["--variant", "nope"],
    ["--players", "3"],
    ["--variant", "arabic101", "--players", "4"],
    ["--bot", "genius"],
    ["--bot", "oracle"],  # the arena's yardstick alone
    ["--players", "two"],
    ["--client-seed", "a|b"],
    ["--client-seed", "tab\there"],
    ["--name", "bot:hard"],
    ["--name", "BOT:me"],
    ["--length", "long"],
    ["--length"],
])
def test_bad_arguments_exit_2_with_one_line(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    screen = Screen()
    assert screen.run(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("basra play: error: ") and err.count("\n") == 1
    assert screen.text == ""


def test_parser_defaults() -> None:
    args = build_parser().parse_args([])
    assert (args.variant, args.bot, args.players, args.teams, args.save, args.length) == (
        "egyptian", "medium", 2, False, ".", "full")
    assert build_parser().parse_args(["--length", "short"]).length == "short"


def test_cards_on_screen() -> None:
    assert card_label(parse_card("10D")) == "10♦"
    assert card_label(parse_card("tc"), symbols=False) == "10C"
    assert card_text(parse_card("5H")).style == "bold red"
    assert card_text(parse_card("QS")).style == "bold"
    buffer = io.StringIO()
    colour = Console(file=buffer, width=100, force_terminal=True, color_system="standard")
    colour.print(card_text(parse_card("7D")))
    assert "\x1b[" in buffer.getvalue() and "31" in buffer.getvalue()


def test_no_color_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, force_terminal=True)
    console.print(card_text(parse_card("7D")))
    assert "31m" not in buffer.getvalue()
