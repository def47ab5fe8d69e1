"""a table has a watch code: its board or evening on a screen that never joined it

Revision ID: 4645ea61082c
Revises: b2d4f6a8c013
Create Date: 2026-12-05 18:10:00

Every table stored before gets a random watch code of its own, as a new table does
(`tables.watching`). A downgrade drops the column.
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = '4645ea61082c'
down_revision = 'b2d4f6a8c013'
branch_labels = None
depends_on = None

# `codes.ALPHABET` and `codes.WATCH_LENGTH` as they were when this ran
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTUVWXYZ"
WATCH_LENGTH = 10


def upgrade():
    with op.batch_alter_table('tichu_group') as batch:
        batch.add_column(sa.Column('watch_code', sa.String(length=WATCH_LENGTH),
                                   nullable=True))
    group = sa.table('tichu_group', sa.column('id', sa.Integer),
                     sa.column('watch_code', sa.String))
    connection = op.get_bind()
    taken = set()
    for (group_id,) in connection.execute(sa.select(group.c.id)).all():
        code = None
        while code is None or code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(WATCH_LENGTH))
        taken.add(code)
        connection.execute(group.update().where(group.c.id == group_id)
                           .values(watch_code=code))
    with op.batch_alter_table('tichu_group') as batch:
        batch.alter_column('watch_code', existing_type=sa.String(length=WATCH_LENGTH),
                           nullable=False)
        batch.create_unique_constraint(batch.f('uq_tichu_group_watch_code'), ['watch_code'])


def downgrade():
    with op.batch_alter_table('tichu_group') as batch:
        batch.drop_constraint(batch.f('uq_tichu_group_watch_code'), type_='unique')
        batch.drop_column('watch_code')
