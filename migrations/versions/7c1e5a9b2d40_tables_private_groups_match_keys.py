"""tables: private groups of players; unguessable match keys

Revision ID: 7c1e5a9b2d40
Revises: 2a3d59e77db5
Create Date: 2026-11-23 03:05:00

Existing matches move into one table, "Our table" (a self-hosted instance keeps all its
history together), and each gets a random key for its URLs.
"""
import secrets
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = '7c1e5a9b2d40'
down_revision = '2a3d59e77db5'
branch_labels = None
depends_on = None

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def upgrade():
    op.create_table(
        'tichu_group',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=24), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('invite_code', sa.String(length=8), nullable=False),
        sa.Column('scorer_key', sa.String(length=32), nullable=False),
        sa.Column('generation', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tichu_group')),
        sa.UniqueConstraint('invite_code', name=op.f('uq_tichu_group_invite_code')),
        sa.UniqueConstraint('key', name=op.f('uq_tichu_group_key')),
        sa.UniqueConstraint('scorer_key', name=op.f('uq_tichu_group_scorer_key')),
    )
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key', sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))

    conn = op.get_bind()
    ids = [row[0] for row in conn.execute(sa.text("SELECT id FROM match")).fetchall()]
    if ids:
        conn.execute(sa.text(
            "INSERT INTO tichu_group (key, name, invite_code, scorer_key, generation, "
            "created_at) VALUES (:k, :n, :c, :s, 1, :t)"),
            {"k": secrets.token_urlsafe(12), "n": "Our table",
             "c": "".join(secrets.choice(ALPHABET) for _ in range(8)),
             "s": secrets.token_urlsafe(16),
             "t": datetime.now(timezone.utc).replace(tzinfo=None)})
        group = conn.execute(sa.text("SELECT id FROM tichu_group")).scalar_one()
        for match_id in ids:
            conn.execute(sa.text("UPDATE match SET key = :k, group_id = :g WHERE id = :i"),
                         {"k": secrets.token_urlsafe(12), "g": group, "i": match_id})

    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.alter_column('key', existing_type=sa.String(length=24), nullable=False)
        batch_op.alter_column('group_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_match_group_id'), ['group_id'], unique=False)
        batch_op.create_unique_constraint(batch_op.f('uq_match_key'), ['key'])
        batch_op.create_foreign_key(batch_op.f('fk_match_group_id_tichu_group'),
                                    'tichu_group', ['group_id'], ['id'], ondelete='CASCADE')


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_match_group_id_tichu_group'),
                                 type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_match_key'), type_='unique')
        batch_op.drop_index(batch_op.f('ix_match_group_id'))
        batch_op.drop_column('group_id')
        batch_op.drop_column('key')
    op.drop_table('tichu_group')
