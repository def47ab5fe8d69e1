"""Statistics across matches: what `/stats` shows, per variant, per player and per
partnership, and the one place that keeps what it needs.

The domain code calls this small interface and nothing else of it:

- `record(match, state=None)`: the match changed (created, corrected, its settings or
  hands imported); count it again from its hands and write its counts, in the caller's
  transaction.
- `record_hand(match, hand)`: a hand was added; add that hand to the match's counts
  without reading the hands before it or the counts kept (`hand_counts` and `not_added`:
  the same, for a save that writes them in its own statement).
- `record_imported(matches)`: matches an import has just inserted (ids known).
- `forget(match)`: the match is about to be deleted.
- `for_tables(groups, since=None)`: what the statistics page shows for these tables, over
  all their matches or over those started at or after `since` (tonight, this month).

How (`store`): each match's counts are rows of `match_tally` (one per player and per
partnership), and each table's sum per variant is rows of `table_tally`, changed by the
difference in the same transaction. All matches: one read of the tables' sums (a few
hundred rows, whatever the length of the history). A period: its matches' rows summed with
GROUP BY. No cache, no lock, nothing kept per process: every app process and server reads
the same committed sums. What is counted is pure (`scoring.stats.tally_match`), from the
match's state (`counting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..extensions import db
from ..models import Group, Hand, Match
from ..scoring.state import MatchState
from . import counting, store
from .counting import SCORED, VariantStats

__all__ = ["SCORED", "VariantStats", "for_tables", "forget", "hand_counts", "not_added",
           "record", "record_hand", "record_imported"]


def record(match: Match, state: MatchState | None = None) -> None:
    """Count the match again from its hands in play (or `state`, when built already) and
    write its counts and its table's sums in the caller's transaction. A match not stored
    yet and not in the session (an import checks its matches before it stores them) is
    recorded by `record_imported`; a game without points has nothing to count."""
    if match.id is None:
        if match not in db.session:
            return
        db.session.flush()
    store.replace(match, counting.rows(counting.counted(match, state)))


def record_hand(match: Match, hand: Hand) -> None:
    """`hand` was just added to the match, its result already settled on the match: add
    the hand to the counts stored, without reading them or the hands before it. No hand
    follows the end of a match ([E1]), so before this one nobody had won it, and the
    players are those of its rows. A match whose rows are missing is counted whole."""
    counts = hand_counts(match, hand)
    if counts and not store.add(match, counts):
        _count_whole(match)


def hand_counts(match: Match, hand: Hand) -> counting.Rows:
    """What `hand`, just added and its result settled on the match, adds to the match's
    rows (`record_hand`; none in a game without points)."""
    if not match.game.variant.scored:
        return {}
    return counting.rows(counting.counted_hand(match, hand))


def not_added(match: Match, counts: counting.Rows) -> None:
    """`counts` (`hand_counts`) were added to those of the match's rows that were found,
    not all were, and nothing to the table's sums (PostgreSQL's one statement of a save,
    `matches.at_once`): as `record_hand` does then, taken back and the match counted
    whole."""
    store.take_back(match, counts)
    _count_whole(match)


def _count_whole(match: Match) -> None:
    record(match, MatchState.of(match.settings, [h.input for h in store.hands(match)]))


def record_imported(matches: Sequence[Match]) -> None:
    """Matches just inserted by an import (their ids and table set; their hands in
    memory): write their counts and add them to their tables' sums."""
    store.insert_new([(m, counting.rows(counting.counted(m))) for m in matches])


def forget(match: Match) -> None:
    """Take the match out of its table's sums (it is being deleted; its own rows go with
    it)."""
    store.replace(match, {})


def for_tables(groups: Sequence[Group], since: datetime | None = None) -> list[VariantStats]:
    """Per variant (in the variants' order), per player and per partnership, most matches
    first: over every match of these tables, or those started at or after `since`."""
    if not groups:
        return []
    ids = [g.id for g in groups]
    found = store.table_sums(ids) if since is None else store.period_sums(ids, since)
    return counting.shown(found)
