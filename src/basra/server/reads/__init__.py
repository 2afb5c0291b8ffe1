"""Read models served over HTTP: the live list, replays, analyses and tables that left
memory, each computed once however many ask.
"""
