"""One player challenging another (issue 28): from a profile, the friends page or the end of
a match, to a variant, a seating and a length, rated or casual.

A challenge is for accounts, to an account that takes challenges from the challenger (its
setting: anyone, only the accounts it follows, or nobody), never between two players one
of whom blocks the other. It is kept in the store, so any node answers it; it is open for
``challenge_seconds`` (10 minutes), and answered once (the store's update takes only an open one).
Accepted, it makes a private table with the challenger in seat 0 and the challenged in
seat 1 (opponents in every seating); for three or four the other seats wait for whoever
the table's invite link brings, or bots. Each side hears the other's answer on its open
pages (the notify socket) and in its bell; a challenged player at a match sees it after.
Per account: one open challenge to a player at a time, :data:`CHALLENGES_PER_HOUR`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from basra.server.ids import new_id
from basra.server.social.friends import Friends, SocialError, person_json
from basra.server.social.notify import Notifier
from basra.server.wire.errors import RateLimited
from basra.store.base import GameChallengeRow, PersonRow, PlayerRow
from basra.store.ports import SocialStore

CHALLENGE_SECONDS = 600
CHALLENGES_PER_HOUR = 30


@dataclass(frozen=True, slots=True)
class Terms:
    """What a challenge is to: a variant, a seating, a length, rated or not."""

    variant: str = "egyptian"
    players: int = 2
    teams: bool = False
    rated: bool = False
    length: str = "full"


CheckTerms = Callable[[Terms], Terms]
"""The terms as the lobby would make the table (refused with its code if it would not)."""
MakeTable = Callable[[GameChallengeRow, PlayerRow, PlayerRow], Awaitable[str]]
"""Make the accepted challenge's table (challenger, challenged): its id."""


def challenge_json(row: GameChallengeRow) -> dict[str, Any]:
    return {"id": row.id, "from": person_json(row.challenger), "to": person_json(row.challenged),
            "variant": row.variant, "players": row.players, "teams": row.teams,
            "rated": row.rated, "length": row.length, "status": row.status,
            "table": row.table_id, "expires_at": row.expires_at.isoformat()}


class Challenges:
    """Make, answer and list challenges between players."""

    def __init__(self, store: SocialStore, friends: Friends, notifier: Notifier,  # noqa: PLR0913
                 check: CheckTerms, make_table: MakeTable,
                 seconds: float = CHALLENGE_SECONDS) -> None:
        self.store = store
        self.seconds = seconds
        """How long a challenge stays open."""
        self.friends = friends
        self.notifier = notifier
        self.check = check
        self.make_table = make_table

    async def make(self, me: PlayerRow, username: str, terms: Terms) -> GameChallengeRow:
        self.friends.need_account(me, "Challenging a player")
        other = await self.friends.find(username)
        if other.id == me.id:
            raise SocialError("you cannot challenge yourself", "social/self")
        terms = self.check(terms)
        now = datetime.now(UTC)
        # The checks' reads at once (each a round trip to the store): the answer waits for
        # the slowest, not for their sum.
        blocked, policy, befriended, mine, sent = await asyncio.gather(
            self.store.blocked_ids(me.id), self.store.challenge_policy(other.id),
            self.store.follows(other.id, me.id), self.store.game_challenges(me.id, now),
            self.store.challenges_sent(me.id, now - timedelta(hours=1)))
        if other.id in blocked:
            raise SocialError(f"you cannot challenge {other.nickname}", "social/blocked")
        if policy == "nobody" or (policy == "friends" and not befriended):
            raise SocialError(f"{other.nickname} takes challenges "
                              f"{'from nobody' if policy == 'nobody' else 'from friends only'}",
                              "social/not_taken")
        if any(c.challenged.player_id == other.id and c.challenger.player_id == me.id
               for c in mine):
            raise SocialError(f"you have challenged {other.nickname} already: wait for the "
                              "answer", "challenge/already")
        if sent >= CHALLENGES_PER_HOUR:
            raise RateLimited(f"at most {CHALLENGES_PER_HOUR} challenges an hour", 300)
        row = GameChallengeRow(
            new_id(), PersonRow(me.id, me.username or "", me.nickname, now),
            PersonRow(other.id, other.username or "", other.nickname, now), terms.variant,
            terms.players, terms.teams, terms.rated, terms.length, "open", now,
            now + timedelta(seconds=self.seconds))
        await self.store.add_game_challenge(row)
        await self.notifier.notify(
            other.id, "challenge", {"challenge": challenge_json(row)},
            push={"title": f"{me.nickname} challenges you", "url": "/friends",
                  "body": f"{terms.variant}, {terms.players} players", "tag": row.id})
        return row

    async def invite_partner(self, me: PlayerRow, username: str, code: str,
                             terms: Terms) -> PlayerRow:
        """Send a partner invite (its ``code``) to an account's bell and open pages, under
        the rules of a challenge (who may challenge them, blocks, the hourly limit)."""
        self.friends.need_account(me, "Inviting a partner by name")
        other = await self.friends.find(username)
        if other.id == me.id:
            raise SocialError("you cannot be your own partner", "social/self")
        now = datetime.now(UTC)
        blocked, policy, befriended, sent = await asyncio.gather(
            self.store.blocked_ids(me.id), self.store.challenge_policy(other.id),
            self.store.follows(other.id, me.id),
            self.store.challenges_sent(me.id, now - timedelta(hours=1)))
        if other.id in blocked:
            raise SocialError(f"you cannot invite {other.nickname}", "social/blocked")
        if policy == "nobody" or (policy == "friends" and not befriended):
            raise SocialError(f"{other.nickname} takes invites "
                              f"{'from nobody' if policy == 'nobody' else 'from friends only'}",
                              "social/not_taken")
        if sent >= CHALLENGES_PER_HOUR:
            raise RateLimited(f"at most {CHALLENGES_PER_HOUR} challenges and invites an hour",
                              300)
        await self.notifier.notify(
            other.id, "partner",
            {"invite": code, "from": person_json(me), "variant": terms.variant,
             "players": terms.players, "teams": terms.teams},
            push={"title": f"{me.nickname} wants you as a partner", "body": terms.variant,
                  "url": f"/partner/{code}", "tag": code})
        return other

    async def _mine(self, me: PlayerRow, challenge_id: str) -> GameChallengeRow:
        row = await self.store.game_challenge(challenge_id[:64])
        if row is None or me.id not in (row.challenger.player_id, row.challenged.player_id):
            raise SocialError("no such challenge", "challenge/not_found")
        return row

    @staticmethod
    def _closed(row: GameChallengeRow) -> SocialError:
        return SocialError(f"this challenge is {'expired' if row.status == 'open' else row.status}",
                           "challenge/closed")

    async def accept(self, me: PlayerRow, challenge_id: str) -> GameChallengeRow:
        row = await self._mine(me, challenge_id)
        if row.challenged.player_id != me.id:
            raise SocialError("only the challenged player accepts", "challenge/not_yours")
        now = datetime.now(UTC)
        if row.status != "open" or row.expires_at <= now:
            raise self._closed(row)
        challenger = await self.friends.identity.player(row.challenger.player_id)
        if challenger is None or not challenger.account:
            raise SocialError("the challenger's account is gone", "challenge/closed")
        table_id = await self.make_table(row, challenger, me)
        if not await self.store.answer_game_challenge(row.id, "accepted", now, table_id):
            raise self._closed(await self._mine(me, challenge_id))
        done = await self._mine(me, challenge_id)
        await self.notifier.notify(row.challenger.player_id, "challenge_answered",
                                   {"challenge": challenge_json(done)},
                                   push={"title": f"{me.nickname} accepted your challenge",
                                         "body": "", "url": f"/table/{table_id}",
                                         "tag": row.id})
        return done

    async def refuse(self, me: PlayerRow, challenge_id: str) -> GameChallengeRow:
        """Decline (the challenged) or cancel (the challenger)."""
        row = await self._mine(me, challenge_id)
        mine = row.challenger.player_id == me.id
        if not await self.store.answer_game_challenge(
                row.id, "cancelled" if mine else "declined", datetime.now(UTC)):
            raise self._closed(row)
        done = await self._mine(me, challenge_id)
        other = row.challenged.player_id if mine else row.challenger.player_id
        if mine:  # the challenged's pages drop it; nothing for the bell
            await self.notifier.tell(other, {"type": "challenge", "challenge":
                                             challenge_json(done)})
        else:
            await self.notifier.notify(other, "challenge_answered",
                                       {"challenge": challenge_json(done)})
        return done

    async def listing(self, me: PlayerRow) -> dict[str, Any]:
        rows = await self.store.game_challenges(me.id, datetime.now(UTC))
        return {"received": [challenge_json(r) for r in rows
                             if r.challenged.player_id == me.id],
                "sent": [challenge_json(r) for r in rows if r.challenger.player_id == me.id]}
