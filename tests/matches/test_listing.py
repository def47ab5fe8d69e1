"""`matches.listing`: the match lists, a page at a time."""

from __future__ import annotations

from tests.matches.conftest import FOUR
from tichu_scorer.matches import creation, listing, roster


def test_pages_run_newest_first_and_link_older_and_newer(ctx):
    group = roster.create_group("T")
    other = roster.create_group("U")
    keys = [creation.create_match(group, FOUR, 1000).key for _ in range(5)]
    creation.create_match(other, FOUR, 1000)
    first = listing.history_page([group], size=2)
    assert [m.key for m in first.matches] == keys[:-3:-1] and first.newer is None
    second = listing.history_page([group], older=first.older, size=2)
    assert [m.key for m in second.matches] == [keys[2], keys[1]]
    back = listing.history_page([group], newer=second.newer, size=2)
    assert [m.key for m in back.matches] == [m.key for m in first.matches]
    assert listing.history_page([], size=2).matches == []
    assert listing.history_page([group], older="x" * 30, size=2).matches == first.matches


def test_history_and_match_ids_cover_only_these_tables(ctx):
    group, other = roster.create_group("T"), roster.create_group("U")
    mine = [creation.create_match(group, FOUR, 1000) for _ in range(3)]
    creation.create_match(other, FOUR, 1000)
    assert [m.id for m in listing.history([group])] == [m.id for m in reversed(mine)]
    assert listing.history([group], limit=1)[0].id == mine[-1].id
    assert listing.match_ids([group]) == [m.id for m in mine]
    assert listing.history([]) == []
