"""A table's match as it goes: the state of one table, and what moves it along (seating
done, rounds committed and started, turns, bots asked, plays checked, committed and applied
once, the end), with what is sent after each change.

:class:`TableFlow` is a member of the table's actor (:mod:`basra.server.table.actor`), which
hands it one command at a time; it knows nothing of the actor, only the ports it is given:
its record in the store, the settings, the bot workers, the players' standing at a rated
table, and the inbox where its bots' moves and its lost connections come back. The match
itself is a :class:`~basra.match.driver.MatchDriver`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from basra.errors import IllegalPlayError
from basra.game.cards import NAMES, names_of, parse_card, parse_card_set
from basra.game.engine import Match, Play
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.game.shuffle import commitment, new_server_seed
from basra.match.driver import MatchDriver, resigned_match
from basra.match.records import MatchRecord, to_json
from basra.server import metrics
from basra.server.config import Settings
from basra.server.rated_play import too_short
from basra.server.table import snapshot
from basra.server.table.clock import Timers
from basra.server.table.commands import Command
from basra.server.table.seats import Seat, Seats
from basra.server.table.seeding import Seeding, parts
from basra.server.table.standing import Standing
from basra.server.table.thinking import Thinking
from basra.server.wire.client_messages import PlayMessage, ProtocolError
from basra.server.wire.redaction import redact
from basra.server.wire.server_messages import State
from basra.store.base import PlayRow, RatedGame, TableLog, TableRow, TableStatus
from basra.store.ports import TableStore
from basra.workers.service import BotService

RESUME_LEAST = 5.0
"""Seconds a rebuilt table's player to move has at least, whatever their stored clock says."""

log = logging.getLogger("basra.table")


def turn_began(log_: TableLog) -> float | None:
    """When (``time.time()``) the turn of a stored round in play began: its last play was
    stored then, or the round started then."""
    if not log_.rounds or log_.rounds[-1].client_seed is None:
        return None
    last = log_.rounds[-1]
    plays = [p.created_at for p in log_.plays if p.round_number == last.number]
    moment = plays[-1] if plays else last.started_at
    return None if moment is None else moment.timestamp()



def places(match: Match, resigned: int | None = None) -> tuple[int, ...]:
    """Each side's place at the end of the decided ``match`` (the rating's): the winner
    first, then the others by sets and points, the side of a player who resigned
    (``resigned``: their seat) last; sides level share a place."""
    loser = None if resigned is None else match.side_of(resigned)

    def standing(side: int) -> tuple[int, int, int, int]:
        return (side == match.winner, side != loser, match.sets[side], match.totals[side])

    return tuple(sum(standing(other) > standing(side) for other in range(match.sides))
                 for side in range(match.sides))

class TableFlow:
    """A table's state and the steps of its match; the actor (``Table``) drives it. It is
    a :class:`~basra.server.table.snapshot.TableState`: what every snapshot reads."""

    def __init__(  # noqa: PLR0913 - the ports the actor was given, and its inbox
            self, row: TableRow, seats: Seats, store: TableStore, settings: Settings,
            inbox: asyncio.Queue[Command], *, bots: BotService | None = None,
            standing: Standing | None = None,
            on_end: Callable[[TableRow], None] | None = None) -> None:
        self.row = row
        self.rules = find_variant(row.variant, row.length)
        self.on_end = on_end
        """Told when the match ends (the lobby tells the tournaments)."""
        self.seats = seats
        self.store = store
        self.settings = settings
        self.standing = standing
        """Where a rated table reads its players' ratings and eligibility (None: nowhere;
        no rating is shown and none is checked, as in the actor's unit tests)."""
        self.driver = MatchDriver(self.rules, Seating(row.seats, row.teams), seats.names())
        self.version = 0
        self.status: TableStatus = row.status
        self.audience = snapshot.Audience(inbox)
        self.timers = Timers()
        self.seeding = Seeding()
        self.thinking = Thinking(inbox, bots)
        self.rematch_table: str | None = None
        self.turn_began: float | None = None
        """A table rebuilt from the store: when its turn in play began (``time.time()``),
        so that the clock goes on from its stored deadline."""
        self.finished_at: float | None = None
        """When the match ended (monotonic): the lobby evicts the table a while after."""
        self.result: dict[str, Any] | None = row.result if row.status == "finished" else None
        """The finished match's result as stored (with its rating changes if rated)."""
        self.played: set[int] = set()
        """The seats whose players have made a play themselves in this match (not their
        bot): a rated match that ends before both have is aborted, not rated."""
        self.empty_since: float | None = time.monotonic()
        """Since when no connection is open here (None while one is)."""
        if row.status == "playing":
            self.await_arrivals()

    @property
    def clock_seconds(self) -> float:
        return self.settings.clock_seconds

    @property
    def spectators(self) -> int:
        return len(self.audience.spectators)

    # ------------------------------------------------------------------ after a restart

    def rebuild(self, log_: TableLog) -> None:
        """A table rebuilt from its stored log (:meth:`replay`), as it stood: its players
        were here before, and its turn clock goes on from its stored deadline."""
        self.replay(log_)
        # Versions only grow, across restarts too: a message made on a state from before
        # the restart can never match a state after it.
        self.version = int(time.time() * 1000)
        self.timers.arrival = None
        self.seats.all_arrived()
        if self.status == "finished":
            self.finished_at = time.monotonic()
        self.turn_began = turn_began(log_)

    def replay(self, log_: TableLog) -> None:
        """Deal every stored round again from its seeds and apply every stored play again,
        through the driver (a table rebuilt after a restart)."""
        plays_by_round: dict[int, list[PlayRow]] = {}
        for p in log_.plays:
            plays_by_round.setdefault(p.round_number, []).append(p)
        for r in log_.rounds:
            self.driver.commit(r.server_seed)
            if r.client_seed is None:
                continue
            self.driver.deal(seed=r.client_seed)
            for p in plays_by_round.get(r.number, []):
                self.driver.apply(p.seat, Play(parse_card(p.card), parse_card_set(p.take)))
                if not p.by_bot:
                    self.played.add(p.seat)
        resigned = (log_.table.result or {}).get("resigned")
        if isinstance(resigned, int) and self.driver.match.winner is None:
            self.driver.resign(resigned)

    async def resume(self) -> None:
        """After creation or restore: carry on from wherever the table is."""
        if self.status == "waiting" and self.seats.full:
            await self.set_status("playing")
        if self.status != "playing" or self.timers.arrival is not None:
            self.broadcast()
            return
        if self.driver.match.winner is not None:
            await self.finish()
        elif self.driver.match.in_round:
            self.begin_turn()
            self._resume_clock()
            self.broadcast()
        elif self.driver.pending is not None:
            self.open_seeding()
            self.broadcast()
        else:
            await self.prepare_round()

    def _resume_clock(self) -> None:
        """A rebuilt table's turn clock goes on from its stored deadline (the turn began
        when the last play or the round's start was stored), with at least
        ``RESUME_LEAST`` seconds so that the player can reconnect and see their hand."""
        began, self.turn_began = self.turn_began, None
        if self.timers.turn is None or began is None:
            return
        left = began + self.settings.clock_seconds - time.time()
        least = min(RESUME_LEAST, self.settings.clock_seconds)
        self.timers.turn = time.monotonic() + max(least, min(left,
                                                             self.settings.clock_seconds))

    # ------------------------------------------------------------------ seating

    async def show_ratings(self) -> None:
        """At a rated table: each seated player's rating as shown (read once a seat)."""
        if not self.row.rated or self.standing is None:
            return
        for seat in self.seats:
            if seat.player_id is not None and seat.rating is None:
                rating = await self.standing.rating(seat.player_id, self.row.variant)
                seat.show_rating({"rating": round(rating.rating), "label": rating.label})

    async def after_seating(self) -> None:
        await self.show_ratings()
        for seat in self.seats:
            await self.store.set_seat(self.row.id, seat.row())
        self.driver.rename(self.seats.names())
        self.version += 1
        if self.status == "waiting" and self.seats.full:
            await self.set_status("playing")
            self.await_arrivals()
            if self.timers.arrival is None:
                await self.prepare_round()
                return
        self.broadcast()

    async def set_status(self, status: TableStatus) -> None:
        self.status = status
        await self.store.set_status(self.row.id, status)

    def await_arrivals(self) -> None:
        """The first round waits for every seated player to open the table, so that each
        sees the first commitment before any card (a quick match waits less)."""
        if self.seats.missing:
            self.timers.arrival = time.monotonic() + self.seats.arrival_wait(
                self.row, self.settings)

    # ------------------------------------------------------------------ rounds

    async def prepare_round(self) -> None:
        """Draw the next round's server seed, store it and publish its commitment. The
        round starts once every connected player sent a part for it (or said ready), or
        when the seed window ends; never before the commitment reached every connection."""
        if self.status != "playing":
            return  # decided (resigned) or given up meanwhile: no more rounds
        seed = new_server_seed()
        await self.store.add_round(self.row.id, self.driver.next_round, seed,
                                   commitment(seed))
        self.driver.commit(seed)
        self.version += 1
        self.open_seeding()
        self.broadcast()
        await self.maybe_start()

    def open_seeding(self) -> None:
        """The first round waits the seed window; every later one waits while the players
        look at the last round's summary, until each connected player continues."""
        window = self.settings.seed_window_seconds
        if self.driver.match.rounds_started:
            window = max(window, self.settings.summary_seconds)
        self.seeding.start(self.seats, window)

    async def maybe_start(self, window_over: bool = False) -> bool:
        """Start the pending round if it may start now; whether it started."""
        if not self.seeding.may_start(self.seats, window_over):
            return False
        self.seeding.close()
        pending = self.driver.pending
        assert pending is not None
        client_seed = self.driver.client_seed(parts(self.seats))
        await self.store.start_round(self.row.id, pending.number, client_seed)
        self.driver.deal(seed=client_seed)
        self.version += 1
        self.begin_turn()
        self.broadcast()
        return True

    # ------------------------------------------------------------------ turns

    def to_play(self) -> int | None:
        """The seat to move, while the table is playing."""
        return self.driver.to_play if self.status == "playing" else None

    def begin_turn(self) -> None:
        self.timers.turn = None
        seat_no = self.to_play()
        if seat_no is None:
            return
        seat = self.seats[seat_no]
        if seat.human and not seat.takeover:
            self.timers.turn = time.monotonic() + self.settings.clock_seconds
        else:
            self.think(immediately=False)

    def schedule_bot(self) -> None:
        seat_no = self.to_play()
        if seat_no is not None and not self.thinking.busy:
            seat = self.seats[seat_no]
            if not seat.human or seat.takeover:
                self.timers.turn = None
                self.think(immediately=False)

    def think(self, immediately: bool) -> None:
        seat_no = self.to_play()
        if seat_no is None:
            return
        delay = 0.0 if immediately else self.settings.bot_delay_seconds
        self.thinking.start(self.seats[seat_no].bot, seat_no, self.driver.view(seat_no),
                            self.version, delay)

    async def human_play(self, seat: Seat, message: PlayMessage) -> None:
        if self.status == "finished":
            raise ProtocolError("the match is over", "play/match_over")
        if message.version != self.version:
            raise ProtocolError(f"the table is at version {self.version}, not "
                                f"{message.version}: play on the latest state", "play/stale")
        turn = self.to_play()
        if turn is None:
            raise ProtocolError("no round is in progress", "play/no_round")
        if turn != seat.number:
            raise ProtocolError(f"it is seat {turn}'s turn", "play/not_your_turn")
        move = Play(message.card, message.take)
        try:
            after = self.driver.check(seat.number, move)
        except IllegalPlayError as exc:  # the player's play refused, in the engine's words
            raise ProtocolError(exc.message, exc.code) from None
        await self.play(seat.number, move, after, by_bot=False)

    async def play(self, seat: int, move: Play, after: Match, by_bot: bool) -> None:
        """Commit a checked play (``after``: the match the check made of it) to the store,
        then apply it and broadcast (timed from here to the broadcast: ``/metrics``)."""
        started = time.perf_counter()
        match = self.driver.match
        assert match.round is not None
        row = PlayRow(match.rounds_started, match.round.played + 1, seat, NAMES[move.card],
                      tuple(names_of(move.take)), by_bot, datetime.now(UTC))
        await self.store.add_play(self.row.id, row)
        self.driver.apply(seat, move, after)
        if not by_bot:
            self.played.add(seat)
        player = self.seats[seat]
        if player.human:  # what a bot played for a player is told when they are back
            player.note_play(row.round_number, row.card, list(row.take), by_bot)
        self.thinking.done()
        self.timers.turn = None
        self.version += 1
        if self.driver.match.winner is not None:
            await self.finish()
            metrics.played(by_bot, started)
            return
        if not self.driver.match.in_round:
            self.broadcast()
            metrics.played(by_bot, started)
            await self.prepare_round()
            return
        self.begin_turn()
        self.broadcast_play(by_bot)
        metrics.played(by_bot, started)

    # ------------------------------------------------------------------ the end

    async def resign(self, seat: Seat) -> None:
        """The player of ``seat`` resigns: the match ends now, lost for their side. Stored
        first, then applied (a store that fails changes nothing); not before every seated
        player has arrived (the match has not begun)."""
        if (self.status != "playing" or self.timers.arrival is not None
                or self.driver.match.winner is not None):
            raise ProtocolError("only a match in play can be resigned", "resign/not_playing")
        after = resigned_match(self.driver.match, seat.number)
        await self._store_result(after, seat.number)
        self.thinking.cancel()
        self.driver.resign(seat.number)
        await self.finish(stored=True)

    def rated_game(self, match: Match, resigned: int | None = None) -> RatedGame | None:
        """What rating the decided ``match`` needs: a rated table's players, if all are
        people and each has made a play of their own (else it is aborted: a player who
        never played, their bot playing for them from the start, is not rated)."""
        players = [s.player_id for s in self.seats]
        if not self.row.rated or self.played != set(range(len(players))):
            return None
        accounts = tuple(p for p in players if p is not None)
        if len(accounts) != len(players) or len(accounts) < 2:
            return None
        return RatedGame(self.row.variant, accounts, places(match, resigned),
                         self.row.teams)

    async def _store_result(self, match: Match, resigned: int | None) -> None:
        result = snapshot.result_json(match, resigned)
        absent = [s.number for s in self.seats if s.human and not s.arrived]
        if absent:  # a bot played their seat from the start: they never came
            result["absent"] = absent
        left = [s.number for s in self.seats
                if s.human and s.arrived and s.takeover and not s.connected
                and any(a["reason"] == "dropped" for a in s.away)]
        if left and sum(1 for s in self.seats if s.human) >= 2:
            # Gone past the grace period and never back, their bot playing for them: they
            # left people (a game against bots left is nobody's loss, and not counted).
            result["left"] = left
        rated = self.rated_game(match, resigned)
        rules = self.settings.rated_rules
        now = datetime.now(UTC)
        if rated is not None and too_short(
                match, (now - self.row.created_at).total_seconds(), rules) is not None:
            rated = None  # too little play: aborted
        if self.row.rated and rated is None:
            result["aborted"] = True  # ended before both sides played enough: not rated
            # Whose abort it is (counted against them): who never played, who resigned.
            result["aborted_by"] = sorted(
                {s.number for s in self.seats if s.number not in self.played}
                | ({resigned} if resigned is not None else set()))
        if rated is not None and self.standing is not None:
            unrated = await self.standing.unrated_reason(rated, now, rules)
            if unrated is not None:  # finished as a casual match, and says why
                result["unrated"] = unrated
                rated = None
        self.result = await self.store.finish_table(self.row.id, result, rated)

    async def finish(self, stored: bool = False) -> None:
        """The match is decided: stored (unless ``stored`` already), then every timer and
        window closed and everyone told."""
        if not stored:
            await self._store_result(self.driver.match, self.driver.resigned)
        self.timers.turn = None
        self.timers.arrival = None
        self.seeding.close()
        self.status = "finished"
        self.finished_at = time.monotonic()
        self.version += 1
        self.broadcast()
        self._ended()

    async def abandon(self) -> None:
        """The table is given up before its match began (nobody came, or not everyone
        matched did): stored so, and everyone told."""
        self.timers.arrival = None
        await self.set_status("abandoned")
        self.finished_at = time.monotonic()
        self.version += 1
        self.broadcast()
        self._ended()

    def _ended(self) -> None:
        if self.on_end is not None:
            try:
                self.on_end(replace(self.row, status=self.status, result=self.result))
            except Exception:  # a listener's fault never stops the table
                log.exception("table %s: its end hook failed", self.row.id)

    def unattended_at(self) -> float | None:
        """When a waiting table that nobody has open is given up (None: it is not)."""
        if self.status != "waiting" or self.empty_since is None:
            return None
        return self.empty_since + self.settings.unattended_seconds

    # ------------------------------------------------------------------ what is sent

    def export_record(self) -> MatchRecord:
        """The match record with every round's seeds (for the server's own use: see
        :meth:`record_json` for what may be sent)."""
        return self.driver.build_record()

    def record_json(self) -> dict[str, Any]:
        """The match record as sent to anyone (:func:`~basra.server.wire.redaction.redact`)."""
        match = self.driver.match
        return redact(to_json(self.export_record()), match.in_round and match.winner is None)

    def table_json(self, seat: int | None) -> dict[str, Any]:
        return snapshot.table_json(self, seat)

    def state_for(self, seat: int | None) -> State:
        return snapshot.state_for(self, seat)

    def spectators_state(self) -> str:
        """The spectators' full state, encoded once for a crowd (snapshot.Audience)."""
        return self.audience.spectators_state(self.version, lambda: self.state_for(None))

    def broadcast(self) -> None:
        """Every connection gets its own seat's state; never awaits a socket."""
        self.audience.broadcast(self.seats, self.state_for, self.seeding)

    def broadcast_play(self, by_bot: bool) -> None:
        """After a play that keeps the round going: every connection gets what the play
        changed (``played``), not the whole state; never awaits a socket."""
        self.audience.broadcast(self.seats, snapshot.played_for(self, by_bot), self.seeding)
