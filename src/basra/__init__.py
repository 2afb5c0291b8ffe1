"""Basra: the Arab world's classic fishing card game.

The rules engine (:mod:`basra.engine`) for four variants as data (:mod:`basra.rules`), the
provably fair shuffle (:mod:`basra.shuffle`), per-seat views (:mod:`basra.views`), match
records (:mod:`basra.records`) and the ``basra`` command (:mod:`basra.cli`).
"""

__version__ = "0.1.0"
