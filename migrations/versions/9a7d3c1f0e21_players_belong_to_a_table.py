"""players belong to a table: a name at one table tells nothing about another

Revision ID: 9a7d3c1f0e21
Revises: 5c1e0d2b7a90
Create Date: 2026-11-23 04:15:00

Each player goes to the table of the first match he sat in; a player who sat at several
tables is copied to each of the others, and those seats point to the copy.
"""
import sqlalchemy as sa
from alembic import op

revision = '9a7d3c1f0e21'
down_revision = '5c1e0d2b7a90'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))

    conn = op.get_bind()
    seats = conn.execute(sa.text(
        "SELECT match_seat.id, match_seat.player_id, match.group_id FROM match_seat "
        "JOIN match ON match.id = match_seat.match_id WHERE match_seat.player_id IS NOT NULL "
        "ORDER BY match.id, match_seat.seat")).all()
    home, copies = {}, {}
    for seat_id, player_id, group_id in seats:
        if player_id not in home:
            home[player_id] = group_id
            conn.execute(sa.text("UPDATE player SET group_id = :g WHERE id = :p"),
                         {"g": group_id, "p": player_id})
        elif home[player_id] != group_id:
            if (player_id, group_id) not in copies:
                row = conn.execute(sa.text("SELECT name, name_key, created_at FROM player "
                                           "WHERE id = :p"), {"p": player_id}).one()
                conn.execute(sa.text(
                    "INSERT INTO player (name, name_key, created_at, group_id) "
                    "VALUES (:n, :k, :t, :g)"),
                    {"n": row.name, "k": row.name_key, "t": row.created_at, "g": group_id})
                copies[player_id, group_id] = conn.execute(sa.text(
                    "SELECT id FROM player WHERE name_key = :k AND group_id = :g"),
                    {"k": row.name_key, "g": group_id}).scalar_one()
            conn.execute(sa.text("UPDATE match_seat SET player_id = :c WHERE id = :s"),
                         {"c": copies[player_id, group_id], "s": seat_id})
    conn.execute(sa.text("DELETE FROM player WHERE group_id IS NULL"))  # never seated

    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_constraint('uq_player_name_key', type_='unique')
        batch_op.alter_column('group_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_player_group_id'), ['group_id'], unique=False)
        batch_op.create_unique_constraint(batch_op.f('uq_player_group_id'),
                                          ['group_id', 'name_key'])
        batch_op.create_foreign_key(batch_op.f('fk_player_group_id_tichu_group'),
                                    'tichu_group', ['group_id'], ['id'], ondelete='CASCADE')


def downgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_player_group_id_tichu_group'),
                                 type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_player_group_id'), type_='unique')
        batch_op.drop_index(batch_op.f('ix_player_group_id'))
        batch_op.drop_column('group_id')
        batch_op.create_unique_constraint('uq_player_name_key', ['name_key'])
