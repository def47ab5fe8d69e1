"""matches carry a change stamp per table: statistics read again only what changed

Revision ID: c7f2a9e4d113
Revises: b4e8c2a61f37
Create Date: 2026-11-24 04:30:00

The column starts empty (NULL) for existing matches, which reads as "not changed since
stored": statistics read every match of a table once per app process anyway, and the first
change of a match gives it its stamp. Nothing is read or rewritten by the upgrade. The
checksum's index gains the stamp, so that the checksum still reads the index alone. A table
keeps the highest stamp of a deleted match, so that stamps are never given twice.
"""
import sqlalchemy as sa
from alembic import op

revision = 'c7f2a9e4d113'
down_revision = 'b4e8c2a61f37'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tichu_group', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stamp', sa.Integer(), nullable=True))
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stamp', sa.Integer(), nullable=True))
        batch_op.create_index('ix_match_stamps', ['group_id', 'stamp'], unique=False)
        # the checksum sums the stamps too: still read from the index alone
        batch_op.drop_index('ix_match_revisions')
        batch_op.create_index('ix_match_revisions', ['group_id', 'variant', 'revision',
                                                     'stamp'], unique=False)


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_index('ix_match_revisions')
        batch_op.create_index('ix_match_revisions', ['group_id', 'variant', 'revision'],
                              unique=False)
        batch_op.drop_index('ix_match_stamps')
        batch_op.drop_column('stamp')
    with op.batch_alter_table('tichu_group', schema=None) as batch_op:
        batch_op.drop_column('stamp')
