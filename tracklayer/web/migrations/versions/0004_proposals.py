"""Proposals: trades between different owners waiting for (or given) the other side's
answer (``tracklayer.play.consent``).

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("proposer", sa.Integer, nullable=False),
        sa.Column("responder", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("deal", sa.Text, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_table("proposals")
