"""The game itself: cards, the four rule sets as data, seats and sides, captures, the engine,
each seat's view, the fair shuffle and the rule book for clients.

Pure and fast: its hot modules are compiled with mypyc, and it imports nothing of basra but
:mod:`basra.errors`.
"""
