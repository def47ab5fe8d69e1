"""What statistics count of a match, as plain values: the match read as the pure counting
reads it (`scoring.stats.tally_match` over its state's facts), the stored rows' form of its
counts, and the page's figures from summed rows. No SQL here (`store`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..game.variants import VARIANTS, Variant
from ..models import Hand, Match
from ..scoring.state import MatchState
from ..scoring.stats import COUNTS, CountedMatch, MatchTallies, Tally, tally_match

SCORED = [v.key for v in VARIANTS.values() if v.scored]  # statistics count card points
PLAYER, PAIR = 0, 1  # a row's `side`
Key = tuple[int, str]  # (side, who) of a row
Rows = dict[Key, list[int]]  # a match's counts (or a sum), COUNTS in order


@dataclass(frozen=True)
class VariantStats:
    """The statistics of one variant (four-player rates never mix with three or six)."""

    variant: Variant
    players: list[tuple[str, Tally]]
    pairs: list[tuple[tuple[str, ...], Tally]]


def match_facts(match: Match, hands: Sequence[Hand] | None = None,
                state: MatchState | None = None) -> CountedMatch:
    """The match as the pure statistics read it (its state's facts), with `hands` (default:
    all in play): who won is the match's stored result."""
    if state is None:
        chosen = match.hands if hands is None else hands
        state = MatchState.of(match.settings, [h.input for h in chosen])
    winners: tuple[str, ...] = ()
    if match.winner_team is not None:
        winners = match.game.variant.sides(match.names)[match.winner_team].names
    facts = state.counted()
    played = match.hands if hands is None else hands
    if len(played) == len(facts.hands) and any(h.bombs for h in played):
        # the bombs counted with each hand (the state scores hands; bombs are not scored)
        facts = replace(facts, hands=tuple(
            replace(f, bombs=tuple(h.bombs)) if h.bombs else f
            for f, h in zip(facts.hands, played, strict=True)))
    return replace(facts, winners=winners, finished=match.finished)


def counted(match: Match, state: MatchState | None = None) -> MatchTallies | None:
    """The counts of the match from its hands in play (or its `state`); None for a game
    without points."""
    return tally_match(match_facts(match, state=state)) if match.game.variant.scored else None


def counted_hand(match: Match, hand: Hand) -> MatchTallies:
    """What `hand`, just added, adds to the match's counts: its own counts, and who won
    when it ended the match (no match counted again: `matches` is 0)."""
    tallies = tally_match(match_facts(match, [hand]))
    for tally in (*tallies.players.values(), *tallies.pairs.values()):
        tally.matches = 0
    return tallies


def who(key: str | tuple[str, ...]) -> Key:
    """A player's name or a partnership's names as a row's (side, who)."""
    if isinstance(key, str):
        return PLAYER, key
    return PAIR, json.dumps(list(key), ensure_ascii=False, separators=(",", ":"))


def rows(tallies: MatchTallies | None) -> Rows:
    """A match's counts as the rows that store them (none for a game without points)."""
    if tallies is None:
        return {}
    found: list[tuple[str | tuple[str, ...], Tally]] = [*tallies.players.items(),
                                                         *tallies.pairs.items()]
    return {who(key): [getattr(t, c) for c in COUNTS] for key, t in found}


def _key(side: int, name: str) -> str | tuple[str, ...]:
    return name if side == PLAYER else tuple(json.loads(name))


def from_rows(variant: str, found: Rows) -> MatchTallies:
    """Stored rows as the counts of one variant; a player or partnership with no match left
    (every one of theirs deleted) is left out."""
    out = MatchTallies(variant)
    for (side, name), c in found.items():
        if c[0]:
            tally = Tally(**dict(zip(COUNTS, c, strict=True)), variants={variant})
            (out.players if side == PLAYER else out.pairs)[_key(side, name)] = tally  # type: ignore[index]
    return out


def shown(found: Iterable[tuple[str, int, str, Sequence[int]]]) -> list[VariantStats]:
    """Summed rows (variant, side, who, counts) as the page shows them: per variant in the
    variants' order, most matches first, then by name."""
    by_variant: dict[str, Rows] = {}
    for variant, side, name, c in found:
        by_variant.setdefault(variant, {})[side, name] = [int(n or 0) for n in c]
    out = []
    for key in SCORED:
        if key not in by_variant:
            continue
        sums = from_rows(key, by_variant[key])
        if not sums.players:
            continue
        out.append(VariantStats(
            VARIANTS[key],
            sorted(sums.players.items(), key=lambda kv: (-kv[1].matches, kv[0])),
            sorted(sums.pairs.items(), key=lambda kv: (-kv[1].matches, kv[0]))))
    return out
