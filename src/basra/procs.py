"""Process helpers the server's node processes and the bot workers share.

A leaf: it imports nothing of basra.
"""

from __future__ import annotations

import os
import threading
import time


def watch_parent(parent: int) -> None:
    """A child process's watch on its parent (a pool's worker's initializer, a bot worker
    process, a node of ``basra serve --workers``): the child ends when its parent process is
    gone, even one killed outright (nothing else would tell it: a pool's worker holds its
    own queue's pipe open)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


__all__ = ["watch_parent"]
