"""``python -m basra``: the ``basra`` command."""

from basra.cli.main import main

if __name__ == "__main__":  # not when a worker process (spawned) imports the main module
    raise SystemExit(main())
