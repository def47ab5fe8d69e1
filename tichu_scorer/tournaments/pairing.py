"""The pairing of a pairs tournament (RULES.md `[TN3]`): fixed pairs play all against all
(`round_robin`), or round by round the Swiss way (`swiss`); a knockout of the best 2, 4
or 8 may follow (`knockout`, then `next_knockout` stage by stage).

Pure (tests/test_purity.py) and deterministic: the same input gives the same pairing in
any process (lists and indices only, never the order of a set of names), with no seed.
Names are told apart by `draw.key` (case and surrounding spaces do not count) and
returned as given.

`swiss` pairs top-down (the Monrad way): the best pair not yet seated meets the next best
it may meet, and so on, so each pair meets a pair of equal or close standing, and never a
pair it has met before wherever any pairing avoids that. Whether one can is a maximum
matching over the pairs that have not met (Edmonds' blossom algorithm): the fewest
rematches any pairing needs is known before the first table, and each table is taken
only if the pairs left can still be paired with no more. The search therefore never has
to back up, and its work is bounded without a step budget: at most one matching per
opponent tried, each polynomial in the number of pairs. With an odd number the bye goes
to a pair among those with the fewest byes so far (nobody has a second bye before all
had one): the lowest ranked of them, unless another's bye lets fewer pairs meet again.

>>> round_robin(["A", "B", "C"])
[[('A', 'B'), ('C', None)], [('C', 'A'), ('B', None)], [('B', 'C'), ('A', None)]]
>>> p = swiss(["A", "B", "C", "D"], met=[frozenset({"A", "B"})])
>>> p.tables, p.bye, p.rematches, p.unmet
((('A', 'C'), ('B', 'D')), None, 0, ())
>>> swiss(["A", "B", "C"], met=[("A", "B")], byes=["C"]).as_dict()
{'tables': [['A', 'C']], 'bye': 'B', 'rematches': 0, 'unmet': []}
>>> forced = swiss(["A", "B"], met=[("a", "b")])  # two pairs who met already
>>> forced.tables, forced.rematches, forced.unmet[0].rule
((('A', 'B'),), 1, 'TN3')
>>> first = knockout(["A", "B", "C", "D", "E", "F", "G", "H"], 8)
>>> first
[('A', 'H'), ('B', 'G'), ('C', 'F'), ('D', 'E')]
>>> next_knockout(["A", "B", "C", "D"])  # the winners, by match
[('A', 'D'), ('B', 'C')]
>>> try:
...     knockout(["A", "B", "C"], 4)
... except PairingError as refused:
...     print(refused.rule, refused)
TN3 A knockout of the best 4 needs 4 pairs; there are 3 (TN3).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game.i18n import _, ngettext
from .draw import Unmet, key, nothing
from .matching import maximum

KNOCKOUT_SIZES = (2, 4, 8)


class PairingError(ValueError):
    """Pairs that cannot be paired as asked; `rule` is the rule id (always TN3)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = "TN3"


@dataclass(frozen=True)
class Pairing:
    """One Swiss round: tables of two pairs (the better ranked first), the pair with the
    bye (an odd number), how many tables seat two pairs who met before, and why."""

    tables: tuple[tuple[str, str], ...]
    bye: str | None = None
    rematches: int = 0
    unmet: tuple[Unmet, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {"tables": [list(t) for t in self.tables], "bye": self.bye,
                "rematches": self.rematches, "unmet": [u.as_dict() for u in self.unmet]}


def _checked(pairs: Sequence[str]) -> list[str]:
    """The pairs as a list: two at least, each named, each once (by `key`)."""
    names = list(pairs)
    if len(names) < 2:
        raise PairingError(_("A pairs tournament needs at least two pairs (TN3)."))
    seen: set[str] = set()
    for name in names:
        if not key(name):
            raise PairingError(_("Every pair needs a name (TN3)."))
        if key(name) in seen:
            raise PairingError(_("“%(name)s” is named twice; name each pair once (TN3).")
                               % {"name": name})
        seen.add(key(name))
    return names


def round_robin(pairs: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """All against all by the circle method: n - 1 rounds for an even number n, n rounds
    for an odd one, where each round one pair has a bye (opponent None, its table last).
    Every pair meets every other exactly once.

    >>> [len(r) for r in round_robin(["A", "B", "C", "D"])]
    [2, 2, 2]
    """
    names = _checked(pairs)
    # An odd number: an empty first seat, which stays put; who sits across has the bye.
    slots: list[str | None] = [*([None] if len(names) % 2 else []), *names]
    size = len(slots)
    rounds: list[list[tuple[str, str | None]]] = []
    for _round in range(size - 1):
        across = [(slots[i], slots[size - 1 - i]) for i in range(size // 2)]
        tables: list[tuple[str, str | None]] = [
            (a, b) for a, b in across if a is not None and b is not None]
        rounds.append(tables + [(b, None) for a, b in across if a is None and b is not None])
        slots = [slots[0], slots[-1], *slots[1:-1]]  # all but the first move on one seat
    return rounds


def swiss(standing: Sequence[str], met: Iterable[Iterable[str]] = (),
          byes: Iterable[str] = (), check: Callable[[], None] = nothing) -> Pairing:
    """Pair the next Swiss round. `standing` lists the pairs best first (the caller
    ranks them by `[TN3]`); `met` holds each table played so far as its two names (a
    frozenset, a tuple, ...); `byes` names the pair of each bye so far (a pair with two
    byes twice). Names in `met` or `byes` missing from `standing` have left: not counted.
    Never refuses a standing of two pairs or more: where every pairing seats some pairs
    who met before, the fewest such tables are taken and `unmet` says so (`[TN3]`).
    `check` is called before each matching (a CPU allowance raising when spent)."""
    names = _checked(standing)
    n = len(names)
    index = {key(name): i for i, name in enumerate(names)}
    seen = [[False] * n for _ in range(n)]
    for meeting in met:
        at = sorted({index[k] for k in map(key, meeting) if k in index})
        if len(at) == 2:
            seen[at[0]][at[1]] = seen[at[1]][at[0]] = True
    had = [0] * n
    for name in byes:
        if (i := index.get(key(name))) is not None:
            had[i] += 1
    allowed = [[i != j and not seen[i][j] for j in range(n)] for i in range(n)]

    bye: int | None = None
    rest = list(range(n))
    check()
    mate = maximum(rest, allowed, {})
    if n % 2:
        fewest = min(had)
        fair = [c for c in reversed(range(n)) if had[c] == fewest]  # the lowest ranked first
        best = len(rest)
        for c in fair:
            left = [i for i in range(n) if i != c]
            check()
            matched = maximum(left, allowed, mate)
            need = len(left) // 2 - len(matched) // 2
            if need < best:
                best, bye, chosen_rest, chosen_mate = need, c, left, matched
            if need == 0:
                break
        rest, mate = chosen_rest, chosen_mate
    need = len(rest) // 2 - len(mate) // 2

    tables: list[tuple[int, int]] = []
    budget = need  # the rematches still allowed: the fewest any pairing needs
    while rest:
        top, others = rest[0], rest[1:]
        chosen = -1
        # First a pair not met before, the closest in standing first; a rematch only
        # where every pairing of the rest needs one more.
        for again in (False, True):
            for q in others:
                if seen[top][q] != again or int(again) > budget:
                    continue
                left = [v for v in others if v != q]
                check()
                matched = maximum(left, allowed, mate)
                if len(left) // 2 - len(matched) // 2 <= budget - int(again):
                    chosen, mate, budget = q, matched, budget - int(again)
                    break
            if chosen >= 0:
                break
        # (some opponent is always chosen: an optimal pairing seats `top` somewhere)
        tables.append((top, chosen))
        rest = [v for v in others if v != chosen]

    rematches = sum(seen[a][b] for a, b in tables)
    unmet: tuple[Unmet, ...] = ()
    if rematches:
        unmet = (Unmet("TN3", ngettext(
            "Every pairing of this round seats pairs who have met before: "
            "%(num)d table has two pairs meeting again.",
            "Every pairing of this round seats pairs who have met before: "
            "%(num)d tables have two pairs meeting again.", rematches) % {"num": rematches}),)
    return Pairing(tuple((names[a], names[b]) for a, b in tables),
                   None if bye is None else names[bye], rematches, unmet)


def knockout(seeded: Sequence[str], size: int) -> list[tuple[str, str]]:
    """The first knockout stage of the best `size` (2, 4 or 8) of `seeded` (best first):
    1 v N, 2 v N-1, ... in that order, for `next_knockout`."""
    if size not in KNOCKOUT_SIZES:
        raise PairingError(_("A knockout stage is for the best 2, 4 or 8 pairs, not "
                             "%(size)d (TN3).") % {"size": size})
    if len(seeded) < size:
        raise PairingError(_("A knockout of the best %(size)d needs %(size)d pairs; there "
                             "are %(count)d (TN3).") % {"size": size, "count": len(seeded)})
    names = _checked(seeded)
    return [(names[i], names[size - 1 - i]) for i in range(size // 2)]


def next_knockout(winners: Sequence[str]) -> list[tuple[str, str]]:
    """The next knockout stage from the winners of the last, by match (as `knockout` or
    this listed them): the winners of the first and the last match meet, of the second
    and the last but one, ... So the two best seeds can meet only in the final.

    >>> next_knockout(["A", "B"])
    [('A', 'B')]
    """
    names = list(winners)
    if len(names) not in (2, 4):
        raise PairingError(_("The next knockout stage pairs the winners of 2 or 4 matches, "
                             "not %(count)d (TN3).") % {"count": len(names)})
    names = _checked(names)
    return [(names[i], names[len(names) - 1 - i]) for i in range(len(names) // 2)]


LOOK_AHEAD_STEPS = 200_000  # matchings tried by `all_against_all` before it gives up
CHECK_STEPS = 512  # steps of `all_against_all` between two calls of its `check`


def all_against_all(pairs: Sequence[str], met: Iterable[Iterable[str]], rounds: int,
                    byes: Iterable[str] = (),
                    check: Callable[[], None] = nothing) -> Pairing | None:
    """All against all after the field changed (a pair left, another arrived): the next
    round of a plan of `rounds` rounds in which no pair meets a pair it met before and the
    byes stay fair (an odd number: a pair among those with the fewest byes sits out), found
    by a bounded depth-first search over the rounds left. None when no such plan exists or
    the search ran out of steps (`LOOK_AHEAD_STEPS`): the caller pairs the Swiss way then.
    `check` is called every `CHECK_STEPS` steps (a CPU allowance raising when spent). The
    search goes one level deeper per table of the plan (255 pairs with 18 rounds left:
    2,304), more than Python's recursion allows, so its levels are generators run by
    `_run`, not nested calls.

    >>> all_against_all(["A", "B", "C", "D"], [("A", "B"), ("C", "D")], 2).tables
    (('A', 'C'), ('B', 'D'))
    >>> all_against_all(["A", "B", "C", "D"], [("A", "B"), ("A", "C"), ("A", "D")], 1) is None
    True
    """
    names = _checked(pairs)
    index = {key(n): i for i, n in enumerate(names)}
    n = len(names)
    bye = n if n % 2 else None  # a seat for the bye: who meets it sits out
    size = n + (1 if bye is not None else 0)
    seen = [[False] * size for _ in range(size)]
    for table in met:
        a, b = (index.get(key(x)) for x in table)
        if a is not None and b is not None:
            seen[a][b] = seen[b][a] = True
    sat = [0] * size
    for name in byes:
        if (i := index.get(key(name))) is not None:
            sat[i] += 1
    steps = [0]

    def allowed(a: int, b: int) -> bool:
        if b == bye:  # [TN2]: the bye to one of those who sat out least
            return not seen[a][b] and sat[a] == min(sat[i] for i in range(n))
        return not seen[a][b]

    def rounds_from(left: int) -> Level:
        if left == 0:
            return []
        free = list(range(size))
        chosen: list[tuple[int, int]] = []

        def fill() -> Level:
            steps[0] += 1
            if steps[0] > LOOK_AHEAD_STEPS:
                return None
            if steps[0] % CHECK_STEPS == 0:
                check()
            if not free:
                for a, b in chosen:
                    seen[a][b] = seen[b][a] = True
                    if b == bye:
                        sat[a] += 1
                rest = yield rounds_from(left - 1)
                for a, b in chosen:
                    seen[a][b] = seen[b][a] = False
                    if b == bye:
                        sat[a] -= 1
                return list(chosen) if rest is not None else None
            a = free.pop(0)
            for j, b in enumerate(free):
                if allowed(a, b) if b != a else False:
                    free.pop(j)
                    chosen.append((a, b))
                    found = yield fill()
                    chosen.pop()
                    free.insert(j, b)
                    if found is not None:
                        free.insert(0, a)
                        return found
            free.insert(0, a)
            return None

        return (yield fill())

    plan = _run(rounds_from(max(1, rounds)))
    if plan is None:
        return None
    tables = tuple((names[a], names[b]) for a, b in plan if b != bye)
    sitting = next((names[a] for a, b in plan if b == bye), None)
    return Pairing(tables, sitting, 0, ())


# A level of a search run by `_run`: it yields the level below, is sent what that returned,
# and returns its own answer.
Level = Generator["Level", "list[tuple[int, int]] | None", "list[tuple[int, int]] | None"]


def _run(top: Level) -> list[tuple[int, int]] | None:
    """What the search `top` returns, its levels kept on a list instead of the call stack
    (as deep as the search goes, never a RecursionError).

    >>> def count(n):
    ...     return 0 if n == 0 else 1 + (yield count(n - 1))
    >>> _run(count(5000))
    5000
    """
    stack = [top]
    answer = None
    while stack:
        try:
            below = stack[-1].send(answer)
        except StopIteration as done:
            stack.pop()
            answer = done.value
        else:
            stack.append(below)
            answer = None
    return answer
