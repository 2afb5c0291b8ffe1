"""Friends and challenges across a cluster's nodes, on this machine's real PostgreSQL and
Redis (they fail, never skip, when absent): a follower's page on node A hears a friend come
online on node B and leave; a challenge made on node B reaches the challenged's page on
node A, is accepted there, and the challenger's page on B hears the answer."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from redis.asyncio import Redis

from server.cluster.test_cluster import REDIS, SERVE, in_cluster_of, prefix
from server.e2e.test_rated_play import account
from server.social_kit import Page
from server_harness import ServeProcess, database


def test_presence_and_a_challenge_cross_nodes(tmp_path: Path) -> None:
    keys = prefix()
    with database("postgresql", tmp_path) as backend:
        nodes = [ServeProcess([*backend.serve_args(), "--redis", REDIS, "--redis-prefix", keys,
                               *SERVE], tmp_path / f"node{i}.log") for i in range(2)]

        async def in_cluster(redis: Redis) -> None:
            a, b = (n.base for n in nodes)
            async with httpx.AsyncClient(timeout=30) as http:
                amira = await account(a, http, "Amira")
                badr = await account(a, http, "Badr")
                assert (await http.post(f"{a}/api/follows/Badr", headers=amira.headers)
                        ).status_code == 200
                amira.base = a
                hers = await Page.open(amira)  # on node A
                badr.base = b
                his = await Page.open(badr)  # on node B
                told = await hers.next("presence", 10, player__username="Badr")
                assert told["online"] is True
                page = (await http.get(f"{b}/api/friends", headers=amira.headers)).json()
                assert page["friends"][0]["status"] == "online"  # asked on the other node
                # Badr challenges Amira from node B; her page on A hears it
                r = await http.post(f"{b}/api/challenges", headers=badr.headers,
                                    json={"to": "Amira", "variant": "serbian"})
                assert r.status_code == 201, r.text
                heard = await hers.next("notification", 10, notification__kind="challenge")
                made = heard["notification"]["body"]["challenge"]
                r = await http.post(f"{a}/api/challenges/{made['id']}/accept",
                                    headers=amira.headers)
                assert r.status_code == 200, r.text
                answer = await his.next("notification", 10,
                                        notification__kind="challenge_answered")
                assert answer["notification"]["body"]["challenge"]["table"] == r.json()["table"]
                await his.close()
                gone = await hers.next("presence", 15, player__username="Badr")
                assert gone["online"] is False
                await hers.close()

        try:
            asyncio.run(in_cluster_of(nodes, in_cluster))
        finally:
            for node in nodes:
                node.kill()
