"""The hands in play of a match as plain values (a long match is read as columns, not
objects), for the match page and the exports, consistent with the match's row."""

from __future__ import annotations

import json
from typing import NamedTuple

from sqlalchemy import inspect

from ..extensions import db
from ..models import Hand, Match
from ..scoring import HandInput
from ..scoring.rows import stored_hand
from . import prebuilt


class HandLine(NamedTuple):
    """A hand in play as the match page and the exports read it: what was recorded and
    what it scored, as plain values (a long match is read as columns, not objects)."""

    number: int
    out_order: list[int]
    calls: dict[str, str]
    card_points: list[int]
    team_scores: list[int]
    player_scores: dict[str, int] | None
    wish_offender: int | None
    shuffler: int | None
    sweep: bool
    bombs: list[int] | None = None  # per seat, when counted (never scored)
    note: str | None = None

    @property
    def input(self) -> HandInput:
        """The hand as the pure match state reads it."""
        return stored_hand(self.out_order, self.calls, self.card_points, self.wish_offender,
                           self.shuffler)

    @classmethod
    def of(cls, hand: Hand) -> HandLine:
        return cls(hand.number, hand.out_order, hand.calls, hand.card_points,
                   hand.team_scores, hand.player_scores, hand.wish_offender, hand.shuffler,
                   hand.sweep, hand.bombs, hand.note)



READ_ATTEMPTS = 5


class Gone(LookupError):
    """The match was deleted while its page was being read."""


class Moving(RuntimeError):
    """The match changed every time its hands were read (`READ_ATTEMPTS` times in a row)."""


def hand_lines(match: Match) -> list[HandLine]:
    """The hands in play of `match`, in order, as they were when `match` was read. They are
    read in one statement together with the match's revision, which every change of a match
    raises: PostgreSQL gives each statement of a read its own snapshot, so when another
    phone changed the match since its row was read, the row is read again (totals, names)
    and so are the hands. Hands loaded with the match (an export's batch) are used as
    they are."""
    if "all_hands" not in inspect(match).unloaded:
        return [HandLine.of(h) for h in match.hands]
    for _attempt in range(READ_ATTEMPTS):
        rows = prebuilt.line_rows(match.id)
        if not rows:
            raise Gone(match.key)
        if rows[0][0] == match.revision:
            hands = [row for row in rows if row[1] is not None]
            values = json.loads("[" + ",".join(
                "[" + ",".join("null" if text is None else text for text in row[6:]) + "]"
                for row in hands) + "]")
            return [HandLine(row[1], out_order, calls, points, teams, players, row[2], row[3],
                             bool(row[4]), bombs, row[5])
                    for row, (out_order, calls, points, teams, players, bombs) in zip(
                        hands, values, strict=True)]
        db.session.refresh(match)
    raise Moving(match.key)
