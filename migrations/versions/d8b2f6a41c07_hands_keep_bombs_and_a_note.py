"""hands keep the bombs played per player and a note; statistics count bombs

Revision ID: d8b2f6a41c07
Revises: c4e9a7d3b215
Create Date: 2026-11-27 06:40:00

Both are optional and never scored. Every hand stored before has no bombs counted and no
note (None); the statistics' rows start at 0 bombs, which is what those hands recorded.
Nothing is read or rewritten.
"""
import sqlalchemy as sa
from alembic import op

revision = 'd8b2f6a41c07'
down_revision = 'c4e9a7d3b215'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bombs', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('note', sa.String(length=200), nullable=True))
    for table in ('match_tally', 'table_tally'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('bombs', sa.Integer(), nullable=False,
                                          server_default='0'))


def downgrade():
    for table in ('table_tally', 'match_tally'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('bombs')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('note')
        batch_op.drop_column('bombs')
