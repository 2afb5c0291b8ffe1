"""Quick match: the pools players wait in for a variant, and the one pairing pass over them.

- :mod:`~basra.server.quick.pools`: a :class:`~basra.server.quick.pools.Ticket`, the
  :class:`~basra.server.quick.pools.PoolStore` port (where tickets wait), the rated rule
  (:func:`~basra.server.quick.pools.rated_pair`) and the pairing pass
  (:func:`~basra.server.quick.pools.pair_waiting`), each written once;
- :mod:`~basra.server.quick.memory`: the pools of one process, the port's in-memory
  implementation (cluster mode's is :class:`basra.server.cluster.pools.RedisQueue`).

Who may meet whom is :mod:`basra.server.quick.pairing` (pure)."""
