"""The store's Alembic migrations, shipped inside the package.

:meth:`basra.store.sql.SqlStore.open` runs them (upgrade to head) on its own connection;
``env.py`` only takes that connection. To write a migration, add
``versions/NNNN_what.py`` with ``revision = "NNNN"`` and ``down_revision`` the previous
one (``script.py.mako`` is the template), in explicit ``op`` calls: a migration is never
generated from the current metadata at run time. ``tests/store/test_store.py`` checks that the
migrated database matches :mod:`basra.store.schema`.
"""
