"""statistics as rows: each match's counts per player and partnership, each table's sums

Revision ID: f3a8c5d1b264
Revises: f3a9c2d18b47
Create Date: 2026-11-27 03:00:00

`match_tally` holds a match's counts (a row per player and per partnership), `table_tally`
their sum per table and variant (`tichu_scorer.statistics`). Both are filled from the
matches stored: from the counts kept on the match row (`match.stats`, JSON) where there are
some, else counted from the match's hands by the app's own counting (matches stored before
that column). Then `match.stats` goes. The downgrade gives it back empty: the statistics of
that version count such matches from their hands when first read.
"""
import json

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session, defaultload, defer, selectinload
from sqlalchemy.orm.attributes import set_committed_value

revision = 'f3a8c5d1b264'
down_revision = 'f3a9c2d18b47'
branch_labels = None
depends_on = None

COUNTS = ("matches", "won", "hands", "points", "first_out", "double_victories",
          "tichu_called", "tichu_made", "grand_called", "grand_made")
CHUNK = 500


def _columns():
    return [sa.Column(c, sa.Integer(), nullable=False) for c in COUNTS]


def upgrade():
    op.create_table(
        'match_tally',
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('side', sa.SmallInteger(), nullable=False),
        sa.Column('who', sa.String(length=300), nullable=False),
        *_columns(),
        sa.ForeignKeyConstraint(['match_id'], ['match.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('match_id', 'side', 'who'))
    op.create_table(
        'table_tally',
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('variant', sa.String(length=16), nullable=False),
        sa.Column('side', sa.SmallInteger(), nullable=False),
        sa.Column('who', sa.String(length=300), nullable=False),
        *_columns(),
        sa.ForeignKeyConstraint(['group_id'], ['tichu_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('group_id', 'variant', 'side', 'who'))
    _fill()
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_column('stats')


def _fill():
    from tichu_scorer.scoring.stats import COUNTS as APP_COUNTS
    from tichu_scorer.statistics import counting  # the app's own counting, as of now

    bind = op.get_bind()
    tally = sa.table('match_tally', sa.column('match_id'), sa.column('side'),
                     sa.column('who'), *(sa.column(c) for c in COUNTS))
    stored = bind.execute(sa.text(
        "SELECT id, stats FROM match WHERE variant IN :scored").bindparams(
        sa.bindparam("scored", expanding=True)), {"scored": counting.SCORED}).all()
    rows, uncounted = [], []
    for match_id, stats in stored:
        if stats is None:
            uncounted.append(match_id)
            continue
        stats = json.loads(stats) if isinstance(stats, str) else stats
        for name, c in stats.get("players") or []:
            rows.append(_row(match_id, (0, name), c))
        for names, c in stats.get("pairs") or []:
            rows.append(_row(match_id, counting.who(tuple(names)), c))
    if uncounted:
        from tichu_scorer.models import Match
        session = Session(bind=bind)
        # the app's model may name columns added by later revisions: read without them,
        # as the empty values they start with
        from tichu_scorer.models import Group, Hand, MatchSeat, Player
        later = _later(bind, Match, "match")
        later_in_groups = _later(bind, Group, "tichu_group")
        later_in_hands = _later(bind, Hand, "hand")
        later_in_players = _later(bind, Player, "player")
        for start in range(0, len(uncounted), CHUNK):
            for match in session.execute(sa.select(Match).where(
                    Match.id.in_(uncounted[start:start + CHUNK])).options(
                    selectinload(Match.all_hands).options(
                        *(defer(getattr(Hand, c)) for c in later_in_hands)),
                    defaultload(Match.seats).defaultload(MatchSeat.player).options(
                        *(defer(getattr(Player, c)) for c in later_in_players)),
                    defaultload(Match.group).options(
                        *(defer(getattr(Group, c)) for c in later_in_groups)),
                    *(defer(getattr(Match, c)) for c in later))).scalars():
                for column in later:
                    set_committed_value(match, column, None)
                for seat in match.seats:
                    for column in later_in_players if seat.player is not None else ():
                        set_committed_value(seat.player, column, None)
                for hand in match.all_hands:
                    for column in later_in_hands:
                        set_committed_value(hand, column, None)
                # the app counts what later revisions count too: this table's columns only
                rows += [_row(match.id, key, [dict(zip(APP_COUNTS, c, strict=True))[name]
                                              for name in COUNTS])
                         for key, c in counting.rows(counting.counted(match)).items()]
        session.close()
    for start in range(0, len(rows), CHUNK * 10):
        bind.execute(sa.insert(tally), rows[start:start + CHUNK * 10])
    names, sums = ", ".join(COUNTS), ", ".join(f"sum(t.{c})" for c in COUNTS)
    # only the column names above are put in
    sql = f"INSERT INTO table_tally (group_id, variant, side, who, {names}) SELECT m.group_id, m.variant, t.side, t.who, {sums} FROM match_tally t JOIN \"match\" m ON m.id = t.match_id GROUP BY m.group_id, m.variant, t.side, t.who"  # noqa: E501  # nosec B608
    bind.execute(sa.text(sql))


def _later(bind, model, table):
    """The model's columns that later revisions add to `table` (not there yet)."""
    here = {c["name"] for c in sa.inspect(bind).get_columns(table)}
    return [c.key for c in sa.inspect(model).column_attrs if c.key not in here]


def _row(match_id, key, counts):
    return {"match_id": match_id, "side": key[0], "who": key[1],
            **dict(zip(COUNTS, counts, strict=True))}


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stats', sa.JSON(none_as_null=True), nullable=True))
    op.drop_table('table_tally')
    op.drop_table('match_tally')
