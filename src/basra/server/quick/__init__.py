"""Quick match: the pools players wait in for a variant and a seating, partner invites, and
the one pass that fills a pool's tables.

- :mod:`~basra.server.quick.pools`: a :class:`~basra.server.quick.pools.Pool` and a
  :class:`~basra.server.quick.pools.Ticket`, the
  :class:`~basra.server.quick.pools.PoolStore` port (where tickets and partner invites
  wait), the rated rule (:func:`~basra.server.quick.pools.rated_table`) and the pass
  (:func:`~basra.server.quick.pools.pair_waiting`), each written once;
- :mod:`~basra.server.quick.memory`: the pools of one process, the port's in-memory
  implementation (cluster mode's is :class:`basra.server.cluster.pools.RedisQueue`).

Who may meet whom is :mod:`basra.server.quick.pairing` (pure)."""
