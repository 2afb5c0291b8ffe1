"""What a client's messages do at a table (:class:`~basra.server.table.commands.Incoming`):
a play, a seed part, ready, a quick phrase or reaction, ``sync``, ``ping``, ``resign`` and
``hint``. A refused message raises a :class:`~basra.server.wire.errors.Refusal` and changes
nothing. A rematch vote is the actor's own (it calls the lobby's rematch hook).
"""

from __future__ import annotations

import time

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.game.cards import NAMES, names_of
from basra.server.table.commands import Connection
from basra.server.table.flow import TableFlow
from basra.server.table.seats import Seat, SeatError
from basra.server.wire.client_messages import (
    ClientMessage,
    MoveMessage,
    PlayMessage,
    ProtocolError,
    SayMessage,
    SeedMessage,
)
from basra.server.wire.sayings import SayingRefused
from basra.server.wire.server_messages import Hint, Pong, Said, encode


class Answers:
    """A table's answers to its clients' messages, over the table's flow."""

    def __init__(self, flow: TableFlow) -> None:
        self.flow = flow
        self.hinter: Bot | None = None
        """The medium bot that answers ``hint`` (made at the first one)."""

    async def answer(self, conn: Connection, seat: Seat | None,
                     message: ClientMessage) -> None:
        """What ``message`` from ``conn`` (of ``seat``; None: a spectator) does."""
        flow = self.flow
        if isinstance(message, PlayMessage):
            if seat is None:
                raise ProtocolError("spectators cannot play", "play/not_seated")
            await flow.human_play(seat, message)
        elif isinstance(message, SeedMessage):
            await self._part(seat, message)
        elif isinstance(message, SayMessage):
            self._say(seat, message)
        elif isinstance(message, MoveMessage):
            await self._move(seat, message.seat)
        elif message.type == "ping":
            flow.audience.send(conn, Pong(flow.version))
        elif message.type == "sync":  # a client that could not apply a played message
            flow.audience.send(conn, flow.state_for(seat.number) if seat is not None
                               else flow.spectators_state())
        elif message.type == "ready":
            await self._ready(seat)
        elif message.type == "cancel":
            await self._cancel(seat)
        elif message.type == "resign":
            if seat is None:
                raise ProtocolError("spectators cannot resign", "resign/not_seated")
            await flow.resign(seat)
        elif message.type == "hint":
            flow.audience.send(conn, self._hint(seat))

    async def _ready(self, seat: Seat | None) -> None:
        flow = self.flow
        if seat is None:
            raise ProtocolError("spectators are never waited for", "ready/not_seated")
        if not flow.seeding.open or not seat.say_ready():
            return  # nothing changes: ready already, or no round is pending
        if not await flow.maybe_start():
            flow.version += 1
            flow.broadcast()  # everyone sees who is still reading the summary

    async def _move(self, seat: Seat | None, number: int) -> None:
        """A seated player takes another, free, seat while the table waits (beside the
        partner they want, say)."""
        flow = self.flow
        if seat is None or flow.status != "waiting":
            raise SeatError("only a seated player moves, while the table waits",
                            "table/started")
        if number == seat.number:
            return
        moved = flow.seats.move(seat, number)
        for changed in (seat, moved):
            await flow.store.set_seat(flow.row.id, changed.row())
        flow.driver.rename(flow.seats.names())
        flow.version += 1
        flow.broadcast()

    async def _cancel(self, seat: Seat | None) -> None:
        """The table's creator gives the waiting table up: everyone is told."""
        flow = self.flow
        if seat is None or seat.player_id is None or seat.player_id != flow.row.owner_id:
            raise SeatError("only the table's creator may cancel it", "table/not_owner")
        if flow.status != "waiting":
            raise SeatError("this table has already started", "table/started")
        await flow.abandon()

    def _say(self, seat: Seat | None, message: SayMessage) -> None:
        """A quick phrase or reaction, to everyone at the table (seats and spectators);
        changes nothing of the match (no new version)."""
        flow = self.flow
        if seat is None or not seat.human:
            raise SayingRefused("spectators watch in silence: only the players may say "
                                "something", "say/not_seated")
        if seat.muted:
            raise SayingRefused("a moderator muted your phrases", "say/muted")
        count = seat.sayings.take(time.monotonic(), flow.settings.saying_gap_seconds)
        text = encode(Said(seat.number, count, message.kind, message.what))
        deaf = {conn for other in flow.seats if seat.player_id in other.deaf_to
                for conn in other.connections}
        for conn in flow.audience.connections(flow.seats):
            if conn not in deaf:  # a player who blocks the speaker never hears them
                flow.audience.send(conn, text)

    def _hint(self, seat: Seat | None) -> Hint:
        """The medium bot's play from the asking seat's view: only at a table against
        bots, on the player's own turn."""
        flow = self.flow
        if flow.row.kind != "bot":
            raise ProtocolError("hints are given only in games against bots",
                                "hint/not_allowed")
        if seat is None or flow.to_play() != seat.number:
            raise ProtocolError("a hint is given on your own turn", "hint/not_your_turn")
        if self.hinter is None:
            self.hinter = make_bot("medium", seed=f"{flow.row.id}:hint")
        move = self.hinter.choose(flow.driver.view(seat.number))
        return Hint(flow.version, NAMES[move.card], names_of(move.take))

    async def _part(self, seat: Seat | None, message: SeedMessage) -> None:
        flow = self.flow
        if seat is None:
            raise ProtocolError("spectators have no client seed", "seed/not_seated")
        if flow.status != "playing":
            raise ProtocolError("the match is not in play: no round waits for client seeds",
                                "seed/wrong_round")
        flow.seeding.check_part(flow.driver.rounds, seat, message)
        if seat.part == message.client_seed:
            return
        first = seat.send_part(message.client_seed)
        flow.version += 1
        if first:  # everyone sees that this seat has sent its part
            flow.broadcast()
        else:  # a changed part is news to its own seat only
            flow.audience.send_seat(seat, flow.state_for(seat.number))
        await flow.maybe_start()
