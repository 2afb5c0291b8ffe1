"""The lessons' routes against a real ``basra serve`` (issue 29): the list, one lesson, an
unknown one refused with its code, an account's progress kept (and shown only to it), and
a guest's refused: a guest keeps its ticks in its browser."""

from __future__ import annotations

from typing import Any

import httpx

from basra.lessons import LESSON_IDS, lesson_json
from server.e2e.test_rated_play import account
from server_harness import new_guest, serve


def test_the_list_a_lesson_and_an_accounts_progress(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.get(f"{base}/api/lessons")
        assert r.status_code == 200
        listed = r.json()
        assert listed["format"] == "basra-lessons/1" and listed["done"] is None
        assert [x["id"] for x in listed["lessons"]] == list(LESSON_IDS)
        assert listed["lessons"][1] == {"id": "sum", "variant": "egyptian", "steps": 3,
                                        "title": "learn.lesson.sum.title",
                                        "intro": "learn.lesson.sum.intro"}

        r = await http.get(f"{base}/api/lessons/sum")
        assert r.status_code == 200 and r.json() == lesson_json("sum")
        assert r.json()["next"] == "match-and-sum"
        r = await http.get(f"{base}/api/lessons/nope")
        assert r.status_code == 404 and r.json()["error"]["code"] == "lesson/unknown"

        # Marking done is an account's: nobody signed in, then a guest, are refused.
        r = await http.put(f"{base}/api/me/lessons/sum")
        assert r.status_code == 401 and r.json()["error"]["code"] == "auth/required"
        guest = await new_guest(base, http, "Gaston")
        r = await http.put(f"{base}/api/me/lessons/sum", headers=guest.headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "account/required"
        r = await http.get(f"{base}/api/lessons", headers=guest.headers)
        assert r.json()["done"] is None

        amira = await account(base, http, "Amira")
        r = await http.get(f"{base}/api/lessons", headers=amira.headers)
        assert r.json()["done"] == {}
        r = await http.put(f"{base}/api/me/lessons/sum", headers=amira.headers)
        assert r.status_code == 200, r.text
        assert r.json()["new"] is True and list(r.json()["done"]) == ["sum"]
        r = await http.put(f"{base}/api/me/lessons/sum", headers=amira.headers)
        assert r.json()["new"] is False
        r = await http.put(f"{base}/api/me/lessons/match", headers=amira.headers)
        assert r.json()["new"] is True
        r = await http.put(f"{base}/api/me/lessons/nope", headers=amira.headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "lesson/unknown"
        done = (await http.get(f"{base}/api/lessons", headers=amira.headers)).json()["done"]
        assert sorted(done) == ["match", "sum"]
        assert all(at.endswith("+00:00") for at in done.values())
        # Another account sees only its own.
        badr = await account(base, http, "Badr")
        r = await http.get(f"{base}/api/lessons", headers=badr.headers)
        assert r.json()["done"] == {}

    serve(tmp_path, scenario)
