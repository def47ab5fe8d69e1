"""The CSV export: one row per hand in play, for a spreadsheet. Every side of the match (a
team, a player, the Threechu dummy) has its own columns (who, what the hand gave it, its
running total), so a sheet can sum them; a variant with fewer sides leaves the rest empty.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .. import scoring
from ..game.house import named_rules
from ..game.variants import VARIANTS
from ..matches import match_view
from ..models import Match
from .json_export import _batches, _load

# The most sides a match keeps: Threechu's three players and its dummy.
MAX_SIDES = max(v.side_count(v.max_seats) for v in VARIANTS.values())
CSV_HEADER = ["match", "variant", "started", "hand", "players", "out_order", "calls",
              "card_points_1", "card_points_2", "wish_missed_by",
              *(f"side_{n}" for n in range(1, MAX_SIDES + 1)),
              *(f"score_{n}" for n in range(1, MAX_SIDES + 1)),
              *(f"total_{n}" for n in range(1, MAX_SIDES + 1)),
              "house_rules", "bombs", "note"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def sheet_cell(value: object) -> str:
    """A CSV cell a spreadsheet cannot take for a formula: text starting with = + - @, a
    tab or a carriage return gets a leading apostrophe. A plain number (-35) stays as it
    is, so that it still counts as a number.

    >>> [sheet_cell(v) for v in ("=1+2", "-35", "-35 : 135", "@Ann", "Ann", 7)]
    ["'=1+2", '-35', "'-35 : 135", "'@Ann", 'Ann', '7']
    """
    text = str(value)
    if text.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def export_csv(match_ids: Iterable[int] | None = None) -> str:
    """One row per hand in play, names spelled out, with the running totals. The "match"
    column numbers the matches of the sheet 1, 2, … (the database's ids stay inside)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    _write_rows(writer, _load(match_ids), 1)
    return out.getvalue()


def stream_csv(match_ids: Sequence[int]) -> Iterator[str]:
    """`export_csv(match_ids)`, a batch of matches at a time."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    numbered = 1
    for batch in _batches(match_ids):
        numbered = _write_rows(writer, batch, numbered)
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


def _padded(values: Sequence[object]) -> list[object]:
    return [*values, *[""] * (MAX_SIDES - len(values))]


def _write_rows(writer: Any, matches: Iterable[Match], number: int) -> int:
    """The rows of these matches, numbered from `number` (a match without a hand in play
    has no row and no number); the next match's number."""
    for match in matches:
        names, rules = match.names, match.house
        page = match_view.match_page(match)
        sides = _padded([" & ".join(side.names) for side in match.game.variant.sides(names)])
        asks_points = "card_points" in match.game.asks
        # [R1]: the house rules by their ids (the rule book: none), on every row of the match
        house = " ".join(rule for rule, _m, _v in named_rules(rules, match.lead_by))
        if match.hand_limit and not match.game.variant.lasts_hands:
            house = f"{house} R7".strip()
        for row in page.rows:
            hand = row.hand
            points = list(hand.card_points) if asks_points else []
            writer.writerow(sheet_cell(cell) for cell in [
                number, match.variant, match.started_at.strftime("%Y-%m-%d %H:%M"),
                row.position, " / ".join(names), " > ".join(names[s] for s in hand.out_order),
                "; ".join(f"{names[int(s)]}: {scoring.call_name(c, rules)}"
                          for s, c in hand.calls.items()),
                *(points + ["", ""])[:2],
                "" if hand.wish_offender is None else names[hand.wish_offender],
                *sides, *_padded(row.deltas), *_padded(row.running), house,
                "; ".join(f"{names[s]}: {n}" for s, n in enumerate(hand.bombs or ()) if n),
                hand.note or "",
            ])
        number += 1 if page.rows else 0
    return number
