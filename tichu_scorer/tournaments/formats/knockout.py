"""The knockout after a pairs tournament's rounds (RULES.md `[TN3]`): the best 2, 4 or 8
pairs of the standing, 1 v N, 2 v N-1, …, each match played to a target (a tie plays on,
`[E1]`), the winners meeting stage by stage so that the two best seeds meet only in the
final. Pure.

>>> stages(None), stages(8)
(0, 3)
>>> try:
...     checked(4, 3)  # the best 4 of 3 pairs
... except Refused as refused:
...     print(refused.field, refused.rule)
knockout TN3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ...game.i18n import N_, _
from .. import pairing, standings
from .base import (
    HOUSE,
    Format,
    Past,
    Refused,
    Seating,
    Stage,
    TableRules,
    members_of,
    playing,
    seated_pairs,
)

SIZES = (2, 4, 8)
TARGET = 1000
KNOCKOUT_HOUSE = replace(HOUSE, victory_points=False)  # a knockout match: to a target


def stages(size: int | None) -> int:
    """The knockout stages after the rounds: 1 for a final of the best 2, 2 for 4, 3 for 8."""
    return {2: 1, 4: 2, 8: 3}.get(size or 0, 0)


def checked(size: int | None, entries: int) -> int | None:
    """The knockout asked for (None: none); Refused unless of the best 2, 4 or 8, and no
    more than play."""
    if size and (size not in SIZES or size > entries):
        raise Refused("knockout", "TN3", _(
            "A knockout is for the best 2, 4 or 8 pairs, and no more than play."))
    return size or None


@dataclass(frozen=True)
class Knockout(Stage):
    """A knockout stage of a tournament whose standing (`seeding`'s) seeds it."""

    seeding: Format

    stage = "knockout"
    knockout = True
    stage_title = N_("Knockout")
    target = TARGET

    def table_rules(self, hands: int) -> TableRules:
        """[TN3]: to a target, without victory points."""
        return TableRules(TARGET, None, KNOCKOUT_HOUSE)

    def ground(self, past: Past, number: int) -> KnockoutGround:
        """The pairs of the standing after the rounds that still play (not dropped out),
        or the winners of the stage before."""
        rounds = past.tables()
        drawn = [r for r in rounds if r.knockout]
        seeded: tuple[str, ...] = ()
        winners = None
        if not drawn:
            still = {e.name for e in playing(past.entries, number)}
            ranked = self.seeding.standing(rounds, [e.name for e in past.entries])
            seeded = tuple(line.name for line in ranked if line.name in still)
        else:
            winners = tuple(t.sides[t.winner or 0][0] for t in drawn[-1].tables)
        return KnockoutGround(past.knockout or 0, seeded, winners, members_of(past.entries))


@dataclass(frozen=True)
class KnockoutGround:
    """A knockout stage as asked: its size, and the standing's pairs that still play (the
    first stage) or the stage before's winners by match (None before), with every pair's
    players."""

    size: int
    seeded: tuple[str, ...]
    winners: tuple[str, ...] | None
    members: tuple[tuple[str, tuple[str, ...]], ...]

    def seating(self, check: Callable[[], None]) -> Seating:
        """The best `size` 1 v N, 2 v N-1, …; later stages pair the winners so that the
        two best seeds meet only in the final."""
        try:
            games = (pairing.knockout(self.seeded, self.size) if self.winners is None
                     else pairing.next_knockout(self.winners))
        except pairing.PairingError as exc:
            raise Refused("round", "TN3", str(exc)) from None
        return seated_pairs(self.members, games)


def changed(rounds: Sequence[standings.Round]) -> list[str]:
    """Knockout stages drawn from a result corrected since ([TN4]): for each table of a
    later stage that seats a pair the stage before no longer sends, a sentence saying
    which. The director corrects it at that table (or plays it out as drawn)."""
    drawn = [r for r in rounds if r.knockout]
    found = []
    for before, after in zip(drawn, drawn[1:], strict=False):
        winners = {t.sides[t.winner][0] for t in before.tables
                   if t.over and t.winner is not None}
        for table in after.tables:
            for side in table.sides:
                if winners and side[0] not in winners:
                    found.append(_("Table %(board)d of round %(number)d seats %(pair)s, but "
                                   "after a correction of round %(before)d that pair did "
                                   "not win its match there.") % {
                        "board": table.board, "number": after.number, "pair": side[0],
                        "before": before.number})
    return found
