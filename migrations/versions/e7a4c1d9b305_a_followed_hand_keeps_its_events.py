"""a followed hand keeps its events (RULES.md §11)

Revision ID: e7a4c1d9b305
Revises: a1f3c8e5d902
Create Date: 2026-12-05 15:20:00

A new table, empty: hands entered before were not followed. Nothing is read or rewritten.
"""
import sqlalchemy as sa
from alembic import op

revision = 'e7a4c1d9b305'
down_revision = 'a1f3c8e5d902'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'follow_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('hand', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=12), nullable=False),
        sa.Column('seat', sa.SmallInteger(), nullable=True),
        sa.Column('rank', sa.String(length=2), nullable=True),
        sa.Column('client_id', sa.String(length=64), nullable=True),
        sa.Column('phone', sa.String(length=24), nullable=True),
        sa.Column('device', sa.String(length=24), nullable=True),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['match.id'],
                                name=op.f('fk_follow_event_match_id_match'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_follow_event')),
        sa.UniqueConstraint('client_id', name=op.f('uq_follow_event_client_id')),
        sa.UniqueConstraint('match_id', 'hand', 'seq',
                            name=op.f('uq_follow_event_match_id')),
    )
    op.create_index('ix_follow_event_hand', 'follow_event', ['match_id', 'hand'], unique=False)


def downgrade():
    op.drop_index('ix_follow_event_hand', table_name='follow_event')
    op.drop_table('follow_event')
