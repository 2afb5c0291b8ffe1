"""One live table: its actor (the inbox loop), the match flow it owns, seats and presence,
the clock, the seed window, bots thinking off the loop, each connection's outbox and the
snapshot every seat is sent.
"""
