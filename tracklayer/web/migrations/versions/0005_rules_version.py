"""Which rules accepted a game's log (the package version and the title's fingerprint:
``web.rules_version``), and what became of a game whose log the rules no longer accept
(``web.archive``): continued as a new game (the new game names the old one and the entry it
starts from; at most one per old game) or kept as an archive.

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rules_version", sa.String(40), nullable=True))
        batch.add_column(sa.Column("rules_fingerprint", sa.String(64), nullable=True))
        batch.add_column(sa.Column("continues_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("continued_at", sa.Integer, nullable=True))
        batch.add_column(sa.Column("archived", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.create_foreign_key("fk_game_continues", "games", ["continues_id"], ["id"])
        batch.create_unique_constraint("uq_game_continues", ["continues_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_game_continues", type_="unique")
        batch.drop_constraint("fk_game_continues", type_="foreignkey")
        batch.drop_column("archived")
        batch.drop_column("continued_at")
        batch.drop_column("continues_id")
        batch.drop_column("rules_fingerprint")
        batch.drop_column("rules_version")
