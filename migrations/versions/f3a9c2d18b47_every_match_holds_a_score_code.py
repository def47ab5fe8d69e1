"""every match holds a score code: one made now for each match stored before score codes

Revision ID: f3a9c2d18b47
Revises: e5b1d7a3c920
Create Date: 2026-11-27 03:20:00

A match stored before score codes holds a random key that no phone can type (a join by
code reads only codes), and its share page made a score code on first use. Each such
match gets its code now, as that page would have given it, so that the app only reads
it. Nothing else is read or rewritten; a downgrade keeps the codes (the earlier schema
reads them as they are).
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = 'f3a9c2d18b47'
down_revision = 'e5b1d7a3c920'
branch_labels = None
depends_on = None

# `codes.ALPHABET` and `codes.SCORE_LENGTH` as they were when this ran: a migration keeps
# its own copy, so that a later change of the app's leaves it as it ran
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTUVWXYZ"
SCORE_LENGTH = 12


def is_score_code(key):
    return key is not None and len(key) == SCORE_LENGTH and all(c in ALPHABET for c in key)


def upgrade():
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, scorer_key FROM match")).all()
    taken = {key for _id, key in rows}
    for match_id, key in rows:
        if is_score_code(key):
            continue
        code = None
        while code is None or code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(SCORE_LENGTH))
        taken.add(code)
        conn.execute(sa.text("UPDATE match SET scorer_key = :code WHERE id = :id"),
                     {"code": code, "id": match_id})


def downgrade():
    pass
