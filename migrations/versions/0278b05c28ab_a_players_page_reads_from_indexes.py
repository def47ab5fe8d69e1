"""a player's page reads a player's matches and missed wishes from indexes

Revision ID: 0278b05c28ab
Revises: 4645ea61082c
Create Date: 2026-12-05 18:40:00

The player's page (`players.page`) reads every match of a player with its seat and team,
and the hands whose wish penalty a seat took: two covering indexes, so that a player of
5,000 matches costs a few milliseconds (docs/PERFORMANCE.md, "A player's page").
"""
from alembic import op

revision = '0278b05c28ab'
down_revision = '4645ea61082c'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_match_seat_player_matches', 'match_seat',
                    ['player_id', 'match_id', 'seat', 'team'])
    op.create_index('ix_hand_wish_offender', 'hand', ['match_id', 'wish_offender'])


def downgrade():
    op.drop_index('ix_hand_wish_offender', table_name='hand')
    op.drop_index('ix_match_seat_player_matches', table_name='match_seat')
