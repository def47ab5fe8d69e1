"""a table keeps its player merges, to show and undo them

Revision ID: 7c1e5a9d2f40
Revises: 0278b05c28ab
Create Date: 2026-12-05 18:10:00

One row per merge of a player into another (`players.identity`): what it moved, so that an
undo puts it back. No data to move: no merge was made before.
"""
import sqlalchemy as sa
from alembic import op

revision = '7c1e5a9d2f40'
down_revision = '0278b05c28ab'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'player_merge',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=16), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('target_key', sa.String(length=16), nullable=False),
        sa.Column('source_name', sa.String(length=40), nullable=False),
        sa.Column('target_name', sa.String(length=40), nullable=False),
        sa.Column('source', sa.JSON(), nullable=False),
        sa.Column('seats', sa.JSON(), nullable=False),
        sa.Column('tournament', sa.JSON(), nullable=True),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('phone', sa.String(length=24), nullable=True),
        sa.Column('undone_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['group_id'], ['tichu_group.id'],
                                name=op.f('fk_player_merge_group_id_tichu_group'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_player_merge')),
        sa.UniqueConstraint('key', name=op.f('uq_player_merge_key')),
    )
    with op.batch_alter_table('player_merge') as batch:
        batch.create_index(batch.f('ix_player_merge_group_id'), ['group_id'], unique=False)


def downgrade():
    with op.batch_alter_table('player_merge') as batch:
        batch.drop_index(batch.f('ix_player_merge_group_id'))
    op.drop_table('player_merge')
