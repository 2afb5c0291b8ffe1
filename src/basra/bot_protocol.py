"""``python -m basra.bot_protocol``: basra-engine/1's public entry point (docs/ENGINE_PROTOCOL.md).

The command itself is :mod:`basra.engine_protocol.command`; this name stays where outside
programs and their scripts have always found it.
"""

from __future__ import annotations

import sys

from basra.engine_protocol.command import main

if __name__ == "__main__":
    sys.exit(main())
