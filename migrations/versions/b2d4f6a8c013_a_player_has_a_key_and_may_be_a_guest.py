"""a player has a public key (the player's page) and may be a guest

Revision ID: b2d4f6a8c013
Revises: e7a4c1d9b305
Create Date: 2026-12-05 18:05:00

Every player stored before gets a random key of its own, as a new player does; no one is a
guest until the table says so.
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = 'b2d4f6a8c013'
down_revision = 'e7a4c1d9b305'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player') as batch:
        batch.add_column(sa.Column('key', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('guest', sa.Boolean(), nullable=False,
                                   server_default='0'))
    player = sa.table('player', sa.column('id', sa.Integer), sa.column('key', sa.String))
    connection = op.get_bind()
    ids = [row[0] for row in connection.execute(sa.select(player.c.id))]
    for player_id in ids:
        connection.execute(player.update().where(player.c.id == player_id)
                           .values(key=secrets.token_urlsafe(12)))
    with op.batch_alter_table('player') as batch:
        batch.alter_column('key', existing_type=sa.String(length=16), nullable=False)
        batch.create_unique_constraint(batch.f('uq_player_key'), ['key'])


def downgrade():
    with op.batch_alter_table('player') as batch:
        batch.drop_constraint(batch.f('uq_player_key'), type_='unique')
        batch.drop_column('guest')
        batch.drop_column('key')
