"""The social port on SQLite and PostgreSQL (issue 28): follows (once, counted, listed by
name), blocks (ending follows both ways, seen from both sides), who may challenge whom,
challenges answered once and only while open, the bell's notifications (the newest kept,
read), Web Push subscriptions, the account search, and a deleted account leaving none of
it behind."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from basra.store import Store
from basra.store.base import GameChallengeRow, NotificationRow, PersonRow, PushRow
from basra.store.sql.social import NOTIFICATIONS_KEPT
from store.test_store import run

__all__: list[str] = []


async def accounts(store: Store, *names: str) -> list[str]:
    ids = []
    for name in names:
        player_id = name.lower()
        await store.create_player(player_id, name, f"hash-{player_id}")
        await store.claim_account(player_id, name, None)
        ids.append(player_id)
    return ids


def test_follows_and_blocks(url: str) -> None:
    async def scenario(store: Store) -> None:
        amira, badr, camil = await accounts(store, "Amira", "Badr", "Camil")
        assert await store.follow(amira, badr)
        assert not await store.follow(amira, badr)  # once
        assert await store.follow(camil, badr) and await store.follow(badr, amira)
        assert await store.follows(amira, badr) and not await store.follows(badr, camil)
        assert [p.username for p in await store.following(amira)] == ["Badr"]
        assert [p.username for p in await store.followers(badr)] == ["Amira", "Camil"]
        assert sorted(await store.follower_ids(badr)) == [amira, camil]
        assert await store.follow_counts(badr) == (1, 2)
        assert await store.unfollow(camil, badr) and not await store.unfollow(camil, badr)
        # a block ends the follows both ways and is seen from both sides
        assert await store.block(badr, amira) and not await store.block(badr, amira)
        assert not await store.follows(amira, badr) and not await store.follows(badr, amira)
        assert [p.username for p in await store.blocked(badr)] == ["Amira"]
        assert await store.blocked_ids(badr) == {amira} == await store.blocked_ids(badr)
        assert await store.blocked_ids(amira) == {badr}
        assert await store.unblock(badr, amira) and await store.blocked_ids(amira) == set()
        assert await store.challenge_policy(amira) == "anyone"
        await store.set_challenge_policy(amira, "friends")
        await store.set_challenge_policy(amira, "nobody")
        assert await store.challenge_policy(amira) == "nobody"
        # browser settings (issue 30): kept beside the policy, or on a row of their own
        assert await store.player_prefs(amira) is None is await store.player_prefs(camil)
        await store.set_player_prefs(amira, {"theme": "light", "sound": False})
        await store.set_player_prefs(camil, {"deck": "four"})
        assert await store.player_prefs(amira) == {"theme": "light", "sound": False}
        assert await store.challenge_policy(amira) == "nobody"
        assert await store.player_prefs(camil) == {"deck": "four"}
        assert await store.challenge_policy(camil) == "anyone"

    run(url, scenario)


def test_challenges_are_answered_once_while_open(url: str) -> None:
    async def scenario(store: Store) -> None:
        amira, badr = await accounts(store, "Amira", "Badr")
        now = datetime.now(UTC)

        def challenge(cid: str, expires: timedelta) -> GameChallengeRow:
            return GameChallengeRow(cid, PersonRow(amira, "", "", now),
                                    PersonRow(badr, "", "", now), "lebanese", 4, True,
                                    False, "full", "open", now, now + expires)

        await store.add_game_challenge(challenge("c1", timedelta(minutes=5)))
        await store.add_game_challenge(challenge("c2", timedelta(seconds=-1)))  # expired
        found = await store.game_challenge("c1")
        assert found is not None and found.challenger.username == "Amira"
        assert found.challenged.nickname == "Badr" and (found.players, found.teams) == (4, True)
        assert [c.id for c in await store.game_challenges(badr, now)] == ["c1"]
        assert [c.id for c in await store.game_challenges(amira, now)] == ["c1"]
        assert await store.answer_game_challenge("c1", "accepted", now, "t9")
        assert not await store.answer_game_challenge("c1", "declined", now)
        assert not await store.answer_game_challenge("c2", "accepted", now)  # expired
        done = await store.game_challenge("c1")
        assert done is not None and (done.status, done.table_id) == ("accepted", "t9")
        assert await store.game_challenges(badr, now) == []
        assert await store.challenges_sent(amira, now - timedelta(minutes=1)) == 2

    run(url, scenario)


def test_the_bells_of_many_players_kept_in_one_write(url: str) -> None:
    """An event's start rings every entrant's bell in one write: each player gets theirs,
    and each keeps only their newest NOTIFICATIONS_KEPT, whatever the others hold."""
    async def scenario(store: Store) -> None:
        amira, badr, camil = await accounts(store, "Amira", "Badr", "Camil")
        start = datetime.now(UTC)
        for number in range(NOTIFICATIONS_KEPT):
            await store.add_notification(NotificationRow(
                f"a{number:03}", amira, "online", {"name": "Badr"},
                start + timedelta(seconds=number)))
        await store.add_notification(NotificationRow(
            "b000", badr, "online", {"name": "Amira"}, start))
        later = start + timedelta(hours=1)
        await store.add_notifications([
            NotificationRow(f"t-{player}", player, "tournament", {"tournament": "e1"}, later)
            for player in (amira, badr, camil)])
        shown = await store.notifications(amira, 500)
        assert len(shown) == NOTIFICATIONS_KEPT and shown[0].id == f"t-{amira}"
        assert shown[-1].id == "a001"  # the oldest went
        assert [n.id for n in await store.notifications(badr)] == [f"t-{badr}", "b000"]
        assert [(n.kind, n.body) for n in await store.notifications(camil)] == [
            ("tournament", {"tournament": "e1"})]
        await store.add_notifications([])

    run(url, scenario)


def test_notifications_pushes_search_and_a_deleted_account(url: str) -> None:
    async def scenario(store: Store) -> None:
        amira, badr, _ = await accounts(store, "Amira", "Badr", "Amina")
        start = datetime.now(UTC)
        for number in range(NOTIFICATIONS_KEPT + 3):
            await store.add_notification(NotificationRow(
                f"n{number:03}", amira, "online", {"name": "Badr"},
                start + timedelta(seconds=number)))
        shown = await store.notifications(amira, 500)
        assert len(shown) == NOTIFICATIONS_KEPT and shown[0].id == f"n{NOTIFICATIONS_KEPT + 2:03}"
        assert shown[0].body == {"name": "Badr"} and shown[0].read_at is None
        assert await store.read_notifications(amira, start, [shown[0].id]) == 1
        assert await store.read_notifications(amira, start) == NOTIFICATIONS_KEPT - 1
        await store.add_push(PushRow("https://push.example/1", amira, "k", "a", start))
        await store.add_push(PushRow("https://push.example/1", amira, "k2", "a2", start))
        assert [p.p256dh for p in await store.pushes(amira)] == ["k2"]
        assert not await store.remove_push("https://push.example/1", badr)
        assert [p.username for p in await store.search_accounts("am")] == ["Amina", "Amira"]
        assert await store.search_accounts("a_") == [] and await store.search_accounts("%") == []
        await store.follow(badr, amira)
        await store.block(amira, badr)
        await store.delete_account(amira)
        assert await store.notifications(amira) == [] and await store.pushes(amira) == []
        assert await store.blocked_ids(badr) == set()
        assert [p.username for p in await store.search_accounts("am")] == ["Amina"]

    run(url, scenario)
