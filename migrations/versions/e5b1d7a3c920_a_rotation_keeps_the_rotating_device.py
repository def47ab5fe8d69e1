"""a table remembers the device that rotated its links: that device keeps its right

Revision ID: e5b1d7a3c920
Revises: c7f2a9e4d113
Create Date: 2026-11-26 20:20:00

The column starts empty: no device kept, as before. Nothing is read or rewritten.
"""
import sqlalchemy as sa
from alembic import op

revision = 'e5b1d7a3c920'
down_revision = 'c7f2a9e4d113'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tichu_group', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kept_device', sa.String(length=24), nullable=True))


def downgrade():
    with op.batch_alter_table('tichu_group', schema=None) as batch_op:
        batch_op.drop_column('kept_device')
