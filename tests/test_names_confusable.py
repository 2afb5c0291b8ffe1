"""Look-alike names (issue 25, item 6): Unicode's confusable skeleton (UTS #39) keeps an
account's username from looking like another's, and no username or guest nickname may hold
a character that shows nothing (zero-width, bidi control, variation selector, combining
grapheme joiner, Mongolian FVS, Khmer inherent vowel, Hangul filler...). Names wholly in
one script (Arabic, French with its accents, Serbian in Cyrillic or in Latin) stay allowed.

The cleaning and the key, then the store (both back ends: a claim, the 0005 migration),
then the HTTP API against a real server."""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import httpx
import pytest

from basra.confusables import (
    DEFAULT_IGNORABLE,
    default_ignorable,
    first_hidden,
    hidden,
    lookalike_key,
    prototypes,
    skeleton,
)
from basra.confusables_data import PROTOTYPES, VERSION
from basra.server.identity.accounts import UsernameError, clean_username
from basra.server.identity.guests import HiddenCharacter, NicknameError, clean_nickname
from basra.store import Store
from basra.store.base import UsernameLookalike, UsernameTaken
from server_harness import (
    Backend,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    serve,
)
from store.test_accounts import old_database
from store.test_store import run, scalars

HIDDEN = {
    "\u034f": "COMBINING GRAPHEME JOINER",
    "\ufe0f": "VARIATION SELECTOR-16",
    "\ufe00": "VARIATION SELECTOR-1",
    "\U000e0100": "VARIATION SELECTOR-17",
    "\u180b": "MONGOLIAN FREE VARIATION SELECTOR ONE",
    "\u180f": "MONGOLIAN FREE VARIATION SELECTOR FOUR",
    "\u17b4": "KHMER VOWEL INHERENT AQ",
    "\u17b5": "KHMER VOWEL INHERENT AA",
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER",
    "\u2060": "WORD JOINER",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
    "\u00ad": "SOFT HYPHEN",
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u061c": "ARABIC LETTER MARK",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u3164": "HANGUL FILLER",
    "\u115f": "HANGUL CHOSEONG FILLER",
    "\U00016fe4": "KHITAN SMALL SCRIPT FILLER",
    "\U000e0041": "TAG LATIN CAPITAL LETTER A",
}
"""Characters a name may not hold, with their Unicode names."""

LOOKALIKES_OF_AMIRA = (
    "Ａｍｉｒａ",   # fullwidth letters
    "Ａmira",      # one fullwidth letter
    "Amira.",     # a trailing dot
    ".Amira",     # a leading one
    "Ami.ra",     # or one inside
    "Amira_",
    "Ami ra",
    "Ami-ra",
    "Arnira",     # r n for m
    "amira",      # the same name in another case
)
"""Names that look like ``Amira`` (or are it, in another case). ``AMIRA`` is the same
username too (compared case-insensitively), though its key is not: its ``I`` is ``l``'s."""

ONE_SCRIPT = (
    "أميرة", "أحمد_77", "محمد علي", "فاطمة الزهراء",     # Arabic
    "Élodie", "François", "Zoé-Anaïs", "Hélène d'Arc",   # French
    "Ђорђе", "Јована", "Љубиша", "Милош Ј",              # Serbian, Cyrillic
    "Đorđe", "Jovana", "Ljubiša", "Čedomir",             # Serbian, Latin
    "Amira",
)
"""Names that stay allowed, each looking like no other of them."""


# ---------------------------------------------------------------------------------------
# the data and the skeleton


def test_the_data_is_unicodes_confusables_file_whole() -> None:
    rows = PROTOTYPES.splitlines()
    assert VERSION == "16.0.0" and len(rows) == 6355  # "# total: 6355" in the file
    table = prototypes()
    assert len(table) == len(rows)  # one prototype per character
    assert table["\uff21"] == "A" and table["I"] == table["1"] == "l"
    assert table["m"] == "rn" and table["\u0430"] == "a"  # Cyrillic a


def test_skeleton_follows_uts_39() -> None:
    assert skeleton("Ａmira") == skeleton("Amira") == "Arnira"
    assert skeleton("AmIra") == skeleton("Am1ra") == skeleton("Amlra") == "Arnlra"
    assert skeleton("\u0410mira") == skeleton("Amira")  # a Cyrillic А
    assert skeleton("Am\u034fira") == skeleton("Amira")  # default-ignorables go
    assert skeleton("E\u0301lodie") == skeleton("Élodie")  # composed or not
    assert skeleton("Élodie") != skeleton("Elodie")  # an accent shows


def test_the_key_settles_for_every_character_the_data_maps() -> None:
    for ch in prototypes():
        key = lookalike_key(ch)
        assert lookalike_key(key) == key, (ch, key)


@pytest.mark.parametrize("name", LOOKALIKES_OF_AMIRA)
def test_each_lookalike_of_amira_shares_its_key(name: str) -> None:
    assert lookalike_key(name) == lookalike_key("Amira")


def test_l_capital_i_and_one_look_alike_in_any_case() -> None:
    """UTS #39 takes ``l``, ``I`` and ``1`` for one another (not ``i``, which has a dot):
    ``Amlra`` looks like ``AmIra``, and so does ``amlra``, another case of it."""
    keys = {lookalike_key(name) for name in ("AmIra", "Amlra", "Am1ra", "amlra", "AMLRA")}
    assert len(keys) == 1
    assert lookalike_key("Amlra") != lookalike_key("Amira")


def test_names_wholly_in_one_script_stay_allowed_and_apart() -> None:
    for name in ONE_SCRIPT:
        assert clean_username(name) == name
        assert clean_nickname(name) == name
    keys = [lookalike_key(name) for name in ONE_SCRIPT]
    assert len(set(keys)) == len(keys)


def test_a_whole_script_lookalike_shares_the_key() -> None:
    """Cyrillic ``Асо`` (every letter Cyrillic) looks like Latin ``Aco``: one key, so the
    second of them to be claimed is refused."""
    assert clean_username("Асо") == "Асо"
    assert lookalike_key("Асо") == lookalike_key("Aco")


# ---------------------------------------------------------------------------------------
# invisible and variation characters


def test_default_ignorable_is_unicodes_property() -> None:
    """Every format character is default-ignorable but those Unicode keeps visible
    (prepended concatenation marks, interlinear annotation, Egyptian format controls),
    and the others are Other_Default_Ignorable_Code_Point and the variation selectors."""
    visible = {*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
               *range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440)}
    for point in range(0x110000):
        ch = chr(point)
        if unicodedata.category(ch) == "Cf":
            assert default_ignorable(ch) == (point not in visible), hex(point)
    others = {point for low, high in DEFAULT_IGNORABLE for point in range(low, high + 1)
              if unicodedata.category(chr(point)) not in ("Cf", "Cn")}
    assert others == {0x34F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D,
                      0x180F, 0x3164, 0xFFA0, *range(0xFE00, 0xFE10),
                      *range(0xE0100, 0xE01F0)}


@pytest.mark.parametrize("ch", sorted(HIDDEN))
def test_a_hidden_character_is_refused_with_its_own_code(ch: str) -> None:
    assert hidden(ch) and first_hidden(f"Am{ch}ira") == ch
    with pytest.raises(HiddenCharacter) as nickname:
        clean_nickname(f"Am{ch}ira")
    assert nickname.value.code == "guest/nickname_invisible"
    message = nickname.value.message
    assert "\n" not in message and ch not in message
    assert f"U+{ord(ch):04X} {HIDDEN[ch]}" in message
    with pytest.raises(UsernameError) as username:
        clean_username(f"Am{ch}ira")
    assert username.value.code == "account/username_invisible"
    assert username.value.message.startswith("a username may not hold invisible")


def test_hidden_characters_alone_or_at_the_ends_are_refused_too() -> None:
    for raw in ("\u3164\u3164", "\u200bAmira", "Amira\ufe0f", "\u202eArima"):
        with pytest.raises(HiddenCharacter):
            clean_nickname(raw)


def test_other_refusals_keep_their_codes() -> None:
    for raw in ("x", "bot:hard", "Am!ra"):
        with pytest.raises(NicknameError) as nickname:
            clean_nickname(raw)
        assert nickname.value.code == "guest/bad_nickname"
        with pytest.raises(UsernameError) as username:
            clean_username(raw)
        assert username.value.code == "account/bad_username"
    with pytest.raises(UsernameError, match="one alphabet"):
        clean_username("\u0410mira")  # a Cyrillic А among Latin letters
    with pytest.raises(UsernameError, match="like punctuation"):
        clean_username("\u0660\u0660")  # Arabic-Indic zeros look like dots
    assert clean_nickname("\u0660\u0660") == "\u0660\u0660"  # a guest may: not unique


def test_generated_and_common_names_have_no_hidden_character() -> None:
    assert first_hidden("Swift Falcon") is None and first_hidden("صقر سريع") is None
    assert first_hidden("한국어") is None  # Hangul syllables, not fillers


# ---------------------------------------------------------------------------------------
# the store


def test_the_store_refuses_a_username_that_looks_like_anothers(url: str) -> None:
    async def scenario(store: Store) -> None:
        for pid, name in (("p1", "Amira"), ("p2", "Guest2"), ("p3", "Guest3")):
            await store.create_player(pid, name, f"hash-{pid}")
        await store.claim_account("p1", "Amira", None)
        assert await store.lookalike("Amira") == "Amira"
        for name in LOOKALIKES_OF_AMIRA:
            assert await store.lookalike(name) == "Amira", name
            error = UsernameTaken if name.casefold() == "amira" else UsernameLookalike
            with pytest.raises(error):
                await store.claim_account("p2", name, None)
        with pytest.raises(UsernameTaken):
            await store.claim_account("p2", "AMIRA", None)
        await store.claim_account("p2", "Sallm", None)
        assert await store.lookalike("Salim") is None  # i has a dot: not l
        for name in ("SaIIm", "Sa11m", "SAlIM"):  # capital I and 1 look like l
            assert await store.lookalike(name) == "Sallm", name
            with pytest.raises(UsernameLookalike):
                await store.claim_account("p3", name, None)
        guest = await store.player("p3")
        assert guest is not None and not guest.account
        # A deleted account's name is free again.
        await store.delete_account("p1")
        assert await store.lookalike("Amira") is None
        assert (await store.claim_account("p3", "Amira.", None)).username == "Amira."
        assert await scalars(store, "SELECT username_skeleton FROM players WHERE id = 'p1'") \
            == [None]

    run(url, scenario)


def test_migrating_a_0004_database_fills_the_lookalike_keys(tmp_path: Path) -> None:
    path = old_database(tmp_path, "0004")
    old_url = f"sqlite+aiosqlite:///{path}"
    old = sqlite3.connect(path)
    old.executescript("""
        INSERT INTO players (id, nickname, token_hash, created_at, username, username_key)
            VALUES ('p1', 'Amira', 'h1', '2025-01-01 10:00:00', 'Amira', 'amira');
        INSERT INTO players (id, nickname, token_hash, created_at, username, username_key)
            VALUES ('p2', 'Ａｍｉｒａ', 'h2', '2025-01-02 10:00:00', 'Ａｍｉｒａ', 'ａｍｉｒａ');
        INSERT INTO players (id, nickname, token_hash, created_at)
            VALUES ('p3', 'Guest', 'h3', '2025-01-03 10:00:00');
    """)
    old.commit()
    old.close()

    async def scenario(store: Store) -> None:
        assert await scalars(store, "SELECT username_skeleton FROM players ORDER BY id") == [
            "arnira", "arnira", None]  # the two that looked alike keep their names
        assert await store.lookalike("Amira.") == "Amira"  # the older one
        with pytest.raises(UsernameLookalike):
            await store.claim_account("p3", "amira_", None)

    run(old_url, scenario)


# ---------------------------------------------------------------------------------------
# over HTTP


def test_lookalike_and_hidden_names_are_refused_over_http(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        r = await http.post(f"{base}/api/account", headers=amira.headers,
                            json={"username": "Amira"})
        assert r.status_code == 201, r.text
        other = await new_guest(base, http, "Amira")  # guests' nicknames are not unique
        url = f"{base}/api/account"
        for username, status, code in (
                ("Ａｍｉｒａ", 409, "account/username_lookalike"),
                ("Amira.", 409, "account/username_lookalike"),
                ("ami_ra", 409, "account/username_lookalike"),
                ("amira", 409, "account/username_taken"),
                ("Am\u034fira", 422, "account/username_invisible"),
                ("Amira\ufe0f", 422, "account/username_invisible"),
                ("Am\u180bira", 422, "account/username_invisible"),
                ("Am\u17b4ira", 422, "account/username_invisible"),
                ("\u0410mira", 422, "account/bad_username")):
            r = await http.post(url, headers=other.headers, json={"username": username})
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), username
            assert "\n" not in r.json()["error"]["message"]
        for name in ("أميرة", "Élodie", "Ђорђе", "Đorđe"):  # one script each: allowed
            guest = await new_guest(base, http, "Guest")
            r = await http.post(url, headers=guest.headers, json={"username": name})
            assert r.status_code == 201 and r.json()["username"] == name, r.text
        r = await http.post(f"{base}/api/guests", json={"nickname": "Amira\u200d"})
        assert (r.status_code, r.json()["error"]["code"]) == (422, "guest/nickname_invisible")
        r = await http.patch(f"{base}/api/me", headers=other.headers,
                             json={"nickname": "Am\u034fira"})
        assert (r.status_code, r.json()["error"]["code"]) == (422, "guest/nickname_invisible")

    serve(backend, scenario)
