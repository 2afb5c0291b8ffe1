"""Alembic's environment: run the migrations on the connection the store hands over.

The store opens the connection, takes the migration lock and begins the transaction
(:func:`basra.store.sql.engine.migrate`); this file only runs the migrations inside it. There is
no offline (``--sql``) mode and no URL of its own. Imported as a module (to read its
docstrings, say) it runs nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from basra.store.schema import metadata


def run_migrations() -> None:
    """Upgrade on ``config.attributes["connection"]``, in its open transaction."""
    connection = context.config.attributes.get("connection")
    if context.is_offline_mode() or not isinstance(connection, Connection):
        raise RuntimeError("basra's migrations run from the store: await store.open()")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if __name__ != "basra.store.migrations.env":  # Alembic runs the file; an import runs nothing
    run_migrations()
