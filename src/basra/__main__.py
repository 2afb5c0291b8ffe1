"""``python -m basra``: the ``basra`` command."""

from basra.cli import main

raise SystemExit(main())
