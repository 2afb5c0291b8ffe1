"""One live table: its actor (the inbox loop, glue over the ports it is given), the match
flow it holds as a member, seats and presence, what clients' messages do, the clock, the
seed window, bots thinking off the loop, the players' standing at a rated table, each
connection's outbox and the snapshot every seat is sent (read over a narrow protocol).
"""
