"""What every tournament format shares (RULES.md §10.2): an entry as asked for, the
director's refusal, the seating a draw makes, what a draw reads of a tournament (`Past`),
and the two classes every format is: `Stage` (how a round is drawn and played: its tables'
rules, what its draw rests on) and `Format` (a tournament's format: its entries, whom a
table credits, the standing, the words its pages show). Pure: no web or database import.

>>> clean("  Ann \\t Lee "), pair_name([" Ann ", "Bob  Lee"])
('Ann Lee', 'Ann & Bob Lee')
>>> from types import SimpleNamespace as Row
>>> entries = [Row(name="A", joined=1, left=None), Row(name="B", joined=2, left=3),
...            Row(name="C", joined=3, left=None)]
>>> [e.name for e in playing(entries, 2)]
['A', 'B']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Protocol

from ...game import names
from ...game.house import PRESETS, HouseRules
from ...game.i18n import _
from .. import draw, standings

NAME_MAX = 40  # characters of a name, as stored (`models.NAME_MAX`: a test keeps them equal)
MOST_ENTRIES = 256
MOST_ROUNDS = 20
MOST_HANDS = 20
HOUSE = PRESETS["tournament"][1]  # [TN1]: victory points, [R2] and [R3]


class Refused(ValueError):
    """What the director asked cannot be done: the field, the rule and the reason."""

    def __init__(self, field: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.field, self.rule, self.message = field, rule, message


@dataclass(frozen=True)
class Entry:
    """An entry as asked for: a player's name, or a pair's name and its two players."""

    name: str
    members: tuple[str, ...] = ()


class Entered(Protocol):
    """An entry as stored (`TournamentEntry`): the first round it plays, the first it no
    longer plays (None while it plays)."""

    @property
    def name(self) -> str: ...
    @property
    def members(self) -> Sequence[str] | None: ...
    @property
    def joined(self) -> int: ...
    @property
    def left(self) -> int | None: ...


def clean(name: str) -> str:
    return names.collapsed(name)


def name_key(name: str) -> str:
    """A name's identity among a tournament's entries (as `Player.key_of`)."""
    return names.key(name)


def pair_name(members: Sequence[str]) -> str:
    return " & ".join(clean(m) for m in members)


def playing(entries: Iterable[Entered], number: int) -> list[Entered]:
    """The entries that play round `number`: arrived by then, not yet left."""
    return [e for e in entries if e.joined <= number and (e.left is None or e.left > number)]


def pair_names(entries: Iterable[Entered]) -> dict[frozenset[str], str]:
    """The pairs by their two players' names."""
    return {frozenset(name_key(m) for m in e.members or []): e.name for e in entries}


def members_of(entries: Iterable[Entered]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each pair's name with its two players, in the order entered."""
    return tuple((e.name, tuple(e.members or ())) for e in entries)


@dataclass(frozen=True)
class Seating:
    """A round as drawn: tables of four names by seat (0 and 2 are partners), the entries
    sitting out, and what the draw could not meet."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    unmet: tuple[draw.Unmet, ...] = ()


def seated_pairs(members: Sequence[tuple[str, tuple[str, ...]]],
                 games: Iterable[tuple[str, str]], byes: tuple[str, ...] = (),
                 unmet: tuple[draw.Unmet, ...] = ()) -> Seating:
    """Tables of two pairs each, a pair's players as partners (seats 0 and 2, 1 and 3)."""
    players = dict(members)
    return Seating(tuple((players[a][0], players[b][0], players[a][1], players[b][1])
                         for a, b in games), byes, unmet)


class Past(Protocol):
    """What a draw reads of a tournament: its plan and entries, and, when a format asks,
    its rounds as the standing reads them and who sat where (each read once)."""

    @property
    def seed(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def knockout(self) -> int | None: ...
    @property
    def entries(self) -> Sequence[Entered]: ...
    def tables(self) -> list[standings.Round]: ...
    def seatings(self) -> tuple[draw.Round, ...]: ...


class Ground(Protocol):
    """What one round's draw rests on, read: two equal grounds draw the same seating (the
    draw and the pairing are deterministic); `seating` is the search, `check` its CPU
    allowance."""

    def seating(self, check: Callable[[], None]) -> Seating: ...


class TableRules(NamedTuple):
    """How a round's table plays: a target, or a number of hands ([R7]), and house rules."""

    target: int | None
    hands: int | None
    house: HouseRules


class Stage:
    """How a round is drawn and played. `stage` is the word stored with the round."""

    stage: ClassVar[str] = "round"
    knockout: ClassVar[bool] = False  # it decides the top places ([TN3]), not the standing
    stage_title: ClassVar[str | None] = None  # message id the round's heading starts with
    target: ClassVar[int | None] = None  # its matches are played to a target

    def table_rules(self, hands: int) -> TableRules:
        """[TN1]: the round's hands, with victory points, no Grand Tichu, a double victory
        worth 100."""
        return TableRules(None, hands, HOUSE)

    def ground(self, past: Past, number: int) -> Ground:
        """What the draw of round `number` rests on; Refused when too few play."""
        raise NotImplementedError


class Format(Stage):
    """A tournament's format: the words stored (`kind`, `pairing`), its entries, whom a
    table's sides credit, how the entries are ranked, and the words its pages show."""

    kind: ClassVar[str]
    pairing: ClassVar[str | None] = None
    title: ClassVar[str]  # message id: the format as the tournament's page names it
    choice: ClassVar[str]  # message id: its kind as the new tournament's form offers it
    pairing_choice: ClassVar[str | None] = None  # message id: its pairing, as offered
    least: ClassVar[int]  # entries needed to start
    rule: ClassVar[str]  # the rule of its entries
    match_points: ClassVar[bool] = False  # pairs: match points and the points difference
    takes_knockout: ClassVar[bool] = False
    fair_partners: ClassVar[bool] = False  # its draw may partner fair by ratings (fair_draw)
    entry_label: ClassVar[str]  # message id: the standing's column of the entries
    entries_title: ClassVar[str]  # message id: the entries' heading
    arrival_hint: ClassVar[str]  # message id: the late arrival's placeholder

    def draws(self, number: int, planned: int) -> Stage:
        """The stage that draws round `number` of a tournament of `planned` rounds."""
        return self

    def stage_named(self, stage: str) -> Stage:
        """The stage of a round drawn, from the word stored with it."""
        return self

    def rounds_in(self, planned: int, knockout: int | None) -> int:
        """The rounds to draw in all: the planned ones (and a knockout's stages)."""
        return planned

    @property
    def columns(self) -> tuple[str, ...]:
        """The standing's columns as exported (CSV)."""
        head = ("place", "name", "victory_points", "points", "difference", "played", "byes")
        return head[:2] + ("match_points",) + head[2:] if self.match_points else head

    def read_entry(self, line: str) -> Entry:
        """A line of the entries box."""
        return Entry(clean(line))

    def read_entries(self, text: str) -> list[Entry]:
        return [self.read_entry(line) for line in text.splitlines() if line.strip()]

    def names_of(self, entry: Entry) -> list[str]:
        """The names of an entry that no other may have: the player's, or the pair's."""
        return [entry.name]

    def known_names(self, entries: Iterable[Entered]) -> list[str]:
        """The names taken by the entries stored (a late arrival may use none of them)."""
        return [e.name for e in entries]

    def check_pair(self, entry: Entry, taken: set[str]) -> None:
        """A pair's own checks (none for a player)."""

    def check_entries(self, entries: Sequence[Entry], known: Sequence[str] = ()) -> None:
        """Refused unless every entry has a name, no name (nor a pair's player) comes
        twice, and there are enough for a first round (four players, or two pairs)."""
        seen = {name_key(n) for n in known}
        pairs = set(seen)  # a pair's name, given or made of its players', is told apart too
        for entry in entries:
            self.check_pair(entry, pairs)
            for name in self.names_of(entry):
                if not clean(name) or len(clean(name)) > NAME_MAX:
                    raise Refused("entries", "TN1", _(
                        "Each name has 1 to %(most)d characters.") % {"most": NAME_MAX})
                if (unseen := names.hidden(name)) is not None:
                    raise Refused("entries", "TN1", _(
                        "%(name)s holds a character that cannot be seen (%(code)s): type "
                        "the name again.") % {"name": clean(name), "code": unseen})
                if name_key(name) in seen:
                    raise Refused("entries", "TN1", _("%(name)s is entered twice.") % {
                        "name": clean(name)})
                seen.add(name_key(name))
        if not known and len(entries) < self.least:
            raise Refused("entries", self.rule, self.too_few())
        if len(entries) + len(known) > MOST_ENTRIES:
            raise Refused("entries", "TN1", _("At most %(most)d entries.") % {
                "most": MOST_ENTRIES})

    def too_few(self) -> str:
        """Why the entries cannot start a tournament."""
        raise NotImplementedError

    def check_knockout(self, size: int | None, entries: int) -> int | None:
        """The knockout stored: none unless the format takes one ([TN3])."""
        return None

    def sides(self, names: Sequence[str], pairs: dict[frozenset[str], str]
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Whom each side of a table credits (seats 0 and 2, 1 and 3): the two partners."""
        return (names[0], names[2]), (names[1], names[3])

    def standing(self, rounds: Sequence[standings.Round],
                 entries: Iterable[str]) -> list[standings.Line]:
        """Every entry's line, best first, the knockout's places on top ([TN3])."""
        lines = standings.standing(rounds, not self.match_points, entries)
        return standings.with_knockout(lines, rounds)

