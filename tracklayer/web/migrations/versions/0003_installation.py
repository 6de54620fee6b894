"""The installation's name, made once with its database: its live-update channels carry it,
so that installations sharing one Redis never hear each other's games.

Revision ID: 0003
Revises: 0002
"""
import uuid

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table("installation", sa.Column("id", sa.String(32), primary_key=True))
    op.bulk_insert(table, [{"id": uuid.uuid4().hex}])


def downgrade() -> None:
    op.drop_table("installation")
