"""The individual tournament (RULES.md `[TN1]`, `[TN2]`): players, new partners every round,
drawn by `draw`; ranked by victory points, then points. Pure.

>>> INDIVIDUAL.sides(["Ann", "Bob", "Cy", "Dee"], {})
(('Ann', 'Cy'), ('Bob', 'Dee'))
>>> INDIVIDUAL.read_entry("  Ann   Lee ")
Entry(name='Ann Lee', members=())
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...game.i18n import N_, _
from .. import draw
from .base import Format, Past, Refused, Seating, playing


class Individual(Format):
    kind = "individual"
    title = N_("Individual tournament (TN1)")
    choice = N_("Individual: new partners every round")
    least = 4
    rule = "TN1"
    fair_partners = True  # each table's partners may be drawn fair (`fair_draw`)
    entry_label = N_("Player")
    entries_title = N_("Players")
    arrival_hint = N_("Name")

    def too_few(self) -> str:
        return _("A tournament needs at least four players.")

    def ground(self, past: Past, number: int) -> IndividualGround:
        """Who plays, the round's seed and who sat where before ([TN1], [TN2])."""
        names = tuple(e.name for e in playing(past.entries, number))
        if len(names) < 4:
            raise Refused("entries", "TN1", _(
                "A round needs at least four players; %(count)d play.") % {
                "count": len(names)})
        return IndividualGround(names, past.seed * 1000 + number, past.seatings())


@dataclass(frozen=True)
class IndividualGround:
    """An individual round as its draw asks it: who plays, the seed, and the rounds before
    (who sat where, who sat out)."""

    names: tuple[str, ...]
    seed: int
    history: tuple[draw.Round, ...]

    def seating(self, check: Callable[[], None]) -> Seating:
        made = draw.draw(self.names, 1, seed=self.seed, history=self.history, check=check)
        new = made.rounds[0]
        return Seating(new.tables, new.byes, made.unmet)


INDIVIDUAL = Individual()
