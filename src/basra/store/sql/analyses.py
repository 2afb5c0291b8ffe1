"""The :class:`~basra.store.ports.AnalysisStore` in SQL: each analysis runs under the claim
of the one node that took it.

Its writes do not go through the group commit: a claim must know at once whether its
update took a row (another node may have taken it first), in a transaction of its own.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from basra.store.base import AnalysisRow, StoreError
from basra.store.schema import analyses
from basra.store.sql.engine import SqlPort, now


class SqlAnalyses(SqlPort):
    """The expert's analyses of finished matches, on the shared engine."""

    async def analysis(self, table_id: str) -> AnalysisRow | None:
        row = await self.sql.first(select(analyses).where(analyses.c.table_id == table_id))
        return None if row is None else AnalysisRow(**row._mapping)

    async def claim_analysis(self, table_id: str, iterations: int, seed: int,
                             stale_before: datetime) -> str | None:
        claim = secrets.token_hex(8)
        try:
            taken = await self._claim_analysis(table_id, claim, iterations, seed,
                                               stale_before)
        except StoreError as error:
            if isinstance(error.__cause__, IntegrityError):  # another node made the row
                return None
            raise
        return claim if taken else None

    async def _claim_analysis(self, table_id: str, claim: str, iterations: int, seed: int,
                              stale_before: datetime) -> bool:
        moment = now()

        def op(connection: Connection) -> bool:
            taken = connection.execute(
                update(analyses).where((analyses.c.table_id == table_id) & (
                    (analyses.c.status == "failed") | ((analyses.c.status == "running")
                                                       & (analyses.c.updated_at
                                                          < stale_before))))
                .values(status="running", claim=claim, iterations=iterations, seed=seed,
                        requested_at=moment, updated_at=moment, analysis=None, message=None))
            if taken.rowcount:
                return True
            exists = connection.execute(
                select(analyses.c.table_id).where(analyses.c.table_id == table_id))
            if exists.first() is not None:
                return False
            connection.execute(insert(analyses).values(
                table_id=table_id, status="running", claim=claim, iterations=iterations,
                seed=seed,
                requested_at=moment, updated_at=moment))
            return True

        return await self.sql.transact(f"claim the analysis of {table_id}", op)

    async def update_analysis(self, table_id: str, claim: str, status: str,
                              analysis: dict[str, Any] | None = None,
                              message: str | None = None) -> bool:
        values: dict[str, Any] = {"status": status, "updated_at": now()}
        if status != "running":
            values.update(analysis=analysis, message=message)

        def op(connection: Connection) -> bool:
            done = connection.execute(
                update(analyses).where((analyses.c.table_id == table_id)
                                       & (analyses.c.claim == claim)
                                       & (analyses.c.status == "running")).values(**values))
            return bool(done.rowcount)

        return await self.sql.transact(f"store the analysis of {table_id}", op)
