"""the match log names the phone that made each change (when the phone has a name)

Revision ID: b7d4e1f02a95
Revises: f3a8c5d1b264
Create Date: 2026-11-27 06:00:00

The column starts empty for every entry already logged: made on a phone without a name,
as the log and the live note say. Nothing is read or rewritten.
"""
import sqlalchemy as sa
from alembic import op

revision = 'b7d4e1f02a95'
down_revision = 'f3a8c5d1b264'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand_event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('phone', sa.String(length=24), nullable=True))


def downgrade():
    with op.batch_alter_table('hand_event', schema=None) as batch_op:
        batch_op.drop_column('phone')
