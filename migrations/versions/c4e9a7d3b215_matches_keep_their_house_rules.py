"""matches keep their house rules, a lead that ends them, and their victory points

Revision ID: c4e9a7d3b215
Revises: b7d4e1f02a95
Create Date: 2026-11-27 06:20:00

Every match stored before plays by the rule book: the columns start empty (None), which
the app reads as the rule book, no lead that ends the match and no victory points.
Nothing is read or rewritten.
"""
import sqlalchemy as sa
from alembic import op

revision = 'c4e9a7d3b215'
down_revision = 'b7d4e1f02a95'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('house_rules', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('lead_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('victory', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_column('victory')
        batch_op.drop_column('lead_by')
        batch_op.drop_column('house_rules')
