"""The session of ``basra play``: one match between the person and the bots, played through
a :class:`~basra.match.driver.MatchDriver`.

The session is every seat's player for the driver: the person's prompt (a hand number, a
card or a play with its take, read and checked by :mod:`basra.terminal.answers`, or a command)
or the seat's bot. It commits each round's server seed, makes the person's part of the
client seed after the commitment is shown (:mod:`basra.terminal.seeds`), has the
:class:`~basra.terminal.screen.Screen` show what the driver's events say, and saves the
basra-record/1 file when the match ends, when the person quits and when the input ends.
Bad input gets a one-line hint and the question again, never a traceback.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.text import Text

from basra.bots import Bot, make_bot
from basra.errors import CardNotationError
from basra.game.cards import Card, parse_card
from basra.game.engine import Match, Play
from basra.game.rules import Rules
from basra.game.seating import Seating
from basra.game.shuffle import OWN_TEXT_BYTES, fresh_part
from basra.game.views import SeatView
from basra.match.driver import Committed, Dealt, Event, MatchDriver, MatchOver, Played, RoundOver
from basra.match.records import Fairness, dumps
from basra.terminal.answers import BadAnswer, parse_card_choice, parse_full_play
from basra.terminal.help_words import PARTS_EXPLAINED
from basra.terminal.screen import ME, Screen, by_rank
from basra.terminal.seeds import own_text_cut, own_text_problem, seeded_part, seeded_server_seed

InputFn = Callable[[str], str]

QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "h", "?"})


class _Stop(Exception):
    """The person stopped the match: ``quit`` (confirmed), end of input, or Ctrl-C."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Session:
    """One match of ``basra play``: the table, the bots and the dialogue, around a
    :class:`~basra.match.driver.MatchDriver` that holds the match, its seeds and its record. The
    session is every seat's player (the person's prompt, or a bot), and its ``screen``
    shows what the driver's events say: each commitment, deal, play, round's end and the
    winner."""

    def __init__(self, args: argparse.Namespace, rules: Rules, seating: Seating,
                 console: Console, input_fn: InputFn) -> None:
        self.args = args
        self.rules = rules
        self.seating = seating
        self.seats = seating.seats
        self.console = console
        self.input_fn = input_fn
        self.seed: str | None = args.seed
        self.echo = not console.is_terminal
        self.bots: dict[int, Bot] = {
            seat: make_bot(args.bot, None if self.seed is None else f"{self.seed}|bot|{seat}")
            for seat in range(1, self.seats)
        }
        labels = [args.name or "you"] + [f"Bot {seat}" for seat in range(1, self.seats)]
        self.screen = Screen(console, rules, seating, labels)
        players = [args.name or "player"] + [self.bots[s].name for s in range(1, self.seats)]
        self.driver = MatchDriver(rules, seating, players, self.on_event)
        self.driver.keep_decks = True
        self.own_text = ""
        """The person's own text in their part of the client seed ("": random only)."""
        self.used_parts: set[str] = set()
        """The person's parts of the rounds dealt so far: a part is never used twice."""
        self.fairness: Fairness | None = None
        """The fairness data of the round in play, until its server seed is revealed."""
        self.carry_in = 0
        self.saved: Path | None = None

    @property
    def match(self) -> Match:
        return self.driver.match

    # ------------------------------------------------------------------ input

    def ask(self, prompt: str) -> str:
        """One line of input after ``prompt``; raises :class:`_Stop` at the end of input."""
        self.console.print(Text(prompt, style="bold cyan"), end="")
        try:
            line = self.input_fn("")
        except EOFError:
            if self.echo:
                self.console.print()
            raise _Stop("eof") from None
        except KeyboardInterrupt:
            self.console.print()
            raise _Stop("interrupt") from None
        if self.echo:
            self.console.print(Text(line), highlight=False)
        return line.strip()

    def confirm_quit(self) -> None:
        """Ask whether to quit; raises :class:`_Stop` on yes (or at the end of input)."""
        answer = self.ask("Quit the match? The record so far will be saved. [y/N] > ")
        if answer.lower() in {"y", "yes"}:
            raise _Stop("quit")
        self.screen.say("Going on.", style="dim")

    # ------------------------------------------------------------------ the match

    def run(self) -> int:
        self.screen.intro(self.args.bot, self.seed)
        try:
            self.prepare_round()
            self.choose_own_text()
            while True:
                self.play_round()
                if self.match.winner is not None:
                    break
                self.prepare_round()
                self.between_rounds()
        except _Stop as stop:
            return self.stopped(stop.reason)
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks
            self.console.print()
            return self.stopped("interrupt")
        return self.save()

    def prepare_round(self) -> None:
        """Draw the next round's server seed (the driver shows its commitment)."""
        nonce = self.driver.next_round
        self.driver.commit(None if self.seed is None else seeded_server_seed(self.seed, nonce))

    def my_part(self, nonce: int) -> str:
        """The person's part of round ``nonce``'s client seed, made after its commitment was
        shown: their own text (cut) and 8 fresh random bytes, or 16 random bytes without a
        text. With ``--seed`` the random bytes come from the seed and the round."""
        if self.seed is None:
            part = fresh_part(self.own_text)
            while part in self.used_parts:  # 64 random bits or more: never in practice
                part = fresh_part(self.own_text)
            return part
        return seeded_part(self.seed, nonce, self.own_text)

    def set_own_text(self, text: str) -> bool:
        """Take ``text`` as the person's own text; False (after a hint) if it cannot be."""
        problem = own_text_problem(text)
        if problem is not None:
            self.screen.hint(problem)
            return False
        self.own_text = text
        if not text:
            self.screen.say("Your client seed text: none (your part is 16 random bytes, new each "
                     "round).")
            return True
        cut = own_text_cut(text)
        if cut != text:
            self.screen.say(f"Only the first {OWN_TEXT_BYTES} bytes of your text are used.",
                     style="dim")
        self.screen.say("Your client seed text: ", Text(cut, style="bold"),
                 " (8 random bytes, new each round, are added to it).")
        return True

    def choose_own_text(self) -> None:
        given: str | None = self.args.client_seed
        if given is not None:
            self.set_own_text(given)  # checked by main
            return
        while True:
            answer = self.ask("Your client seed text (Enter for none) > ")
            if answer.lower() in QUIT_WORDS:
                self.confirm_quit()
                continue
            if answer.lower() in HELP_WORDS:
                self.screen.say(f"Any text (its first {OWN_TEXT_BYTES} bytes, no '|'): each round "
                         "your part of the client seed is this text, a '.' and 8 fresh random "
                         "bytes, made after you see the round's commitment; with no text it is "
                         "16 random bytes. Either way the server cannot choose the deck alone.")
                continue
            if self.set_own_text(answer):
                return

    def between_rounds(self) -> None:
        nonce = self.driver.next_round
        while True:
            answer = self.ask(f"Enter: deal round {nonce} · seed TEXT: your client seed text · "
                              "quit > ")
            word, _, rest = answer.partition(" ")
            if not answer:
                return
            if word.lower() in QUIT_WORDS:
                self.confirm_quit()
            elif word.lower() in HELP_WORDS:
                self.screen.show_help()
                self.screen.say(PARTS_EXPLAINED)
            elif word.lower() == "seed":
                self.set_own_text(rest.strip())
            else:
                self.screen.hint(f"{answer!r} is not understood: press Enter to deal, "
                          "'seed TEXT' or quit.")

    # ------------------------------------------------------------------ a round

    def play_round(self) -> None:
        """Deal the committed round, the client seed made of the person's fresh part and
        each bot's part derived from the round's server seed (FAIRNESS.md, "Seat parts"),
        and play it out."""
        mine = self.my_part(self.driver.next_round)
        self.used_parts.add(mine)
        self.driver.deal([mine])
        self.driver.play_round([self] * self.seats)

    def choose(self, v: SeatView, /) -> Play:
        """A seat's play for the driver: the person's answer, or the seat's bot's."""
        return self.my_turn(v) if v.seat == ME else self.bot_play(v)

    def on_event(self, event: Event) -> None:
        """Show what the driver did."""
        if isinstance(event, Committed):
            self.screen.show_commitment(event.seeds)
        elif isinstance(event, Dealt):
            self.dealt(event)
        elif isinstance(event, Played):
            rnd = self.match.round
            assert rnd is not None
            self.screen.announce(event, rnd)
        elif isinstance(event, RoundOver):
            self.screen.round_over(self.match, self.carry_in)
            self.reveal()
        elif isinstance(event, MatchOver):
            self.screen.announce_winner(self.match)

    def dealt(self, event: Dealt) -> None:
        """A round is dealt: keep its fairness data until its server seed is revealed."""
        assert event.seeds is not None
        fairness = event.seeds.fairness
        assert fairness is not None
        self.carry_in = self.match.carry
        self.fairness = fairness
        rnd = self.match.round
        assert rnd is not None
        self.screen.show_deal(event.number, fairness, rnd)

    def reveal(self) -> None:
        """Reveal the server seed of the round in play, if it is not yet revealed."""
        if self.fairness is not None:
            self.screen.reveal(self.fairness)
            self.fairness = None

    def bot_play(self, seen: SeatView) -> Play:
        assert seen.seat is not None
        bot = self.bots[seen.seat]
        if bot.level == "hard" and self.console.is_terminal:
            with self.console.status(f"{self.screen.labels[seen.seat]} is thinking…"):
                return bot.choose(seen)
        return bot.choose(seen)

    # ------------------------------------------------------------------ the person's turn

    def my_turn(self, v: SeatView) -> Play:
        self.screen.show_table(v)
        hand = self.screen.hand_order(v)
        numbers = "1" if len(hand) == 1 else f"1-{len(hand)}"
        prompt = f"Your play ({numbers} or a card; help) > "
        while True:
            answer = self.ask(prompt)
            word = answer.lower()
            try:
                if word in QUIT_WORDS:
                    self.confirm_quit()
                    continue
                if word in HELP_WORDS:
                    self.screen.show_help()
                    self.screen.show_table(v)
                    continue
                if word == "hint":
                    self.screen.show_hint(v)
                    continue
                if word in {"plays", "log"}:
                    if self.screen.show_plays(v):
                        self.screen.show_table(v)
                    continue
                if word in {"table", "t"}:
                    self.screen.show_table(v)
                    continue
                if ":" in answer:
                    return parse_full_play(answer, v, self.screen.symbols)
                card = parse_card_choice(answer, hand, self.screen.symbols)
                chosen = self.choose_take(card, v)
                if chosen is not None:
                    return chosen
            except BadAnswer as bad:
                self.screen.hint(str(bad))

    def choose_take(self, card: Card, v: SeatView) -> Play | None:
        """The play of ``card``, asking which take when it has several; None to go back."""
        options = sorted((p for p in v.legal if p.card == card),
                         key=lambda p: (-p.take.bit_count(), by_rank(p.take)))
        if len(options) == 1:
            return options[0]
        self.screen.say(self.screen.card(card), " can take:")
        for i, p in enumerate(options, 1):
            self.screen.say(f"  {i}) ", self.screen.cards(p.take))
        while True:
            answer = self.ask(f"Which take? (1-{len(options)}, or back) > ")
            word = answer.lower()
            if word in {"back", "b"}:
                return None
            if word in QUIT_WORDS:
                self.confirm_quit()
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            try:
                named = parse_card(answer) if answer and not answer.isdigit() else None
            except CardNotationError:
                named = None
            if named is not None:
                holding = [p for p in options if p.take >> named & 1]
                if len(holding) == 1:
                    return holding[0]
            self.screen.hint(f"Type a number from 1 to {len(options)} for the take, or back to "
                      "choose another card.")

    # ------------------------------------------------------------------ stopping, saving

    def stopped(self, reason: str) -> int:
        messages = {
            "quit": "You quit the match.",
            "eof": "Input ended: the match stops here.",
            "interrupt": "Interrupted: the match stops here.",
        }
        self.screen.say()
        self.screen.say(messages[reason], style="bold")
        if self.fairness is not None:
            self.screen.say("The round in play is unfinished; its server seed is revealed now.")
            self.reveal()
        status = self.save()
        if status:
            return status
        return 130 if reason == "interrupt" else 0

    def save(self) -> int:
        record = self.driver.record.build()
        if not record.rounds:
            self.screen.say("No round was dealt, so there is no record to save.")
            return 0
        folder = Path(self.args.save)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"basra-{self.rules.name}-{stamp}.json"
            n = 1
            while path.exists():
                n += 1
                path = folder / f"basra-{self.rules.name}-{stamp}-{n}.json"
            path.write_text(dumps(record), encoding="utf-8")
        except OSError as exc:
            self.screen.say(Text(f"Could not save the match record in {str(folder)!r}: "
                          f"{exc.strerror or exc}", style="bold red"))
            return 1
        self.saved = path
        self.screen.say("Match record saved: ", Text(str(path), style="bold"), wrap=False)
        quoted = shlex.quote(str(path))
        self.screen.say(f"  check it: basra verify {quoted}", style="dim", wrap=False)
        self.screen.say(f"            basra replay {quoted}", style="dim", wrap=False)
        return 0


__all__ = ["InputFn", "Session"]
