"""``basra play``: a whole match against bots in the terminal.

The person sits in seat 0; every other seat is a bot of the chosen level (with ``--teams``
and four players, seat 2 is the person's partner). Each round's deck is the fair shuffle of
FAIRNESS.md: a fresh server seed whose commitment is shown before the round, mixed with a
client seed of one part per seat joined by ``|`` in seat order, and revealed after the
round. The parts follow FAIRNESS.md's "Seat parts": the person's is made afresh for each
round after its commitment is shown (their own text, if any, then fresh random bytes:
:func:`~basra.shuffle.fresh_part`) and never reused; each bot's is
:func:`~basra.shuffle.seat_part` of the round's server seed, fixed by the commitment. The
match is written as a basra-record/1 file (RECORDS.md), which passes ``basra verify``,
when it ends, when the person quits, and when the input ends.

Everything the person sees goes through a :class:`rich.console.Console`; every answer comes
from ``input_fn``. Bad input gets a one-line hint and the question again, never a traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import textwrap
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from basra.bots import LEVELS, Bot, make_bot
from basra.bots.medium import score_plays
from basra.cards import JACKS, NAMES, RANK, SUIT, Card, CardSet, cards_of, parse_card
from basra.cliargs import OneLineParser, parse_or_status
from basra.driver import (
    Committed,
    Dealt,
    Event,
    MatchDriver,
    MatchOver,
    Played,
    RoundOver,
    RoundSeeds,
)
from basra.engine import Match, Play, RoundResult, describe_bad_take
from basra.errors import BasraError, CardNotationError
from basra.records import Fairness, dumps
from basra.rules import PowerBasra, Rules, find_variant
from basra.seating import Seating
from basra.shuffle import OWN_TEXT_BYTES, commitment, fresh_part, part_problem
from basra.views import SeatView

InputFn = Callable[[str], str]

ME = 0
"""The person's seat."""

SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RED_SUITS = frozenset({1, 2})

HELP_WIDTH = 92
"""Help lines are wrapped to this width (the screen is at least 80 columns, mostly)."""

QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "h", "?"})


def build_parser() -> OneLineParser:
    """The ``basra play`` argument parser."""
    parser = OneLineParser(
        prog="basra play",
        description="Play a match of Basra against bots in the terminal. You sit in seat 0.",
    )
    parser.add_argument("--variant", default="egyptian", metavar="V",
                        help="egyptian (default), arabic101, lebanese or serbian")
    parser.add_argument("--bot", default="medium", choices=list(LEVELS), metavar="LEVEL",
                        help=f"the bots' level: {', '.join(LEVELS)} (default medium)")
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="players at the table, you included (default 2)")
    parser.add_argument("--teams", action="store_true",
                        help="four players in two teams: seat 2 is your partner")
    parser.add_argument("--seed", metavar="S",
                        help="make bots and seeds reproducible (for testing: the server seeds "
                        "and your random parts are then derived from S, so the game is not "
                        "provably fair)")
    parser.add_argument("--client-seed", metavar="TEXT",
                        help="your own text in your part of each round's client seed (fresh "
                        "random bytes are added every round; otherwise you are asked, Enter "
                        "for none)")
    parser.add_argument("--name", metavar="NAME",
                        help="your name in the match record (not starting with 'bot:')")
    parser.add_argument("--save", default=".", metavar="DIR",
                        help="where to save the match record (default: the current directory)")
    return parser


# --------------------------------------------------------------------------- cards on screen


def card_label(card: Card, symbols: bool = True) -> str:
    """A card as the screen shows it: ``10♦`` (or ``10D`` without suit symbols)."""
    name = NAMES[card]
    return name[:-1] + SUIT_SYMBOLS[SUIT[card]] if symbols else name


def card_text(card: Card, symbols: bool = True) -> Text:
    """A card styled for the screen: red for diamonds and hearts."""
    style = "bold red" if SUIT[card] in RED_SUITS else "bold"
    return Text(card_label(card, symbols), style=style)


def by_rank(cards: Sequence[Card] | CardSet) -> list[Card]:
    """Cards sorted by rank, then suit (how a player holds them)."""
    items = cards_of(cards) if isinstance(cards, int) else list(cards)
    return sorted(items, key=lambda c: (RANK[c], SUIT[c]))


def cards_line(cards: Sequence[Card] | CardSet, symbols: bool = True, sep: str = "  ",
               empty: str = "nothing") -> Text:
    """Several cards, sorted by rank, on one line."""
    ordered = by_rank(cards)
    if not ordered:
        return Text(empty, style="dim")
    return Text(sep).join(card_text(c, symbols) for c in ordered)


# --------------------------------------------------------------------------- rules help


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


# --------------------------------------------------------------------------- the session


class _Stop(Exception):
    """The person stopped the match: ``quit`` (confirmed), end of input, or Ctrl-C."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Hint(Exception):
    """Bad input: the message is the one-line hint to show."""


def _derived(seed: str, *parts: object) -> str:
    """A hex digest derived from ``--seed`` (reproducible games, for testing)."""
    text = "|".join(["basra-play", seed, *map(str, parts)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seeded_server_seed(seed: str, nonce: int) -> str:
    """With ``--seed``: round ``nonce``'s server seed, derived from the seed."""
    return _derived(seed, "server", nonce)


def seeded_part(seed: str, nonce: int, own_text: str = "") -> str:
    """With ``--seed``: the person's part of round ``nonce``'s client seed, its random bytes
    derived from the seed (their own text, if any, cut, a ``.`` and 8 bytes; else 16)."""
    noise = _derived(seed, "part", nonce)
    return f"{own_text_cut(own_text)}.{noise[:16]}" if own_text else noise[:32]


def own_text_cut(own_text: str) -> str:
    """The person's own text as it goes into their part: its first
    :data:`~basra.shuffle.OWN_TEXT_BYTES` bytes at most, cut at a character boundary."""
    return own_text.encode("utf-8")[:OWN_TEXT_BYTES].decode("utf-8", "ignore")


def own_text_problem(own_text: str) -> str | None:
    """Why ``own_text`` cannot go into the person's part of the client seed, or None."""
    if not own_text:
        return None
    problem = part_problem(f"{own_text_cut(own_text)}.{'0' * 16}")
    return None if problem is None else problem[0].upper() + problem[1:] + "."


PARTS_EXPLAINED = ("The client seed is one part per seat: yours is your text plus fresh "
                   "randomness, chosen after you see the commitment; each bot's part is derived "
                   "from the server seed, so the server cannot pick it.")


class Session:
    """One match of ``basra play``: the table, the bots and the dialogue, around a
    :class:`~basra.driver.MatchDriver` that holds the match, its seeds and its record. The
    session is every seat's player (the person's prompt, or a bot), and it shows what the
    driver's events say: each commitment, deal, play, round's end and the winner."""

    def __init__(self, args: argparse.Namespace, rules: Rules, seating: Seating,
                 console: Console, input_fn: InputFn) -> None:
        self.args = args
        self.rules = rules
        self.seating = seating
        self.seats = seating.seats
        self.teams = seating.teams
        self.console = console
        self.input_fn = input_fn
        self.seed: str | None = args.seed
        self.symbols = console.encoding.lower().replace("-", "").startswith("utf")
        self.echo = not console.is_terminal
        self.me = args.name or "you"
        self.bots: dict[int, Bot] = {
            seat: make_bot(args.bot, None if self.seed is None else f"{self.seed}|bot|{seat}")
            for seat in range(1, self.seats)
        }
        self.labels = [self.me] + [f"Bot {seat}" for seat in range(1, self.seats)]
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

    # ------------------------------------------------------------------ output helpers

    def say(self, *parts: str | Text, style: str = "", wrap: bool = True) -> None:
        """Print one line; ``wrap=False`` leaves long lines (paths, commands) whole, for
        copying."""
        text = Text(style=style)
        for part in parts:
            text.append(part)
        self.console.print(text, highlight=False, soft_wrap=not wrap)

    def hint(self, message: str) -> None:
        self.say(Text(message, style="yellow"))

    def card(self, card: Card) -> Text:
        return card_text(card, self.symbols)

    def cards(self, cards: Sequence[Card] | CardSet, empty: str = "nothing") -> Text:
        return cards_line(cards, self.symbols, empty=empty)

    @property
    def match(self) -> Match:
        return self.driver.match

    @property
    def my_side(self) -> int:
        return self.seating.side_of(ME)

    def side_label(self, side: int) -> str:
        return self.seating.side_names(self.labels)[side]

    def side_subject(self, side: int) -> str:
        """A side as the subject of a sentence."""
        if side == self.my_side:
            return "Your side" if self.teams else "You"
        return self.side_label(side)

    @property
    def deals(self) -> int:
        return 48 // (self.seats * self.rules.deal_size)

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
        self.say("Going on.", style="dim")

    # ------------------------------------------------------------------ the match

    def run(self) -> int:
        self.intro()
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

    def intro(self) -> None:
        rules = self.rules
        self.console.rule(Text(f"Basra · {rules.name}", style="bold"))
        self.say(rules.description)
        if self.teams:
            table = (f"You and your partner Bot 2 (seat 2) against Bot 1 and Bot 3 "
                     f"({self.args.bot} bots).")
        else:
            others = ", ".join(self.labels[1:])
            table = f"You (seat 0) against {others} ({self.args.bot} bot"
            table += "s)." if self.seats > 2 else ")."
        self.say(table)
        self.say("Each round's deck is a fair shuffle: the server commits to its seed before "
                 "the round, mixes it with the client seed, and reveals it afterwards.")
        self.say(PARTS_EXPLAINED)
        if self.seed is not None:
            self.say(Text(f"--seed {self.seed}: the server seeds and your random parts come from "
                          "the seed; the game is reproducible, NOT provably fair.",
                          style="bold yellow"))
        self.say("Type help at any prompt for the rules and the commands.", style="dim")

    def prepare_round(self) -> None:
        """Draw the next round's server seed (the driver shows its commitment)."""
        nonce = self.driver.next_round
        self.driver.commit(None if self.seed is None else seeded_server_seed(self.seed, nonce))

    def show_commitment(self, seeds: RoundSeeds) -> None:
        self.say()
        self.say(f"Round {seeds.number} commitment: ", Text(seeds.commitment, style="bold"))
        self.say("  (SHA-256 of the server seed, which is revealed after the round)",
                 style="dim")

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
            self.hint(problem)
            return False
        self.own_text = text
        if not text:
            self.say("Your client seed text: none (your part is 16 random bytes, new each "
                     "round).")
            return True
        cut = own_text_cut(text)
        if cut != text:
            self.say(f"Only the first {OWN_TEXT_BYTES} bytes of your text are used.",
                     style="dim")
        self.say("Your client seed text: ", Text(cut, style="bold"),
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
                self.say(f"Any text (its first {OWN_TEXT_BYTES} bytes, no '|'): each round "
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
                for line in [*rules_help(self.rules), *COMMANDS_HELP]:
                    self.say(line)
                self.say(PARTS_EXPLAINED)
            elif word.lower() == "seed":
                self.set_own_text(rest.strip())
            else:
                self.hint(f"{answer!r} is not understood: press Enter to deal, "
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
            self.show_commitment(event.seeds)
        elif isinstance(event, Dealt):
            self.show_deal(event)
        elif isinstance(event, Played):
            self.announce(event)
        elif isinstance(event, RoundOver):
            self.round_over()
        elif isinstance(event, MatchOver):
            self.announce_winner()

    def show_deal(self, event: Dealt) -> None:
        assert event.seeds is not None
        fairness = event.seeds.fairness
        assert fairness is not None
        self.say(f"Round {event.number} client seed: ", Text(fairness.client_seed, style="bold"),
                 Text("  (your part, then each bot's)", style="dim"), wrap=False)
        self.carry_in = self.match.carry
        self.fairness = fairness
        rnd = self.match.round
        assert rnd is not None
        first = rnd.turn
        self.say()
        self.console.rule(Text(f"Round {event.number}", style="bold"))
        dealer = "You deal" if rnd.dealer == ME else f"{self.labels[rnd.dealer]} deals"
        opener = "you play" if first == ME else f"{self.labels[first]} plays"
        self.say(f"{dealer}; {opener} first. Opening floor: ", self.cards(rnd.floor))

    def bot_play(self, seen: SeatView) -> Play:
        assert seen.seat is not None
        bot = self.bots[seen.seat]
        if bot.level == "hard" and self.console.is_terminal:
            with self.console.status(f"{self.labels[seen.seat]} is thinking…"):
                return bot.choose(seen)
        return bot.choose(seen)

    def announce(self, event: Played) -> None:
        seat, (card, take), basra = event.seat, event.play, event.log.basra
        before = event.before.round
        assert before is not None
        floor = before.floor
        who = "You" if seat == ME else self.labels[seat]
        s = "" if seat == ME else "s"
        if not take:
            self.say(f"{who} lay{s} ", self.card(card), " on the floor.")
        elif take == floor and self.rules.is_power(card):
            self.say(f"{who} sweep{s} the floor with ", self.card(card), ": ", self.cards(take),
                     ".", *self.basra_text(basra))
        else:
            cleared = " and clear the floor" if seat == ME else " and clears the floor"
            self.say(f"{who} play{s} ", self.card(card), f" and take{s} ", self.cards(take),
                     cleared if take == floor else "", ".", *self.basra_text(basra))
        rnd = self.match.round
        assert rnd is not None
        if not rnd.finished and rnd.dealt != before.dealt:
            self.say(Text(f"Deal {rnd.deal_number} of {self.deals}: "
                          f"{self.rules.deal_size} new cards each, "
                          f"{rnd.stock_left} left in the stock.", style="dim"))

    @staticmethod
    def basra_text(points: int) -> list[Text]:
        if not points:
            return []
        return [Text(f"  BASRA! +{points}", style="bold magenta")]

    # ------------------------------------------------------------------ the person's turn

    def show_table(self, v: SeatView) -> None:
        title = f"Round {v.round_number} · deal {v.deal_number} of {self.deals} · your turn"
        self.say()
        self.console.rule(Text(title, style="bold"), style="dim")
        multi_set = self.rules.sets_to_win > 1
        if multi_set:
            info = Text(f"{self.rules.name}, set {sum(v.sets) + 1} to {v.target}, "
                        f"first to {self.rules.sets_to_win} sets")
        else:
            info = Text(f"{self.rules.name}, first to {v.target}")
        info.append(f" · stock {v.stock_count}")
        if v.carry:
            info.append(f" · carry {v.carry}", style="bold yellow")
        if v.dealer is not None:
            info.append(f" · dealer {self.labels[v.dealer]}")
        self.console.print(info, highlight=False)
        table = Table(box=None, padding=(0, 2), show_edge=False, header_style="dim")
        table.add_column("side")
        for column in ("sets", "total", "pile", "basras")[0 if multi_set else 1:]:
            table.add_column(column, justify="right")
        table.add_column("in hand", justify="right")
        for side in range(self.seating.sides):
            held = " · ".join(str(v.hand_counts[s]) for s in self.seating.seats_of(side))
            basras = str(v.basras[side])
            if v.basra_points[side]:
                basras += f" ({v.basra_points[side]})"
            label = Text(self.side_label(side), style="bold" if side == self.my_side else "")
            row = [str(v.totals[side]), str(v.pile_counts[side]), basras, held]
            if multi_set:
                row.insert(0, str(v.sets[side]))
            table.add_row(label, *row)
        self.console.print(table)
        self.say(Text("Floor  ", style="bold"), self.cards(v.floor, empty="(empty)"))
        line = Text("Hand   ", style="bold")
        for i, c in enumerate(self.hand_order(v), 1):
            line.append(f"{i}) ")
            line.append(self.card(c))
            line.append("   ")
        self.console.print(line, highlight=False)

    @staticmethod
    def hand_order(v: SeatView) -> list[Card]:
        return by_rank(v.hand)

    def my_turn(self, v: SeatView) -> Play:
        self.show_table(v)
        hand = self.hand_order(v)
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
                    for line in [*rules_help(self.rules), *COMMANDS_HELP]:
                        self.say(line)
                    self.show_table(v)
                    continue
                if word == "hint":
                    self.show_hint(v)
                    continue
                if word in {"plays", "log"}:
                    if self.show_plays(v):
                        self.show_table(v)
                    continue
                if word in {"table", "t"}:
                    self.show_table(v)
                    continue
                if ":" in answer:
                    return self.parse_full_play(answer, v)
                card = self.parse_card_choice(answer, hand)
                chosen = self.choose_take(card, v)
                if chosen is not None:
                    return chosen
            except _Hint as bad:
                self.hint(str(bad))

    def parse_card_choice(self, answer: str, hand: Sequence[Card]) -> Card:
        """The hand card that ``answer`` names by number or by name; :class:`_Hint` if none."""
        n = len(hand)
        if not answer:
            raise _Hint(f"Type a number from 1 to {n} or a card such as "
                        f"{NAMES[hand[0]]} (help for the commands).")
        if answer.isdigit():
            index = int(answer)
            if not 1 <= index <= n:
                raise _Hint(f"{answer} is out of range: your hand has {n} card"
                            f"{'s' if n > 1 else ''}, 1 to {n}.")
            return hand[index - 1]
        try:
            card = parse_card(answer)
        except CardNotationError:
            raise _Hint(f"{answer!r} is not a card or a command: type 1-{n}, a card such as "
                        f"{NAMES[hand[0]]}, or help.") from None
        if card not in hand:
            raise _Hint(f"{card_label(card, self.symbols)} is not in your hand.")
        return card

    def parse_full_play(self, answer: str, v: SeatView) -> Play:
        """A play written as ``5H:4C+AD`` (or ``2:4C+AD`` with the card's number);
        :class:`_Hint` if it is not a legal one."""
        card_text, _, take_text = answer.partition(":")
        card = self.parse_card_choice(card_text.strip(), self.hand_order(v))
        try:
            move = Play.parse(f"{NAMES[card]}:{take_text}")
        except CardNotationError as exc:
            raise _Hint(f"{exc}.") from None
        if move in v.legal:
            return move
        floor = 0
        for c in v.floor:
            floor |= 1 << c
        options = tuple(p.take for p in v.legal if p.card == move.card)
        raise _Hint(describe_bad_take(move.card, move.take, floor, options) + ".")

    def choose_take(self, card: Card, v: SeatView) -> Play | None:
        """The play of ``card``, asking which take when it has several; None to go back."""
        options = sorted((p for p in v.legal if p.card == card),
                         key=lambda p: (-p.take.bit_count(), by_rank(p.take)))
        if len(options) == 1:
            return options[0]
        self.say(self.card(card), " can take:")
        for i, p in enumerate(options, 1):
            self.say(f"  {i}) ", self.cards(p.take))
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
            self.hint(f"Type a number from 1 to {len(options)} for the take, or back to "
                      "choose another card.")

    def show_hint(self, v: SeatView) -> None:
        scored = score_plays(v)
        best = max(value for value, _ in scored)
        move = next(p for value, p in scored if value >= best - 1e-9)
        if move.take:
            self.say("Hint (medium bot): play ", self.card(move.card), " taking ",
                     self.cards(move.take), ".", style="green")
        else:
            self.say("Hint (medium bot): lay ", self.card(move.card), " on the floor.",
                     style="green")

    def show_plays(self, v: SeatView) -> bool:
        """List this round's plays; False when there is none yet."""
        if not v.plays:
            self.say("No plays yet this round. Opening floor: ", self.cards(v.opening_floor))
            return False
        self.say("This round so far (opening floor: ", self.cards(v.opening_floor), "):")
        for p in v.plays:
            who = self.labels[p.seat]
            if p.take:
                self.say(f"  {who}: ", self.card(p.card), " takes ", self.cards(p.take),
                         *self.basra_text(p.basra))
            else:
                self.say(f"  {who}: ", self.card(p.card), " laid down")
        return True

    # ------------------------------------------------------------------ end of a round

    def round_over(self) -> None:
        rnd = self.match.round
        assert rnd is not None and rnd.finished
        result = self.match.results[-1]
        if rnd.leftover:
            receiver = rnd.last_taker if rnd.last_taker >= 0 else self.seating.side_of(rnd.dealer)
            why = "the last capture" if rnd.last_taker >= 0 else "the deal (nobody captured)"
            target = ("you" if receiver == self.my_side and not self.teams
                      else ("your side" if receiver == self.my_side
                            else self.side_label(receiver)))
            self.say("The cards left on the floor, ", self.cards(rnd.leftover),
                     f", go to {target} for {why}.")
        else:
            self.say("The floor is empty at the end of the round.")
        self.show_scores(result)
        self.reveal()

    def show_scores(self, result: RoundResult) -> None:
        number = len(self.match.results)
        table = Table(title=f"Round {number} scoring", box=box.SIMPLE_HEAD, padding=(0, 1),
                      title_style="bold")
        table.add_column("side")
        for name in ("cards", "majority"):
            table.add_column(name, justify="right")
        table.add_column("card points")
        for name in ("basras", "round", "total"):
            table.add_column(name, justify="right")
        for side, score in enumerate(result.scores):
            majority = str(score.majority) if score.majority else "-"
            if score.carry:
                majority += f" + {score.carry} carry"
            points = Text(f"{score.card_points}")
            if score.scoring_cards:
                points.append("  ")
                points.append(self.cards(score.scoring_cards))
            basras = (f"{score.basras} = {score.basra_points}" if score.basras else "-")
            table.add_row(Text(self.side_label(side)), str(score.cards), majority, points, basras,
                          str(score.points), str(result.totals[side]))
        self.console.print(table)
        rules = self.rules
        if rules.majority == "27-of-52":
            landed = [s for s, sc in enumerate(result.scores) if sc.carry]
            if not any(sc.majority for sc in result.scores):
                if result.carry:
                    self.say(f"26-26: nobody wins the majority; {rules.majority_points} is "
                             f"carried over (carry now {result.carry}).", style="yellow")
                else:
                    self.say("26-26: nobody wins the majority; the carry lapses as the "
                             "race is over.", style="yellow")
            elif landed:
                self.say(f"The carry of {self.carry_in} landed with "
                         f"{self.side_label(landed[0])}.", style="yellow")
        if result.set_winner is not None:
            won = winner_first(result.totals, result.set_winner)
            sets = " · ".join(f"{self.side_label(s)}: {n}" for s, n in enumerate(self.match.sets))
            self.say(f"Set {sum(self.match.sets)} goes to {self.side_label(result.set_winner)} "
                     f"({won}). Sets: {sets}.", style="bold")
        elif self.match.winner is None:
            totals = " · ".join(f"{self.side_label(s)}: {t}" for s, t in
                                enumerate(self.match.totals))
            self.say(f"Totals: {totals} (target {self.match.target}).", style="bold")

    def reveal(self) -> None:
        fairness = self.fairness
        if fairness is None:
            return
        ok = commitment(fairness.server_seed) == fairness.commitment
        self.say(f"Round {fairness.nonce} server seed: ", Text(fairness.server_seed,
                                                                 style="bold"))
        mark = Text("✓ matches the commitment" if ok else "✗ does NOT match the commitment",
                    style="green" if ok else "bold red")
        self.say("  SHA-256 ", fairness.commitment[:16], "…  ", mark)
        self.say("  check the deck: ", Text(
            f"basra shuffle --server-seed {fairness.server_seed} --client-seed "
            f"{shlex.quote(fairness.client_seed)} --nonce {fairness.nonce}"), style="dim",
            wrap=False)
        self.fairness = None

    def announce_winner(self) -> None:
        winner = self.match.winner
        assert winner is not None
        result = self.match.results[-1]
        self.say()
        if self.rules.sets_to_win > 1:
            score = f"{winner_first(self.match.sets, winner)} in sets"
        else:
            score = winner_first(result.totals, winner)
        if winner == self.my_side:
            who = "Your side wins" if self.teams else "You win"
        else:
            who = f"{self.side_label(winner)} win{'' if self.teams else 's'}"
        self.console.rule(Text(f"{who} the match, {score}!", style="bold green"))

    # ------------------------------------------------------------------ stopping, saving

    def stopped(self, reason: str) -> int:
        messages = {
            "quit": "You quit the match.",
            "eof": "Input ended: the match stops here.",
            "interrupt": "Interrupted: the match stops here.",
        }
        self.say()
        self.say(messages[reason], style="bold")
        if self.fairness is not None:
            self.say("The round in play is unfinished; its server seed is revealed now.")
            self.reveal()
        status = self.save()
        if status:
            return status
        return 130 if reason == "interrupt" else 0

    def save(self) -> int:
        record = self.driver.record.build()
        if not record.rounds:
            self.say("No round was dealt, so there is no record to save.")
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
            self.say(Text(f"Could not save the match record in {str(folder)!r}: "
                          f"{exc.strerror or exc}", style="bold red"))
            return 1
        self.saved = path
        self.say("Match record saved: ", Text(str(path), style="bold"), wrap=False)
        quoted = shlex.quote(str(path))
        self.say(f"  check it: basra verify {quoted}", style="dim", wrap=False)
        self.say(f"            basra replay {quoted}", style="dim", wrap=False)
        return 0


def winner_first(scores: Sequence[int], winner: int) -> str:
    """Scores as ``121 – 80``: the winner's first, then the others in side order."""
    ordered = [scores[winner], *(n for s, n in enumerate(scores) if s != winner)]
    return " – ".join(str(n) for n in ordered)


def main(argv: list[str] | None = None, *, input_fn: InputFn = input,
         console: Console | None = None) -> int:
    """Run ``basra play``; returns the exit status (2 for bad arguments)."""
    parser = build_parser()
    args = parse_or_status(parser, argv)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    try:
        rules = find_variant(args.variant)
        seating = Seating.choose(rules, args.players, args.teams)
        if args.client_seed is not None:
            problem = own_text_problem(args.client_seed)
            if problem is not None:
                raise BasraError(f"--client-seed: {problem[0].lower()}{problem[1:-1]}")
        if args.name is not None and args.name.lower().startswith("bot:"):
            raise BasraError("--name may not start with 'bot:' (it marks a bot's seat in the "
                             "match record)")
    except BasraError as exc:
        return parser.complain(str(exc))
    out = console if console is not None else Console(highlight=False)
    return Session(args, rules, seating, out, input_fn).run()


__all__ = ["build_parser", "main"]
