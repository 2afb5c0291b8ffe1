"""``basra arena``: two players over many duplicate deals, the games and the figures."""
