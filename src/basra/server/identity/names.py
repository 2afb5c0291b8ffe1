"""Friendly generated names for guests who have not chosen one (one tap to play): an
adjective, an animal and a number, in the reader's language (English, Arabic, French or
Serbian), always a valid nickname (:func:`~basra.server.identity.guests.clean_nickname`).

>>> from basra.server.identity.guests import clean_nickname
>>> all(clean_nickname(n) == n for n in (friendly_name(lang) for lang in NAMES))
True
"""

from __future__ import annotations

import secrets

NAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]] = {
    "en": (("Swift", "Lucky", "Brave", "Calm", "Clever", "Bold", "Quick", "Happy", "Sunny",
            "Merry", "Keen", "Wise", "Jolly", "Noble", "Gentle", "Bright", "Proud", "Witty",
            "Kind", "Daring"),
           ("Falcon", "Heron", "Gazelle", "Camel", "Oryx", "Lynx", "Ibis", "Otter", "Fox",
            "Hawk", "Dolphin", "Eagle", "Owl", "Lion", "Tiger", "Panda", "Sparrow", "Stork",
            "Hoopoe", "Jackal"), True),
    "ar": (("سريع", "محظوظ", "شجاع", "هادئ", "ذكي", "جريء", "سعيد", "مرح", "حكيم", "نبيل",
            "لطيف", "لامع", "فخور", "ظريف", "كريم", "نشيط", "بارع", "وفي", "حذر", "أنيق"),
           ("صقر", "غزال", "جمل", "نمر", "أسد", "فهد", "نسر", "ثعلب", "دلفين", "هدهد", "لقلق",
            "حصان", "ذئب", "بلبل", "طاووس", "باز", "نورس", "سنجاب", "قنفذ", "فيل"), False),
    "fr": (("Rapide", "Chanceux", "Brave", "Calme", "Malin", "Audacieux", "Joyeux", "Sage",
            "Noble", "Doux", "Vif", "Fier", "Gentil", "Habile", "Rusé", "Agile", "Futé",
            "Serein", "Vaillant", "Espiègle"),
           ("Faucon", "Héron", "Chameau", "Lynx", "Ibis", "Renard", "Aigle", "Hibou", "Lion",
            "Tigre", "Panda", "Moineau", "Dauphin", "Chacal", "Loup", "Cheval", "Castor",
            "Ours", "Paon", "Goéland"), False),
    "sr": (("Brzi", "Srećni", "Hrabri", "Mirni", "Pametni", "Smeli", "Veseli", "Mudri",
            "Plemeniti", "Blagi", "Vedri", "Ponosni", "Dobri", "Vešti", "Lukavi", "Okretni",
            "Čili", "Spretni", "Odvažni", "Nestašni"),
           ("Soko", "Ždral", "Jelen", "Ris", "Lisac", "Orao", "Lav", "Tigar", "Vrabac",
            "Delfin", "Šakal", "Vuk", "Konj", "Dabar", "Medved", "Paun", "Galeb", "Ovan",
            "Jež", "Slon"), True),
}
"""Per language: adjectives, animals, and whether the adjective comes first (English and
Serbian ``Swift Falcon``; Arabic and French put it after: ``صقر سريع``, ``Faucon Rapide``)."""


def friendly_name(language: str | None = None) -> str:
    """A name such as ``Swift Falcon 27`` (400 pairs times 90 numbers); English when the
    language is not one of ours."""
    adjectives, animals, first = NAMES.get((language or "en")[:2].lower(), NAMES["en"])
    adjective, animal = secrets.choice(adjectives), secrets.choice(animals)
    words = f"{adjective} {animal}" if first else f"{animal} {adjective}"
    return f"{words} {10 + secrets.randbelow(90)}"


def generated(nickname: str) -> bool:
    """Whether ``nickname`` is one :func:`friendly_name` could have made (a name the
    player never chose: claiming an account replaces it with the username).

    >>> generated("Swift Falcon 27"), generated("صقر سريع 40"), generated("Amira")
    (True, True, False)
    """
    words = nickname.split(" ")
    if len(words) != 3 or not (words[2].isascii() and words[2].isdigit()):
        return False
    for adjectives, animals, first in NAMES.values():
        adjective, animal = (words[0], words[1]) if first else (words[1], words[0])
        if adjective in adjectives and animal in animals and 10 <= int(words[2]) <= 99:
            return True
    return False
