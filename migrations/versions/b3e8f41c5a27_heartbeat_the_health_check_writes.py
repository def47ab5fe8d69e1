"""heartbeat: the row /healthz writes to prove the database accepts a write

Revision ID: b3e8f41c5a27
Revises: 9a7d3c1f0e21
Create Date: 2026-11-23 05:45:00
"""
import sqlalchemy as sa
from alembic import op

revision = 'b3e8f41c5a27'
down_revision = '9a7d3c1f0e21'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'heartbeat',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('beat_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_heartbeat')),
    )


def downgrade():
    op.drop_table('heartbeat')
