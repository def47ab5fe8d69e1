"""matches keep their statistics: per-player and per-partnership tallies on the match row;
indexes for a page of a table's matches and for the statistics' checksum

Revision ID: b4e8c2a61f37
Revises: b3e8f41c5a27
Create Date: 2026-11-23 06:30:00

The column starts empty (NULL) for existing matches: statistics count such a match from its
hands the first time they are read and store the tallies then (`tichu_scorer.tallies`), so
the upgrade reads no hand and a large history upgrades at once.
"""
import sqlalchemy as sa
from alembic import op

revision = 'b4e8c2a61f37'
down_revision = 'b3e8f41c5a27'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stats', sa.JSON(none_as_null=True), nullable=True))
        batch_op.create_index('ix_match_listing', ['group_id', 'started_at', 'id'],
                              unique=False)
        batch_op.create_index('ix_match_revisions', ['group_id', 'variant', 'revision'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_index('ix_match_revisions')
        batch_op.drop_index('ix_match_listing')
        batch_op.drop_column('stats')
