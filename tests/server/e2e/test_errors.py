"""One error family, one table from code to HTTP status: every code in
``basra.server.wire.errors.STATUS`` answers its status through a real request (raised in a route,
and where the API makes it, by the API itself); an unknown code answers the default."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from basra.errors import UnknownVariantError
from basra.server.app import create_app
from basra.server.config import Limits
from basra.server.wire.errors import DEFAULT_STATUS, STATUS, RateLimited, Refusal, status_of
from server_harness import database, new_guest, running_server, serve

UNKNOWN = "nobody/knows"


def test_every_code_answers_its_status_through_the_one_handler(tmp_path: Path) -> None:
    """A route that raises ``Refusal(message, code)`` for any code: the answer is
    ``{"error": {"code", "message"}}`` with the table's status, the default for a code the
    table does not know, ``http/NNN``'s own number, and ``Retry-After`` for a limit. Any
    other error, the package's own ``BasraError`` included, is a fault: 500
    ``server/internal``, without its message."""
    with database("sqlite", tmp_path) as store:
        settings = store.settings()
        app = create_app(settings)

        async def raiser(code: str) -> None:
            raise Refusal(f"raised {code}", code)

        async def fault() -> None:  # e.g. a stored table whose variant no longer exists
            raise UnknownVariantError("unknown variant 'gone' (known: egyptian)")

        async def limited() -> None:
            raise RateLimited.too_many("tests", 2.5)

        app.add_api_route("/test/raise", raiser, methods=["GET"])
        app.add_api_route("/test/limited", limited, methods=["GET"])
        app.add_api_route("/test/fault", fault, methods=["GET"])
        with running_server(settings, app) as base:
            for code, status in [*STATUS.items(), (UNKNOWN, DEFAULT_STATUS), ("http/418", 418),
                                 ("play/not_in_hand", 400)]:
                r = httpx.get(f"{base}/test/raise", params={"code": code})
                assert (r.status_code, r.json()) == (status, {"error": {
                    "code": code, "message": f"raised {code}"}}), code
                assert status_of(code) == status
            r = httpx.get(f"{base}/test/fault")
            assert (r.status_code, r.json()) == (500, {"error": {
                "code": "server/internal", "message": "the server could not do that"}})
            r = httpx.get(f"{base}/test/limited")
            assert r.status_code == 429 and r.headers["Retry-After"] == "3"
            assert r.json()["error"] == {
                "code": "rate/limited",
                "message": "too many tests from your address: try again in 3 s"}


@pytest.mark.parametrize("code", sorted(STATUS))
def test_the_table_knows_each_code_once(code: str) -> None:
    assert status_of(code) == STATUS[code] and 400 <= STATUS[code] <= 599


def test_the_api_raises_its_codes_unwrapped(tmp_path: Path) -> None:
    """The codes as the API itself makes them (nickname, lobby, seat, limit, framework),
    each with the status of the one table."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        seen: dict[str, int] = {}

        def note(r: httpx.Response) -> None:
            code = r.json()["error"]["code"]
            assert r.status_code == status_of(code), (code, r.status_code)
            seen[code] = r.status_code

        note(await http.get(f"{base}/api/me"))
        note(await http.post(f"{base}/api/guests", json={"nickname": "x"}))
        note(await http.post(f"{base}/api/guests", json={"nickname": ["Amira"]}))
        note(await http.post(f"{base}/api/guests", content=b"{" + b" " * 20_000 + b"}",
                             headers={"content-type": "application/json"}))
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        lina = await new_guest(base, http, "Lina")
        note(await http.post(f"{base}/api/guests", json={"nickname": "Late"}))  # burst 3
        note(await http.get(f"{base}/api/tables/nope"))
        note(await http.get(f"{base}/api/quick-match/nope", headers=amira.headers))
        note(await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                             json={"variant": "nope"}))
        started = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={})).json()["table"]
        await http.post(f"{base}/api/tables/join", headers=omar.headers,
                        json={"invite_code": started["invite_code"]})
        note(await http.post(f"{base}/api/tables/join", headers=lina.headers,
                             json={"invite_code": started["invite_code"]}))
        waiting = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={"variant": "lebanese", "players": 3})).json()["table"]
        note(await http.post(f"{base}/api/tables/{waiting['id']}/bots", headers=omar.headers,
                             json={"level": "random"}))
        note(await http.post(f"{base}/api/tables/{waiting['id']}/bots", headers=amira.headers,
                             json={"seat": 0, "level": "random"}))
        ticket = (await http.post(f"{base}/api/quick-match", headers=omar.headers,
                                  json={})).json()["ticket"]
        paired = (await http.post(f"{base}/api/quick-match", headers=lina.headers,
                                  json={})).json()["ticket"]
        await http.get(f"{base}/api/quick-match/{paired}?wait=5", headers=lina.headers)
        note(await http.post(f"{base}/api/quick-match/{ticket}/bot", headers=omar.headers,
                             json={"level": "random"}))
        note(await http.get(f"{base}/nowhere/at/all"))
        note(await http.delete(f"{base}/api/guests"))
        assert seen == {"auth/required": 401, "guest/bad_nickname": 422,
                        "request/invalid": 422, "request/too_large": 413,
                        "rate/limited": 429, "table/not_found": 404, "queue/not_found": 404,
                        "table/bad_options": 400, "table/started": 409,
                        "table/not_owner": 409, "table/seat_taken": 409,
                        "queue/matched": 409, "http/404": 404, "http/405": 405}

    serve(tmp_path, scenario, limits=Limits(guest_burst=3, guests_per_minute=0.01))


