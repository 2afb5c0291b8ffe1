"""basra-ws/2 on the wire: the messages a client sends (typed, parsed), the messages a table
sends (typed, encoded), the server's error family, the fixed phrases and what of a record may
be sent. Plain data: imports nothing of the server above it.
"""
