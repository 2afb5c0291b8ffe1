"""Where searching bots think, never in the server's event loop.

:mod:`~.service`: the :class:`~.service.BotService` protocol (what a table's thinking and
the analyses call), the search budgets and the search itself; :mod:`~.local`: this
process's own pool of worker processes; :mod:`~.jobs`: the Redis keys and job format of
cluster mode; :mod:`~.redis_bots`: the client that sends searches as jobs; :mod:`~.worker`:
``basra bot-worker``, the worker processes that answer them; :mod:`~.factory`: which of
the two services a server runs.

Imports go one way: ``service`` <- ``jobs`` <- ``worker`` <- ``redis_bots`` <- ``factory``
and ``service`` <- ``local`` <- ``factory``; nothing here imports the server (the server
imports this package), and the package's own ``__init__`` imports nothing, so a bot worker
process loads only what it runs.
"""
