"""tournaments: entries, rounds, and matches as the tables of a round

Revision ID: a1f3c8e5d902
Revises: d8b2f6a41c07
Create Date: 2026-11-27 09:30:00

New tables only, and two columns of a match that stay empty for every match stored before
(no match was a tournament's table). Nothing is read or rewritten.
"""
import sqlalchemy as sa
from alembic import op

revision = 'a1f3c8e5d902'
down_revision = 'd8b2f6a41c07'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'tournament',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=24), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('kind', sa.String(length=12), nullable=False),
        sa.Column('pairing', sa.String(length=12), nullable=True),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('hands', sa.Integer(), nullable=False),
        sa.Column('knockout', sa.Integer(), nullable=True),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['tichu_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id'),
        sa.UniqueConstraint('key'),
    )
    op.create_table(
        'tournament_entry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=83), nullable=False),
        sa.Column('name_key', sa.String(length=249), nullable=False),
        sa.Column('members', sa.JSON(), nullable=True),
        sa.Column('joined', sa.Integer(), nullable=False),
        sa.Column('left', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'name_key'),
    )
    op.create_index('ix_tournament_entry_tournament_id', 'tournament_entry',
                    ['tournament_id'])
    op.create_table(
        'tournament_round',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('stage', sa.String(length=12), nullable=False),
        sa.Column('byes', sa.JSON(), nullable=False),
        sa.Column('unmet', sa.JSON(), nullable=False),
        sa.Column('drawn_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'number'),
    )
    op.create_index('ix_tournament_round_tournament_id', 'tournament_round',
                    ['tournament_id'])
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tournament_round_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('board', sa.Integer(), nullable=True))
        batch_op.create_index('ix_match_tournament_round_id', ['tournament_round_id'])
        batch_op.create_foreign_key('fk_match_tournament_round', 'tournament_round',
                                    ['tournament_round_id'], ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_constraint('fk_match_tournament_round', type_='foreignkey')
        batch_op.drop_index('ix_match_tournament_round_id')
        batch_op.drop_column('board')
        batch_op.drop_column('tournament_round_id')
    op.drop_index('ix_tournament_round_tournament_id', table_name='tournament_round')
    op.drop_table('tournament_round')
    op.drop_index('ix_tournament_entry_tournament_id', table_name='tournament_entry')
    op.drop_table('tournament_entry')
    op.drop_table('tournament')
