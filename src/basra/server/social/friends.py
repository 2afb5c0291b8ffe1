"""Follows, blocks and the friends page (issue 28).

A player's friends are the accounts they follow. Following and blocking are for accounts
(a guest has no name to be found by). A block ends any follow between the two, and from
then on neither can follow or challenge the other, quick match never seats them together,
and the blocked one's phrases never reach the blocker. Per account: at most
:data:`MOST_FOLLOWING` follows, and :data:`ACTIONS_PER_MINUTE` follows, unfollows, blocks
and unblocks a minute (a burst of :data:`ACTIONS_BURST`), so nobody can spam a player with
follow notices.
"""

from __future__ import annotations

from typing import Any

from basra.server.limits import AddressBuckets
from basra.server.social.presence import Presence
from basra.server.wire.errors import RateLimited, Refusal
from basra.store.base import CHALLENGE_POLICIES, ChallengePolicy, PersonRow, PlayerRow
from basra.store.ports import IdentityStore, SocialStore

MOST_FOLLOWING = 500
ACTIONS_PER_MINUTE = 20.0
ACTIONS_BURST = 30


class SocialError(Refusal):
    """A social request refused: its stable code, a one-line message."""

    code = "social/refused"


def person_json(person: PersonRow | PlayerRow) -> dict[str, Any]:
    if isinstance(person, PersonRow):
        return {"name": person.nickname, "username": person.username,
                "since": person.since.isoformat()}
    return {"name": person.nickname, "username": person.username}


class Friends:
    """Follows, blocks, the friends page and who may challenge whom."""

    def __init__(self, store: SocialStore, identity: IdentityStore,
                 presence: Presence) -> None:
        self.store = store
        self.identity = identity
        self.presence = presence
        self.actions = AddressBuckets(ACTIONS_PER_MINUTE, ACTIONS_BURST)

    @staticmethod
    def need_account(player: PlayerRow, what: str) -> None:
        if not player.account:
            raise SocialError(f"{what} is for accounts: create one first",
                              "social/account_needed")

    async def find(self, username: str) -> PlayerRow:
        """The account of ``username``, or ``social/not_found``."""
        found = await self.identity.account(username[:64]) if username.strip() else None
        if found is None:
            raise SocialError(f"no player is called {username[:64]!r}", "social/not_found")
        return found.player

    def _count(self, player: PlayerRow) -> None:
        wait = self.actions.take(player.id)
        if wait is not None:
            raise RateLimited("too many follows and blocks: wait a little", wait)

    async def _other(self, me: PlayerRow, username: str, what: str) -> PlayerRow:
        self.need_account(me, what)
        other = await self.find(username)
        if other.id == me.id:
            raise SocialError(f"you cannot {what.lower()} yourself", "social/self")
        self._count(me)
        return other

    async def follow(self, me: PlayerRow, username: str) -> PlayerRow:
        other = await self._other(me, username, "Following")
        if other.id in await self.store.blocked_ids(me.id):
            raise SocialError(f"you cannot follow {other.nickname}", "social/blocked")
        following, _ = await self.store.follow_counts(me.id)
        if following >= MOST_FOLLOWING:
            raise SocialError(f"you follow {MOST_FOLLOWING} players already: unfollow some "
                              "first", "social/too_many")
        await self.store.follow(me.id, other.id)
        self.presence.followed(me.id, other.id, True)
        return other

    async def unfollow(self, me: PlayerRow, username: str) -> PlayerRow:
        other = await self._other(me, username, "Following")
        await self.store.unfollow(me.id, other.id)
        self.presence.followed(me.id, other.id, False)
        return other

    async def block(self, me: PlayerRow, username: str) -> PlayerRow:
        other = await self._other(me, username, "Blocking")
        await self.store.block(me.id, other.id)
        self.presence.followed(me.id, other.id, False)
        self.presence.followed(other.id, me.id, False)
        return other

    async def unblock(self, me: PlayerRow, username: str) -> PlayerRow:
        other = await self._other(me, username, "Blocking")
        await self.store.unblock(me.id, other.id)
        return other

    async def page(self, me: PlayerRow) -> dict[str, Any]:
        """The friends page: whom the player follows, each online, playing (the table to
        watch) or offline; how many follow them; whom they block; who may challenge them."""
        self.need_account(me, "A friends list")
        following = await self.store.following(me.id)
        ids = [p.player_id for p in following]
        online = await self.presence.online(ids)
        playing = await self.store.playing(ids)
        _, followers = await self.store.follow_counts(me.id)
        friends = []
        for friend in following:
            table = playing.get(friend.player_id)
            status = "playing" if table else "online" if friend.player_id in online \
                else "offline"
            friends.append({**person_json(friend), "status": status, "table": table})
        order = {"playing": 0, "online": 1, "offline": 2}
        friends.sort(key=lambda f: (order[str(f["status"])], str(f["username"]).casefold()))
        return {"friends": friends, "followers": followers,
                "blocked": [person_json(p) for p in await self.store.blocked(me.id)],
                "challenges": await self.store.challenge_policy(me.id)}

    async def relation(self, me: PlayerRow | None, other_id: str) -> dict[str, Any]:
        """What a profile shows of the viewer and this player: followers, and whether the
        viewer follows them, they follow the viewer, the viewer blocks them."""
        following, followers = await self.store.follow_counts(other_id)
        out: dict[str, Any] = {"followers": followers, "following": following}
        if me is not None and me.account and me.id != other_id:
            out["you_follow"] = await self.store.follows(me.id, other_id)
            out["follows_you"] = await self.store.follows(other_id, me.id)
            out["you_block"] = other_id in {p.player_id for p in await self.store.blocked(me.id)}
        return out

    async def set_policy(self, me: PlayerRow, policy: str) -> ChallengePolicy:
        self.need_account(me, "Choosing who may challenge you")
        chosen = next((p for p in CHALLENGE_POLICIES if p == policy), None)
        if chosen is None:
            raise SocialError(f"who may challenge you: one of {', '.join(CHALLENGE_POLICIES)}",
                              "social/bad_setting")
        await self.store.set_challenge_policy(me.id, chosen)
        return chosen
