"""A game's creator token (to issue a lost seat link again) and each seat's turn webhook.

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator_token", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_game_creator_token", ["creator_token"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("webhook_url", sa.String(500), nullable=True))
        batch.add_column(sa.Column("webhook_site", sa.String(300), nullable=True))
        batch.add_column(sa.Column("webhook_seat_link", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("webhook_seat_link")
        batch.drop_column("webhook_site")
        batch.drop_column("webhook_url")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_game_creator_token", type_="unique")
        batch.drop_column("creator_token")
