"""The per-process caches: bounded maps that, when full, drop the entry used longest ago
(least recently used), one per app and name, shared by the app's threads.

>>> kept = LRU(2)
>>> kept.put("a", 1); kept.put("b", 2); kept.get("a")
1
>>> kept.put("c", 3)  # full: "b", used longest ago, goes; "a" was read since
>>> sorted(kept.keys())
['a', 'c']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from cachetools import LRUCache
from flask import current_app

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_CREATING = threading.Lock()


class LRU(Generic[K, V]):
    """At most `maxsize` entries; reading or writing an entry makes it the most recently
    used. Each call holds the cache's lock; `lock` (re-entrant) lets a caller make several
    calls one step."""

    def __init__(self, maxsize: int) -> None:
        self._entries: LRUCache[K, V] = LRUCache(maxsize)
        self.lock = threading.RLock()

    @property
    def maxsize(self) -> int:
        return int(self._entries.maxsize)

    def get(self, key: K) -> V | None:
        with self.lock:
            return self._entries.get(key)

    def put(self, key: K, value: V) -> None:
        with self.lock:
            self._entries[key] = value

    def pop(self, key: K) -> V | None:
        with self.lock:
            return self._entries.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self._entries.clear()

    def keys(self) -> list[K]:
        """The keys kept now (in no particular order); reading them uses none."""
        with self.lock:
            return list(self._entries.keys())

    def __contains__(self, key: object) -> bool:
        with self.lock:
            return key in self._entries

    def __len__(self) -> int:
        with self.lock:
            return len(self._entries)


def lru(name: str, maxsize: int) -> LRU[K, V]:
    """The current app's cache `name` (kept in `app.extensions[name]`), made on first use."""
    extensions = current_app.extensions
    found: LRU[K, V] | None = extensions.get(name)
    if found is None:
        with _CREATING:
            found = extensions.setdefault(name, LRU(maxsize))
    return found


# What a process made from files, by kind: the files' paths, sizes and times, and what was
# made. An app made again from the same files (the tests make thousands) does not read them
# all again; a file changed on disk is read again. A server's threads may ask at once.
_FROM_FILES: dict[str, tuple[Hashable, Any]] = {}
_MAKING = threading.Lock()


def files_seen(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    """Each file's path, size and time: what `made_from` compares."""
    return tuple((str(path), (stat := path.stat()).st_size, stat.st_mtime_ns)
                 for path in paths)


def made_from(kind: str, seen: Hashable, make: Callable[[], V]) -> V:
    """What `make` makes from the files `seen` (`files_seen`), made once in this process
    while they stay the same; the last one of each kind is kept."""
    with _MAKING:
        kept = _FROM_FILES.get(kind)
        if kept is None or kept[0] != seen:
            kept = _FROM_FILES[kind] = (seen, make())
        return cast(V, kept[1])
