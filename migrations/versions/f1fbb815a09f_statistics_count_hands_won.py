"""statistics count the hands each player and partnership won

Revision ID: f1fbb815a09f
Revises: 7c1e5a9d2f40
Create Date: 2026-12-05 19:00:00

`hands_won` in `match_tally` and `table_tally` (`scoring.stats.won_hand`): a hand is won by
the side that scored more than the other side in it; a tie wins nobody. The stored rows are
recounted from the scores each hand in play keeps (`hand.team_scores` for the team games,
by the seat's team; `hand.player_scores` per seat in Threechu, where each seat holds its
side's score, the shuffler's with the dummy's): every scored hand has two sides, so a seat
won it when its score is above the lowest seat score of the hand. Grand Seigneur has no
rows. Then each table's sums are its matches' rows summed. Rows are read and written through
plain tables (no model of the app), a few hundred matches at a time.
"""
import json

import sqlalchemy as sa
from alembic import op

revision = 'f1fbb815a09f'
down_revision = '7c1e5a9d2f40'
branch_labels = None
depends_on = None

SCORED = ("nanking", "threechu", "tientsin")  # the variants whose matches have rows
TEAMS = ("nanking", "tientsin")  # two fixed teams: a row per partnership too
CHUNK = 500

_match = sa.table('match', sa.column('id', sa.Integer), sa.column('variant', sa.String))
_seat = sa.table('match_seat', sa.column('match_id', sa.Integer), sa.column('seat', sa.Integer),
                 sa.column('team', sa.Integer), sa.column('player_id', sa.Integer))
_player = sa.table('player', sa.column('id', sa.Integer), sa.column('name', sa.String))
_hand = sa.table('hand', sa.column('match_id', sa.Integer), sa.column('deleted_at'),
                 sa.column('team_scores', sa.JSON), sa.column('player_scores', sa.JSON))
_tally = sa.table('match_tally', sa.column('match_id', sa.Integer),
                  sa.column('side', sa.SmallInteger), sa.column('who', sa.String),
                  sa.column('hands_won', sa.Integer))


def upgrade():
    for table in ('match_tally', 'table_tally'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('hands_won', sa.Integer(), nullable=False,
                                          server_default='0'))
    _recount()


def _recount():
    bind = op.get_bind()
    matches = dict(bind.execute(sa.select(_match.c.id, _match.c.variant).where(
        _match.c.variant.in_(SCORED)).order_by(_match.c.id)).all())
    ids = list(matches)
    update = sa.update(_tally).where(
        _tally.c.match_id == sa.bindparam('m'), _tally.c.side == sa.bindparam('s'),
        _tally.c.who == sa.bindparam('w')).values(hands_won=sa.bindparam('n'))
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        seats = {}  # match -> [(seat, team, name)]
        for match_id, seat, team, name in bind.execute(
                sa.select(_seat.c.match_id, _seat.c.seat, _seat.c.team, _player.c.name)
                .select_from(_seat.outerjoin(_player, _player.c.id == _seat.c.player_id))
                .where(_seat.c.match_id.in_(chunk))):
            seats.setdefault(match_id, []).append((seat, team, name))
        hands = {}
        for match_id, team_scores, player_scores in bind.execute(
                sa.select(_hand.c.match_id, _hand.c.team_scores, _hand.c.player_scores)
                .where(_hand.c.match_id.in_(chunk), _hand.c.deleted_at.is_(None))):
            hands.setdefault(match_id, []).append((team_scores, player_scores))
        rows = []
        for match_id in chunk:
            rows += _rows(match_id, matches[match_id] in TEAMS,
                          sorted(seats.get(match_id, [])), hands.get(match_id, []))
        if rows:
            bind.execute(update, rows)
    # only the table's own names are put in
    bind.execute(sa.text(
        "UPDATE table_tally SET hands_won = COALESCE((SELECT sum(t.hands_won) "
        "FROM match_tally t JOIN \"match\" m ON m.id = t.match_id "
        "WHERE m.group_id = table_tally.group_id AND m.variant = table_tally.variant "
        "AND t.side = table_tally.side AND t.who = table_tally.who), 0)"))


def _rows(match_id, teams, seats, hands):
    """The match's hands won per player row (side 0, the name) and per partnership row
    (side 1, the sorted names as a compact JSON list), the rows that have some."""
    won = {seat: 0 for seat, _team, name in seats if name is not None}
    for team_scores, player_scores in hands:
        team_scores = _json(team_scores) or []
        player_scores = _json(player_scores) or {}
        if teams:
            if len(team_scores) != 2:
                continue
            scores = {seat: team_scores[team] for seat, team, _name in seats}
        else:
            scores = {int(seat): score for seat, score in player_scores.items()}
        if not scores:
            continue
        lowest = min(scores.values())
        for seat in won:
            won[seat] += scores.get(seat, lowest) > lowest
    names = {seat: name for seat, _team, name in seats}
    found = {(0, names[seat]): n for seat, n in won.items()}
    if teams:
        for team in {team for _seat, team, _name in seats}:
            members = [seat for seat, t, _name in seats if t == team]
            if members and all(names[s] is not None for s in members):
                key = json.dumps(sorted(names[s] for s in members), ensure_ascii=False,
                                 separators=(",", ":"))
                found[1, key] = won[members[0]]
    return [{"m": match_id, "s": side, "w": who, "n": n}
            for (side, who), n in found.items() if n]


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def downgrade():
    for table in ('table_tally', 'match_tally'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('hands_won')
