"""Basra: the Arab world's classic fishing card game.

The rules engine (:mod:`basra.game.engine`) for four variants as data (:mod:`basra.game.rules`), the
provably fair shuffle (:mod:`basra.game.shuffle`), per-seat views (:mod:`basra.game.views`), match
records (:mod:`basra.match.records`) and the ``basra`` command (:mod:`basra.cli.main`).
"""

__version__ = "0.1.0"
