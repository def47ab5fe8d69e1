"""The draw of an individual tournament (RULES.md `[TN1]`, `[TN2]`): which players sit
at which table, in which seat, and who sits out, round after round.

Pure (tests/test_purity.py) and deterministic: the same players, rounds, seed and history
give the same draw, in any process (only lists and `random.Random(seed)`, never the order
of a set of names). Seats 0 and 2 are partners, 1 and 3 are partners.

`[TN2]` comes first: each round the fewest possible sit out (the players modulo four),
chosen among those who have sat out least (history counted), so nobody sits out twice
before everyone has sat out once; among those, who has played most sits out first (a late
arrival has missed rounds already). Then `[TN1]`: each round is built greedily and then
improved by swapping players (a bounded, seeded local search, restarted a few times while a
partner repeat is left), minimising first partners who meet again and then opponents who
meet again, each weighted by how often the pair met before. A draw that cannot avoid a
partner repeat still seats everyone and says so (`Draw.unmet`).

>>> d = draw(["Ann", "Bob", "Cy", "Di", "Ed"], 5, seed=7)
>>> [len(r.tables) for r in d.rounds], sorted(r.byes[0] for r in d.rounds)
([1, 1, 1, 1, 1], ['Ann', 'Bob', 'Cy', 'Di', 'Ed'])
>>> d.partner_repeats, d.unmet
(0, ())
>>> draw(["Ann", "Bob", "Cy", "Di", "Ed"], 5, seed=7) == d  # the same seed, the same draw
True
>>> d2 = draw(["A", "B", "C", "D"], 4, seed=1)  # four players have three partners each
>>> d2.partner_repeats, d2.unmet[0].rule
(2, 'TN1')
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game.i18n import _

# A partner met again outweighs every opponent met again that one swap can change
# (two tables, eight opponent pairs, each met at most 40 times before).
PARTNER_WEIGHT = 1000
STEPS_PER_PLAYER = 60  # swaps tried per seated player and attempt, unless the round is perfect
ATTEMPTS = 4  # fresh starts of a round while a partner repeat is left
DRAWS = 8  # fresh starts of the whole draw while partners meet again who need not
MAX_STEPS = 200_000  # swaps tried in one whole draw: its work is bounded, and deterministic
CHECK_EVERY = 512  # swaps between two calls of the caller's `check` (its CPU allowance)


def key(name: str) -> str:
    """The identity of a name: case and surrounding spaces do not count."""
    return name.strip().casefold()


@dataclass(frozen=True)
class Round:
    """One round: tables of four names by seat, and the names sitting out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}


@dataclass(frozen=True)
class Unmet:
    """A rule the draw could not meet: its id and a sentence saying how far it fell short."""

    rule: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class Draw:
    """The new rounds, the repeats across history and new rounds, what could not be met."""

    rounds: tuple[Round, ...]
    partner_repeats: int
    opponent_repeats: int
    unmet: tuple[Unmet, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {"rounds": [r.as_dict() for r in self.rounds],
                "repeats": {"partners": self.partner_repeats,
                            "opponents": self.opponent_repeats},
                "unmet": [u.as_dict() for u in self.unmet]}


def pairs(table: Sequence[Any]) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]]]:
    """The partner pairs and the opponent pairs of a table by seat.

    >>> pairs("abcd")
    ([('a', 'c'), ('b', 'd')], [('a', 'b'), ('a', 'd'), ('c', 'b'), ('c', 'd')])
    """
    a, b, c, d = table
    return [(a, c), (b, d)], [(a, b), (a, d), (c, b), (c, d)]


def _pair(x: str, y: str) -> tuple[str, str]:
    return (x, y) if x <= y else (y, x)


def met(rounds: Iterable[Round]) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """How often each pair of names (by `key`) partnered, and how often they were opponents."""
    partners: Counter[tuple[str, str]] = Counter()
    opponents: Counter[tuple[str, str]] = Counter()
    for one in rounds:
        for table in one.tables:
            mates, rivals = pairs([key(n) for n in table])
            partners.update(_pair(x, y) for x, y in mates)
            opponents.update(_pair(x, y) for x, y in rivals)
    return partners, opponents


def repeats(counts: Counter[tuple[str, str]]) -> int:
    """Meetings beyond each pair's first.

    >>> repeats(Counter({("a", "b"): 3, ("a", "c"): 1}))
    2
    """
    return sum(c - 1 for c in counts.values() if c > 1)


class _Table:
    """The counts the search reads, over the current players by index."""

    def __init__(self, n: int) -> None:
        self.partner = [[0] * n for _ in range(n)]
        self.opponent = [[0] * n for _ in range(n)]

    def cost(self, a: int, b: int, c: int, d: int) -> int:
        p, o = self.partner, self.opponent
        oa, oc = o[a], o[c]
        return (PARTNER_WEIGHT * (p[a][c] + p[b][d])
                + oa[b] + oa[d] + oc[b] + oc[d])

    def record(self, flat: Sequence[int]) -> None:
        for t in range(0, len(flat), 4):
            mates, rivals = pairs(flat[t:t + 4])
            for (x, y), grid in [(m, self.partner) for m in mates] + [
                    (r, self.opponent) for r in rivals]:
                grid[x][y] += 1
                grid[y][x] += 1


def _pick(rest: list[int], partners: list[list[int]], opponents: list[list[int]]) -> int:
    """Take from `rest` the first player who has met none of `partners` as partner and none
    of `opponents` as opponent (rows of the counts), else the one who met them least."""
    best, best_cost = 0, -1
    for i, x in enumerate(rest):
        c = PARTNER_WEIGHT * sum(row[x] for row in partners) + sum(row[x] for row in opponents)
        if c == 0:
            best = i
            break
        if best_cost < 0 or c < best_cost:
            best, best_cost = i, c
    return rest.pop(best)


def _greedy(players: list[int], grid: _Table, rng: random.Random) -> list[int]:
    rest = players[:]
    rng.shuffle(rest)
    p, o = grid.partner, grid.opponent
    flat: list[int] = []
    while rest:
        a = rest.pop(0)
        c = _pick(rest, [p[a]], [])
        b = _pick(rest, [], [o[a], o[c]])
        d = _pick(rest, [p[b]], [o[a], o[c]])
        flat += [a, b, c, d]
    return flat


class _Allowance:
    """The swaps a draw may still try (MAX_STEPS in all), and the caller's CPU check."""

    def __init__(self, check: Callable[[], None]) -> None:
        self.left = MAX_STEPS
        self.check = check


def _improve(flat: list[int], grid: _Table, rng: random.Random, steps: int,
             allowance: _Allowance) -> int:
    """Swap players while no table gets worse in sum (sideways moves walk plateaus); the
    round's cost after at most `steps` swaps tried (fewer once the allowance runs out)."""
    steps = min(steps, allowance.left)
    allowance.left -= steps  # given back below for the swaps not needed
    cost = grid.cost
    costs = [cost(*flat[t:t + 4]) for t in range(0, len(flat), 4)]
    total = sum(costs)
    size = len(flat)
    for step in range(steps):
        if total == 0:
            allowance.left += steps - step
            break
        if step % CHECK_EVERY == 0:
            allowance.check()
        bad = [t for t, c in enumerate(costs) if c]
        i = 4 * rng.choice(bad) + rng.randrange(4)
        j = rng.randrange(size)
        t, u = i // 4, j // 4
        flat[i], flat[j] = flat[j], flat[i]
        if t == u:
            new = cost(*flat[4 * t:4 * t + 4])
            delta = new - costs[t]
            if delta <= 0:
                costs[t] = new
                total += delta
                continue
        else:
            new_t, new_u = cost(*flat[4 * t:4 * t + 4]), cost(*flat[4 * u:4 * u + 4])
            delta = new_t + new_u - costs[t] - costs[u]
            if delta <= 0:
                costs[t], costs[u] = new_t, new_u
                total += delta
                continue
        flat[i], flat[j] = flat[j], flat[i]
    return total


def _seat(players: list[int], grid: _Table, rng: random.Random,
          allowance: _Allowance) -> list[int]:
    """One round's seating of `players` (a multiple of four), as a flat list by table."""
    best: list[int] = []
    best_cost = -1
    for _attempt in range(ATTEMPTS):
        flat = _greedy(players, grid, rng)
        total = _improve(flat, grid, rng, STEPS_PER_PLAYER * len(flat), allowance)
        if best_cost < 0 or total < best_cost:
            best, best_cost = flat, total
        if best_cost < PARTNER_WEIGHT or not allowance.left:
            break
    return best


def nothing() -> None:
    """No CPU allowance: a check that never raises (the work is bounded without it)."""
    return None


def draw(players: Sequence[str], rounds: int, seed: int = 0,
         history: Sequence[Round] = (), check: Callable[[], None] = nothing) -> Draw:
    """Draw `rounds` new rounds for `players` (4 or more, different by `key`) after the
    rounds of `history`, whose names missing from `players` have left. `check` is called
    now and then (a CPU allowance raising when spent); the work is bounded without it.
    While partners meet again who need not, the whole draw is made afresh (up to
    DRAWS times) and the best kept: fewest partner repeats, then opponent repeats."""
    rng = random.Random(seed)  # nosec B311: a reproducible draw, not a secret
    index = {key(name): i for i, name in enumerate(players)}
    old_partners, _old = met(history)
    forced = _forced(players, history, rounds)
    allowance = _Allowance(check)

    def attempt() -> Draw:
        drawn = _rounds(players, index, rounds, history, rng, allowance)
        partners, opponents = met([*history, *drawn])
        return Draw(tuple(drawn), repeats(partners), repeats(opponents))

    best = attempt()
    for _again in range(DRAWS - 1):
        if best.partner_repeats == repeats(old_partners) or forced or not allowance.left:
            break
        made = attempt()
        if (made.partner_repeats, made.opponent_repeats) < (best.partner_repeats,
                                                            best.opponent_repeats):
            best = made
    count = best.partner_repeats - repeats(old_partners)
    if count <= 0:
        return best
    if forced:
        why = _("With %(players)d players some have more rounds to play than partners they "
                "have not yet had, so %(count)d pairs partner again (partner repeats).") % {
                    "players": len(players), "count": count}
    else:
        why = _("The draw found no seating in which nobody partners the same player "
                "twice: %(count)d pairs partner again (partner repeats).") % {"count": count}
    return Draw(best.rounds, best.partner_repeats, best.opponent_repeats,
                (Unmet("TN1", why),))


def _rounds(players: Sequence[str], index: dict[str, int], rounds: int,
            history: Sequence[Round], rng: random.Random,
            allowance: _Allowance) -> list[Round]:
    """One attempt at the new rounds, each after the history and the rounds before it."""
    n = len(players)
    grid = _Table(n)
    byes, played = [0] * n, [0] * n
    for old in history:
        for table in old.tables:
            at = [index.get(key(name)) for name in table]
            for i in at:
                if i is not None:
                    played[i] += 1
            mates, rivals = pairs(at)
            for (x, y), counts in [(m, grid.partner) for m in mates] + [
                    (r, grid.opponent) for r in rivals]:
                if x is not None and y is not None:
                    counts[x][y] += 1
                    counts[y][x] += 1
        for name in old.byes:
            if (i := index.get(key(name))) is not None:
                byes[i] += 1
    drawn: list[Round] = []
    for _round in range(rounds):
        allowance.check()
        tie = [rng.random() for _ in range(n)]
        order = sorted(range(n), key=lambda i: (byes[i], -played[i], tie[i]))
        resting = sorted(order[:n % 4])
        seated = sorted(order[n % 4:])
        flat = _seat(seated, grid, rng, allowance)
        grid.record(flat)
        for i in resting:
            byes[i] += 1
        for i in seated:
            played[i] += 1
        drawn.append(Round(tuple(tuple(players[i] for i in flat[t:t + 4])
                                 for t in range(0, len(flat), 4)),
                           tuple(players[i] for i in resting)))
    return drawn


def _forced(players: Sequence[str], history: Sequence[Round], rounds: int) -> bool:
    """Whether partners must meet again: some player has more new rounds to play than
    players left whom they have not partnered (byes counted as evenly spread).

    >>> _forced(["A", "B", "C", "D"], [], 3), _forced(["A", "B", "C", "D"], [], 4)
    (False, True)
    """
    names = {key(p) for p in players}
    old, _opponents = met(history)
    partnered = Counter(name for pair in old for name in pair
                        if pair[0] in names and pair[1] in names)
    plays = rounds + (-rounds * (len(names) % 4)) // len(names)  # the fewest anyone plays
    return any(plays > len(names) - 1 - partnered[name] for name in names)
