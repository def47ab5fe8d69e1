"""The pairs tournament (RULES.md `[TN3]`): fixed pairs, each a side of its table, paired
by `pairing` the Swiss way (`PAIRS_SWISS`) or all against all (`PAIRS_ALL`: the circle
method while the field stays as entered, then a look-ahead over the rounds left); ranked by
match points, then victory points, then the points difference; a knockout of the best 2,
4 or 8 may follow. Pure.

>>> PAIRS_SWISS.read_entry("Dragons: Ann & Bob")
Entry(name='Dragons', members=('Ann', 'Bob'))
>>> PAIRS_SWISS.read_entry(" Ann ,Bob").members
('Ann', 'Bob')
>>> PAIRS_ALL.sides(["Ann", "Bob", "Cy", "Dee"], {frozenset({"ann", "cy"}): "Dragons"})
(('Dragons',), ('Bob & Dee',))
>>> PAIRS_SWISS.draws(3, 2).stage, PAIRS_SWISS.rounds_in(2, 4)
('knockout', 4)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...game.i18n import N_, _
from .. import pairing
from .base import (
    Entered,
    Entry,
    Format,
    Past,
    Refused,
    Seating,
    Stage,
    clean,
    members_of,
    name_key,
    pair_name,
    playing,
    seated_pairs,
)
from .knockout import Knockout, checked, stages

SPLIT = re.compile(r"\s*(?:&|\+|/|,| und | and )\s*", re.IGNORECASE)
PAIR_NAMED = re.compile(r"^\s*([^:]{1,40}?)\s*:\s*(.+)$")

Members = tuple[tuple[str, tuple[str, ...]], ...]  # each pair's name and its two players


class Pairs(Format):
    """Fixed pairs; the pairing is the subclass's."""

    kind = "pairs"
    choice = N_("Pairs: fixed partners")
    least = 2
    rule = "TN3"
    match_points = True
    takes_knockout = True
    entry_label = N_("Pair")
    entries_title = N_("Pairs")
    arrival_hint = N_("Ann & Bob")

    def too_few(self) -> str:
        return _("A tournament needs at least four players (two pairs).")

    def read_entry(self, line: str) -> Entry:
        """A pair: "Ann & Bob" (also "Ann, Bob" or "Ann / Bob"), optionally named first:
        "Dragons: Ann & Bob"."""
        named = PAIR_NAMED.match(line)
        name, rest = (named.group(1), named.group(2)) if named else ("", line)
        members = tuple(m for m in (clean(p) for p in SPLIT.split(rest.strip())) if m)
        return Entry(clean(name), members)

    def names_of(self, entry: Entry) -> list[str]:
        return [*entry.members]

    def known_names(self, entries: Iterable[Entered]) -> list[str]:
        return [name for e in entries for name in (e.name, *(e.members or []))]

    def check_pair(self, entry: Entry, taken: set[str]) -> None:
        """Two players, and a name (given, or made of its players') no other pair has."""
        if len([m for m in entry.members if clean(m)]) != 2:
            raise Refused("entries", "TN3", _("A pair is two players: %(pair)s.") % {
                "pair": entry.name or pair_name(entry.members)})
        named = clean(entry.name) or pair_name(entry.members)
        if name_key(named) in taken:
            raise Refused("entries", "TN3", _("%(name)s is entered twice.") % {
                "name": named})
        taken.add(name_key(named))

    def check_knockout(self, size: int | None, entries: int) -> int | None:
        return checked(size, entries)

    def rounds_in(self, planned: int, knockout: int | None) -> int:
        return planned + stages(knockout)

    def draws(self, number: int, planned: int) -> Stage:
        return Knockout(self) if number > planned else self

    def stage_named(self, stage: str) -> Stage:
        return Knockout(self) if stage == Knockout.stage else self

    def sides(self, names: Sequence[str], pairs: dict[frozenset[str], str]
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The pair of each side (by its players' names; else the two names joined)."""
        a, b = super().sides(names, pairs)
        return ((pairs.get(frozenset(map(name_key, a)), " & ".join(a)),),
                (pairs.get(frozenset(map(name_key, b)), " & ".join(b)),))

    def playing_pairs(self, past: Past, number: int) -> list[Entered]:
        entries = playing(past.entries, number)
        if len(entries) < 2:
            raise Refused("entries", "TN3", _(
                "A round needs at least two pairs; %(count)d play.") % {
                "count": len(entries)})
        return entries

    def ranked(self, past: Past, entries: Sequence[Entered]) -> SwissGround:
        """The Swiss pairing's ground: who met whom, the byes so far and the pairs that play
        ranked by the standing (read once)."""
        rounds = past.tables()
        met = frozenset(frozenset(sum(t.sides, ())) for r in rounds for t in r.tables)
        had = tuple(b for r in rounds for b in r.byes)  # two byes counted twice
        names = [e.name for e in entries]
        plays = set(names)
        ranked = [line.name for line in self.standing(rounds, [e.name for e in past.entries])
                  if line.name in plays]
        listed = set(ranked)
        ranked += [n for n in names if n not in listed]
        return SwissGround(members_of(entries), met, had, tuple(ranked))


class PairsSwiss(Pairs):
    pairing = "swiss"
    title = N_("Pairs tournament, Swiss (TN3)")
    pairing_choice = N_("Swiss: pairs of close standing")

    def ground(self, past: Past, number: int) -> SwissGround:
        return self.ranked(past, self.playing_pairs(past, number))


class PairsAllAgainstAll(Pairs):
    pairing = "all"
    title = N_("Pairs tournament, all against all (TN3)")
    pairing_choice = N_("All against all")

    def ground(self, past: Past, number: int) -> RoundRobin | LookAhead:
        """The round robin while the field is as entered (nothing else counts); once it
        changed, a plan for the rounds left in which no pairs meet twice."""
        entries = self.playing_pairs(past, number)
        if not any(e.joined > 1 or e.left is not None for e in past.entries):
            return RoundRobin(number, members_of(entries))
        return LookAhead(past.rounds - number + 1, self.ranked(past, entries))


@dataclass(frozen=True)
class SwissGround:
    """A Swiss round as its pairing asks it: the pairs that play with their players (as
    entered), who met whom, the byes so far and the pairs ranked by the standing."""

    members: Members
    met: frozenset[frozenset[str]]
    had: tuple[str, ...]
    ranked: tuple[str, ...]

    def seating(self, check: Callable[[], None]) -> Seating:
        made = pairing.swiss(self.ranked, self.met, self.had, check)
        return seated_pairs(self.members, made.tables, (made.bye,) if made.bye else (),
                            made.unmet)


@dataclass(frozen=True)
class RoundRobin:
    """A round of all against all by the circle method, the field as entered."""

    number: int
    members: Members

    def seating(self, check: Callable[[], None]) -> Seating:
        schedule = pairing.round_robin([name for name, _players in self.members])
        games = schedule[(self.number - 1) % len(schedule)]
        tables = tuple((a, b) for a, b in games if a is not None and b is not None)
        byes = tuple(n for a, b in games if a is None or b is None
                     for n in (a, b) if n is not None)
        return seated_pairs(self.members, tables, byes)


@dataclass(frozen=True)
class LookAhead:
    """All against all after the field changed: a plan for the `left` rounds in which no
    pairs meet twice, else the Swiss pairing of `swiss`."""

    left: int
    swiss: SwissGround

    def seating(self, check: Callable[[], None]) -> Seating:
        names = [name for name, _players in self.swiss.members]
        planned = pairing.all_against_all(names, self.swiss.met, self.left, self.swiss.had,
                                          check)
        if planned is None:
            return self.swiss.seating(check)
        return seated_pairs(self.swiss.members, planned.tables,
                            (planned.bye,) if planned.bye else ())


PAIRS_SWISS = PairsSwiss()
PAIRS_ALL = PairsAllAgainstAll()
