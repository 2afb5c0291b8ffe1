"""An account's browser settings against a real ``basra serve`` (issue 30): nobody signed
in and a guest refused (a guest's settings stay in its browser), an account's kept across
requests (a change of some names keeps the others) and shown only to it, and an unknown
name or a value not among a setting's choices refused with ``settings/bad_value``."""

from __future__ import annotations

from typing import Any

import httpx

from server.e2e.test_rated_play import account
from server_harness import new_guest, serve


def test_an_accounts_settings_are_kept_and_checked(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        url = f"{base}/api/me/settings"
        r = await http.get(url)
        assert r.status_code == 401 and r.json()["error"]["code"] == "auth/required"
        guest = await new_guest(base, http, "Gaston")
        for r in (await http.get(url, headers=guest.headers),
                  await http.put(url, headers=guest.headers, json={"theme": "light"})):
            assert r.status_code == 403 and r.json()["error"]["code"] == "account/required"

        amira = await account(base, http, "Amira")
        r = await http.get(url, headers=amira.headers)
        assert r.status_code == 200 and r.json() == {"settings": {}}
        r = await http.put(url, headers=amira.headers, json={
            "theme": "light", "deck": "four", "contrast": "high", "cardSize": "large",
            "motion": "off", "sound": False, "autoContinue": True, "confirmPlay": True,
            "reader": False, "language": "ar"})
        assert r.status_code == 200, r.text
        r = await http.put(url, headers=amira.headers, json={"theme": "dark", "sound": True})
        assert r.status_code == 200, r.text
        kept = {"theme": "dark", "deck": "four", "contrast": "high", "cardSize": "large",
                "motion": "off", "sound": True, "autoContinue": True, "confirmPlay": True,
                "reader": False, "language": "ar"}
        assert r.json() == {"settings": kept}
        assert (await http.get(url, headers=amira.headers)).json() == {"settings": kept}

        # Refused, and nothing of the refused request kept.
        for bad in ({"theme": "pink"}, {"colour": "red"}, {"sound": "yes"}, {"sound": 1},
                    {"deck": True}, {"language": "de"}, {"cardSize": "large", "motion": 0}):
            r = await http.put(url, headers=amira.headers, json=bad)
            assert r.status_code == 422, (bad, r.text)
            assert r.json()["error"]["code"] == "settings/bad_value", bad
        r = await http.put(url, headers=amira.headers, json=["theme"])
        assert r.status_code == 422
        assert (await http.get(url, headers=amira.headers)).json() == {"settings": kept}

        # Another account has its own.
        badr = await account(base, http, "Badr")
        assert (await http.get(url, headers=badr.headers)).json() == {"settings": {}}

    serve(tmp_path, scenario)
