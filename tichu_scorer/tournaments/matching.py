"""A maximum matching in a general graph (Edmonds' blossom algorithm), which the Swiss pairing
of a pairs tournament asks before each table it seats (`pairing`): how many pairs can still
meet a pair they have not met. Pure, polynomial, no step budget needed.

>>> allowed = [[False, True, True], [True, False, False], [True, False, False]]
>>> maximum([0, 1, 2], allowed, {})
{0: 1, 1: 0}
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence


def maximum(alive: Sequence[int], allowed: Sequence[Sequence[bool]],
            start: Mapping[int, int]) -> dict[int, int]:
    """A maximum matching over the vertices `alive` by the edges `allowed`, each vertex
    to its mate (both ways), grown from `start`'s edges among `alive` (Edmonds)."""
    n = len(alive)
    at = {v: i for i, v in enumerate(alive)}
    adjacent = [[j for j in range(n) if allowed[alive[i]][alive[j]]] for i in range(n)]
    match = [-1] * n
    for v, w in start.items():
        if v in at and w in at:
            match[at[v]] = at[w]
    for i in range(n):  # a greedy start for the vertices `start` left free
        if match[i] < 0:
            for j in adjacent[i]:
                if match[j] < 0:
                    match[i], match[j] = j, i
                    break
    # A vertex with no augmenting path now gets none after later augmentations either
    # (Edmonds), so one pass over the free vertices suffices.
    for root in range(n):
        if match[root] < 0:
            _augment(root, adjacent, match)
    return {alive[i]: alive[m] for i, m in enumerate(match) if m >= 0}


def _augment(root: int, adjacent: list[list[int]], match: list[int]) -> None:
    """Search an augmenting path from the free vertex `root` (breadth first, shrinking
    odd cycles into blossoms) and flip it into `match` if there is one."""
    n = len(match)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))

    def common(a: int, b: int) -> int:  # the base of the blossom closed by edge a-b
        path = [False] * n
        while True:
            a = base[a]
            path[a] = True
            if match[a] < 0:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if path[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    used[root] = True
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] >= 0 and parent[match[to]] >= 0):
                b = common(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] < 0:
                parent[to] = v
                if match[to] < 0:  # a free vertex: flip the path back to the root
                    while to >= 0:
                        back = parent[to]
                        after = match[back]
                        match[to], match[back] = back, to
                        to = after
                    return
                used[match[to]] = True
                queue.append(match[to])
