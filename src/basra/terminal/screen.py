"""What the person at ``basra play`` sees: cards, the table, each commitment, deal, play
and round's scoring, the revealed server seeds and the winner, on a
:class:`rich.console.Console`.

A card is shown with its suit symbol (``10♦``, red for diamonds and hearts) when the
console writes UTF-8, else by its name (``10D``). :class:`Screen` writes nothing but what
it is asked to show: the session (:mod:`basra.terminal.session`) tells it what happened.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from basra.bots.medium import score_plays
from basra.game.cards import NAMES, RANK, SUIT, Card, CardSet, cards_of
from basra.game.engine import Match, Round, RoundResult
from basra.game.rules import Rules
from basra.game.seating import Seating
from basra.game.shuffle import commitment
from basra.game.views import SeatView
from basra.match.driver import Played, RoundSeeds
from basra.match.records import Fairness
from basra.terminal.help_words import COMMANDS_HELP, PARTS_EXPLAINED, rules_help

ME = 0
"""The person's seat."""

SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RED_SUITS = frozenset({1, 2})


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


def winner_first(scores: Sequence[int], winner: int) -> str:
    """Scores as ``121 – 80``: the winner's first, then the others in side order."""
    ordered = [scores[winner], *(n for s, n in enumerate(scores) if s != winner)]
    return " – ".join(str(n) for n in ordered)


class Screen:
    """The screen of one match of ``basra play``: the console, and what it needs to name
    the seats and sides (the rules, the seating and each seat's label, the person's
    first)."""

    def __init__(self, console: Console, rules: Rules, seating: Seating,
                 labels: Sequence[str]) -> None:
        self.console = console
        self.rules = rules
        self.seating = seating
        self.seats = seating.seats
        self.teams = seating.teams
        self.labels = list(labels)
        self.symbols = console.encoding.lower().replace("-", "").startswith("utf")

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

    @staticmethod
    def basra_text(points: int) -> list[Text]:
        if not points:
            return []
        return [Text(f"  BASRA! +{points}", style="bold magenta")]

    def show_help(self) -> None:
        """The variant's rules and the commands."""
        for line in [*rules_help(self.rules), *COMMANDS_HELP]:
            self.say(line)

    # ------------------------------------------------------------------ the match

    def intro(self, level: str, seed: str | None) -> None:
        """The match's opening lines: the variant, who plays, how the decks are made."""
        rules = self.rules
        self.console.rule(Text(f"Basra · {rules.name}", style="bold"))
        self.say(rules.description)
        if rules.length == "short":
            self.say(f"A shorter match: the first side to {rules.target} wins.", style="bold")
        if self.teams:
            table = (f"You and your partner Bot 2 (seat 2) against Bot 1 and Bot 3 "
                     f"({level} bots).")
        else:
            others = ", ".join(self.labels[1:])
            table = f"You (seat 0) against {others} ({level} bot"
            table += "s)." if self.seats > 2 else ")."
        self.say(table)
        self.say("Each round's deck is a fair shuffle: the server commits to its seed before "
                 "the round, mixes it with the client seed, and reveals it afterwards.")
        self.say(PARTS_EXPLAINED)
        if seed is not None:
            self.say(Text(f"--seed {seed}: the server seeds and your random parts come from "
                          "the seed; the game is reproducible, NOT provably fair.",
                          style="bold yellow"))
        self.say("Type help at any prompt for the rules and the commands.", style="dim")

    def show_commitment(self, seeds: RoundSeeds) -> None:
        self.say()
        self.say(f"Round {seeds.number} commitment: ", Text(seeds.commitment, style="bold"))
        self.say("  (SHA-256 of the server seed, which is revealed after the round)",
                 style="dim")

    def show_deal(self, number: int, fairness: Fairness, rnd: Round) -> None:
        """Round ``number`` is dealt from ``fairness``'s seeds: ``rnd`` is its start."""
        self.say(f"Round {number} client seed: ", Text(fairness.client_seed, style="bold"),
                 Text("  (your part, then each bot's)", style="dim"), wrap=False)
        first = rnd.turn
        self.say()
        self.console.rule(Text(f"Round {number}", style="bold"))
        dealer = "You deal" if rnd.dealer == ME else f"{self.labels[rnd.dealer]} deals"
        opener = "you play" if first == ME else f"{self.labels[first]} plays"
        self.say(f"{dealer}; {opener} first. Opening floor: ", self.cards(rnd.floor))

    def announce(self, event: Played, rnd: Round) -> None:
        """A play was applied; ``rnd`` is the round after it."""
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
        if not rnd.finished and rnd.dealt != before.dealt:
            self.say(Text(f"Deal {rnd.deal_number} of {self.deals}: "
                          f"{self.rules.deal_size} new cards each, "
                          f"{rnd.stock_left} left in the stock.", style="dim"))

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

    def round_over(self, match: Match, carry_in: int) -> None:
        """The round just ended: where the floor's last cards go, and the scoring
        (``carry_in``: the carry the round started with)."""
        rnd = match.round
        assert rnd is not None and rnd.finished
        result = match.results[-1]
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
        self.show_scores(match, result, carry_in)

    def show_scores(self, match: Match, result: RoundResult, carry_in: int) -> None:
        number = len(match.results)
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
                self.say(f"The carry of {carry_in} landed with "
                         f"{self.side_label(landed[0])}.", style="yellow")
        if result.set_winner is not None:
            won = winner_first(result.totals, result.set_winner)
            sets = " · ".join(f"{self.side_label(s)}: {n}" for s, n in enumerate(match.sets))
            self.say(f"Set {sum(match.sets)} goes to {self.side_label(result.set_winner)} "
                     f"({won}). Sets: {sets}.", style="bold")
        elif match.winner is None:
            totals = " · ".join(f"{self.side_label(s)}: {t}" for s, t in
                                enumerate(match.totals))
            self.say(f"Totals: {totals} (target {match.target}).", style="bold")

    def reveal(self, fairness: Fairness) -> None:
        """A round's server seed, checked against its commitment."""
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

    def announce_winner(self, match: Match) -> None:
        winner = match.winner
        assert winner is not None
        result = match.results[-1]
        self.say()
        if self.rules.sets_to_win > 1:
            score = f"{winner_first(match.sets, winner)} in sets"
        else:
            score = winner_first(result.totals, winner)
        if winner == self.my_side:
            who = "Your side wins" if self.teams else "You win"
        else:
            who = f"{self.side_label(winner)} win{'' if self.teams else 's'}"
        self.console.rule(Text(f"{who} the match, {score}!", style="bold green"))


__all__ = ["ME", "Screen", "by_rank", "card_label", "card_text", "cards_line", "winner_first"]
