"""Cluster mode only: many ``basra serve`` nodes as one site through PostgreSQL and Redis.
Table leases, the fence around the table store, node-to-node messages and their relay, and
quick match's pools in Redis.
"""
