"""Statistics across matches: the tallies stored with each match, summed per variant."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from . import tallies
from .game.variants import VARIANTS
from .models import Group
from .scoring import Variant
from .scoring.stats import Tally


@dataclass(frozen=True)
class VariantStats:
    """The statistics of one variant (four-player rates never mix with three or six)."""

    variant: Variant
    players: list[tuple[str, Tally]]
    pairs: list[tuple[tuple[str, ...], Tally]]


def stats_as_of(groups: Sequence[Group], marks: dict[int, tallies.Mark] | None = None
                ) -> tuple[list[VariantStats], dict[int, tallies.Mark]]:
    """Per variant, per player and per partnership over these tables' matches, most matches
    first: summed from the tallies stored with each match (`tallies`), never from hands;
    and each table's checksum as of what was summed (`tallies.summed`)."""
    found, read = tallies.summed(groups, marks)
    out = []
    for sums in found:
        players = sorted(sums.players.items(), key=lambda kv: (-kv[1].matches, kv[0]))
        pairs = sorted(sums.pairs.items(), key=lambda kv: (-kv[1].matches, kv[0]))
        out.append(VariantStats(VARIANTS[sums.variant], players, pairs))
    return out, read


def stats_since(groups: Sequence[Group], since: datetime) -> list[VariantStats]:
    """`stats_as_of` over the matches of these tables started at or after `since` only:
    their stored tallies summed by one query each time (no cache to go stale)."""
    found = tallies.summed_since(groups, since)
    return [VariantStats(VARIANTS[sums.variant],
                         sorted(sums.players.items(), key=lambda kv: (-kv[1].matches, kv[0])),
                         sorted(sums.pairs.items(), key=lambda kv: (-kv[1].matches, kv[0])))
            for sums in found]
