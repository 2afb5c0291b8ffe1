"""Friendly generated names for guests who have not chosen one (one tap to play): an
adjective, an animal and a number, always a valid nickname (:func:`clean_nickname`).

>>> from basra.server.auth import clean_nickname
>>> name = friendly_name()
>>> clean_nickname(name) == name
True
"""

from __future__ import annotations

import secrets

ADJECTIVES = ("Swift", "Lucky", "Brave", "Calm", "Clever", "Bold", "Quick", "Happy",
              "Sunny", "Merry", "Keen", "Wise", "Jolly", "Noble", "Gentle", "Bright",
              "Proud", "Witty", "Kind", "Daring")
ANIMALS = ("Falcon", "Heron", "Gazelle", "Camel", "Oryx", "Lynx", "Ibis", "Otter", "Fox",
           "Hawk", "Dolphin", "Eagle", "Owl", "Lion", "Tiger", "Panda", "Sparrow", "Stork",
           "Hoopoe", "Jackal")


def friendly_name() -> str:
    """A name such as ``Swift Falcon 27`` (400 pairs times 90 numbers)."""
    return (f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)} "
            f"{10 + secrets.randbelow(90)}")
