"""player name key holds case-folded names (casefold may triple a character)

Revision ID: 5c1e0d2b7a90
Revises: 7c1e5a9b2d40
Create Date: 2026-11-23 03:40:00
"""
import sqlalchemy as sa
from alembic import op

revision = '5c1e0d2b7a90'
down_revision = '7c1e5a9b2d40'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=40),
                              type_=sa.String(length=120), existing_nullable=False)


def downgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=120),
                              type_=sa.String(length=40), existing_nullable=False)
