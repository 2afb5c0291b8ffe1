"""The game server: ``basra serve``. One table is one asyncio actor; the store is durable;
every message to a client is its seat's view (docs/PROTOCOL.md)."""
