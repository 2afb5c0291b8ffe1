"""``basra play``: a match against bots in the terminal (the session, what the person sees,
their answers, the help's words and their part of each seed).
"""
