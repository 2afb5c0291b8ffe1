"""The fence of cluster mode: a node writes a table's rounds and plays only while it holds
the table's lease.

:class:`FencedStore` stands in front of the node's store. Every write about a table asks
:meth:`~basra.server.cluster.leases.Leases.holds` first and is refused with :class:`LeaseLost` when
the lease is not certainly this node's; a write the database refuses because another node
wrote first (the unique (table, round, index) key of a play, the (table, number) key of a
round) is refused the same way. Either way the node is told (``on_fenced``) and lets the
table go: its owner is someone else, or it rebuilds the table from the store.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from basra.server.cluster.leases import Leases
from basra.store.base import (
    AccountRow,
    AnalysisRow,
    ChallengeRow,
    DuplicatePlay,
    HistoryRow,
    LeaderRow,
    PasskeyRow,
    PlayerRow,
    PlayRecord,
    PlayRow,
    RatedGame,
    RatingPoint,
    RatingRow,
    SeatRow,
    SessionRow,
    Store,
    StoreError,
    TableLog,
    TableRow,
    TableStatus,
)


class LeaseLost(StoreError):
    """A write for a table whose lease this node does not hold (or lost to a writer)."""


class FencedStore(Store):
    """A store whose table writes are fenced by this node's leases."""

    def __init__(self, inner: Store, leases: Leases,
                 on_fenced: Callable[[str], None]) -> None:
        self.inner = inner
        self.leases = leases
        self.on_fenced = on_fenced

    def _check(self, table_id: str) -> None:
        if not self.leases.holds(table_id):
            self.on_fenced(table_id)
            raise LeaseLost(f"table {table_id}: this node does not hold its lease")

    def _conflict(self, table_id: str, error: StoreError) -> LeaseLost:
        self.on_fenced(table_id)
        return LeaseLost(f"table {table_id}: another node wrote first ({error})")

    # ------------------------------------------------------------------ unfenced

    async def open(self) -> None:
        await self.inner.open()

    async def close(self) -> None:
        await self.inner.close()

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def create_player(self, player_id: str, nickname: str, token_hash: str) -> PlayerRow:
        return await self.inner.create_player(player_id, nickname, token_hash)

    async def rename_player(self, player_id: str, nickname: str) -> None:
        await self.inner.rename_player(player_id, nickname)

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        return await self.inner.player_by_token(token_hash)

    async def touch_session(self, token_hash: str) -> None:
        await self.inner.touch_session(token_hash)

    async def player(self, player_id: str) -> PlayerRow | None:
        return await self.inner.player(player_id)

    async def table(self, table_id: str) -> TableRow | None:
        return await self.inner.table(table_id)

    async def table_by_code(self, invite_code: str) -> TableRow | None:
        return await self.inner.table_by_code(invite_code)

    async def rematch_of(self, table_id: str) -> str | None:
        return await self.inner.rematch_of(table_id)

    async def analysis(self, table_id: str) -> AnalysisRow | None:
        return await self.inner.analysis(table_id)

    async def claim_analysis(self, table_id: str, iterations: int, seed: int,
                             stale_before: datetime) -> str | None:
        # Not a table's write: a finished match's analysis (its row's claim fences it).
        return await self.inner.claim_analysis(table_id, iterations, seed, stale_before)

    async def update_analysis(self, table_id: str, claim: str, status: str,
                              analysis: dict[str, Any] | None = None,
                              message: str | None = None) -> bool:
        return await self.inner.update_analysis(table_id, claim, status, analysis, message)

    async def live_tables(self) -> list[str]:
        return await self.inner.live_tables()

    async def load(self, table_id: str) -> TableLog | None:
        return await self.inner.load(table_id)

    async def history(self, player_id: str, limit: int = 50) -> list[HistoryRow]:
        return await self.inner.history(player_id, limit)

    async def play_record(self, player_id: str, since: datetime) -> PlayRecord:
        return await self.inner.play_record(player_id, since)

    async def rated_between(self, first: str, second: str, since: datetime) -> int:
        return await self.inner.rated_between(first, second, since)

    async def claim_account(self, player_id: str, username: str,
                            password_hash: str | None) -> PlayerRow:
        return await self.inner.claim_account(player_id, username, password_hash)

    async def account(self, username: str) -> AccountRow | None:
        return await self.inner.account(username)

    async def lookalike(self, username: str) -> str | None:
        return await self.inner.lookalike(username)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        await self.inner.set_password(player_id, password_hash)

    async def delete_account(self, player_id: str) -> None:
        await self.inner.delete_account(player_id)

    async def add_session(self, session: SessionRow, token_hash: str) -> None:
        await self.inner.add_session(session, token_hash)

    async def session_by_token(self, token_hash: str) -> SessionRow | None:
        return await self.inner.session_by_token(token_hash)

    async def sessions(self, player_id: str) -> list[SessionRow]:
        return await self.inner.sessions(player_id)

    async def prove_session(self, session_id: str, token_hash: str) -> bool:
        return await self.inner.prove_session(session_id, token_hash)

    async def revoke_sessions(self, player_id: str, session_id: str | None = None,
                              keep: str | None = None) -> int:
        return await self.inner.revoke_sessions(player_id, session_id, keep)

    async def add_passkey(self, passkey: PasskeyRow) -> None:
        await self.inner.add_passkey(passkey)

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        return await self.inner.passkey(credential_id)

    async def passkeys(self, player_id: str) -> list[PasskeyRow]:
        return await self.inner.passkeys(player_id)

    async def passkey_used(self, credential_id: str, sign_count: int) -> None:
        await self.inner.passkey_used(credential_id, sign_count)

    async def remove_passkey(self, player_id: str, credential_id: str) -> bool:
        return await self.inner.remove_passkey(player_id, credential_id)

    async def put_challenge(self, challenge: ChallengeRow) -> None:
        await self.inner.put_challenge(challenge)

    async def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        return await self.inner.take_challenge(challenge_id)

    async def ratings(self, player_id: str) -> list[RatingRow]:
        return await self.inner.ratings(player_id)

    async def rating_history(self, player_id: str, limit: int = 500) -> list[RatingPoint]:
        return await self.inner.rating_history(player_id, limit)

    async def leaderboard(self, variant: str, since: datetime, limit: int = 100,
                          max_deviation: float = 75.0) -> list[LeaderRow]:
        return await self.inner.leaderboard(variant, since, limit, max_deviation)

    # ------------------------------------------------------------------ fenced

    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        self._check(table.id)
        await self.inner.create_table(table, seats)

    async def set_status(self, table_id: str, status: TableStatus) -> None:
        self._check(table_id)
        await self.inner.set_status(table_id, status)

    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        self._check(table_id)
        await self.inner.set_seat(table_id, seat)

    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: RatedGame | None = None) -> dict[str, Any]:
        self._check(table_id)
        return await self.inner.finish_table(table_id, result, rated)

    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        self._check(table_id)
        try:
            await self.inner.add_round(table_id, number, server_seed, commitment)
        except StoreError as error:
            if await self._round_exists(table_id, number):
                raise self._conflict(table_id, error) from error
            raise

    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        self._check(table_id)
        try:
            await self.inner.start_round(table_id, number, client_seed)
        except StoreError as error:  # started with another seed: another node did it
            raise self._conflict(table_id, error) from error

    async def add_play(self, table_id: str, play: PlayRow) -> None:
        self._check(table_id)
        try:
            await self.inner.add_play(table_id, play)
        except DuplicatePlay as error:
            raise self._conflict(table_id, error) from error

    async def _round_exists(self, table_id: str, number: int) -> bool:
        found = await self.inner.load(table_id)
        return found is not None and any(r.number == number for r in found.rounds)
