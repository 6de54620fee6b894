"""Alembic's environment: migrations run on the connection the app hands over (see
``db.migrate``), in batch mode so that SQLite can alter tables."""

from alembic import context

from tracklayer.web.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
