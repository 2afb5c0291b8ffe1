"""Tournaments (issue 27): arenas and Swiss events; here the pure pairing and standings."""
