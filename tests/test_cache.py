"""The per-process caches drop the entry used longest ago when full, not all of them (the
match pages); and threads sharing one cache leave it consistent."""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from tests.conftest import make_app
from tichu_scorer import cache as made
from tichu_scorer.cache import LRU, files_seen, lru, made_from
from tichu_scorer.matches import kept_pages


def test_the_entry_past_the_bound_evicts_exactly_the_least_recently_used():
    cache: LRU[int, str] = LRU(128)
    for n in range(128):
        cache.put(n, str(n))
    assert cache.get(0) == "0"  # read: now the most recently used
    cache.put(5, "five")  # written: likewise
    cache.put(128, "128")
    assert set(cache.keys()) == set(range(129)) - {1}
    cache.put(129, "129")
    assert set(cache.keys()) == set(range(130)) - {1, 2}
    assert cache.get(5) == "five" and len(cache) == 128


def test_each_app_has_its_own_cache_per_name(app, tmp_path):
    with app.app_context():
        pages = lru("tichu_test", 3)
        assert lru("tichu_test", 3) is pages and app.extensions["tichu_test"] is pages
    with make_app(tmp_path / "other").app_context():
        assert lru("tichu_test", 3) is not pages


def test_threads_sharing_a_cache_keep_it_consistent():
    """Many threads read, write and drop entries of one small cache at once: it never holds
    more than its bound, every entry read is one written under its key, and what is left
    is exactly what the cache says it holds. The interpreter switches threads far more
    often than usual, so that unguarded steps would interleave."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    cache: LRU[int, tuple[int, int]] = LRU(16)
    errors: list[str] = []
    start = threading.Barrier(8)

    def work(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(3000):
            key = rng.randrange(40)
            action = rng.random()
            if action < 0.5:
                cache.put(key, (key, seed))
            elif action < 0.9:
                found = cache.get(key)
                if found is not None and found[0] != key:
                    errors.append(f"{key}: {found}")
            else:
                cache.pop(key)
            if len(cache) > 16:
                errors.append(f"{len(cache)} entries")

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert errors == []
    keys = cache.keys()
    assert len(keys) == len(cache) <= 16
    assert all(cache.get(k) is not None and cache.get(k)[0] == k for k in keys)


def test_the_129th_match_page_evicts_only_the_least_recently_used(app):
    assert kept_pages.PAGES_KEPT == 128
    keys = [kept_pages.PageKey(f"m{n}", 1, "en", False, "matches/show.html")
            for n in range(129)]
    with app.test_request_context():
        for key in keys[:128]:
            kept_pages.keep_body(key, key.match, f"<p>{key.match}</p>")
        assert kept_pages.kept_body(keys[0]) is not None  # read again: recently used
        kept_pages.keep_body(keys[128], "m128", "<p>m128</p>")
        missing = [key.match for key in keys if kept_pages.kept_body(key) is None]
    assert missing == ["m1"]


def test_what_is_made_from_files_is_made_again_only_when_one_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(made, "_FROM_FILES", {})
    source = tmp_path / "file"
    source.write_text("one")
    read = source.read_text
    assert made_from("t", files_seen([source]), read) == "one"
    source.write_text("two")  # the same size, another time
    os.utime(source, ns=(1, 1))
    assert made_from("t", files_seen([source]), read) == "two"
    source.write_text("three")  # another size
    os.utime(source, ns=(1, 1))
    assert made_from("t", files_seen([source]), read) == "three"
    assert made_from("t", files_seen([source]), lambda: "not asked") == "three"
    assert list(made._FROM_FILES) == ["t"]  # the last of each kind


def test_what_many_threads_ask_for_at_once_is_made_once(tmp_path, monkeypatch):
    """A server's threads asking for the first page at once: one makes it, the others wait
    for it (and a change meanwhile never trips over another thread's)."""
    monkeypatch.setattr(made, "_FROM_FILES", {})
    source = tmp_path / "file"
    source.write_text("one")
    makes = []

    def make():
        makes.append(1)
        time.sleep(0.05)
        return source.read_text()
    start = threading.Barrier(8)

    def ask(_):
        start.wait()
        return made_from("t", files_seen([source]), make)
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(ask, range(8))) == ["one"] * 8
    assert len(makes) == 1
