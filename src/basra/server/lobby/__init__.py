"""The live tables by id, and the ways to reach one: play a bot, a private table, an invite,
rematch, eviction and the sweep.
"""
