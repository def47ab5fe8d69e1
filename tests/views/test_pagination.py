"""Match lists show a page at a time, newest first, with stable links to older and newer
pages; a page costs the same with many matches as with few."""

import re
from datetime import datetime

from sqlalchemy import update

from tests.conftest import new_match
from tests.test_queries import queries_for
from tichu_scorer.extensions import db
from tichu_scorer.matches import creation, writes
from tichu_scorer.models import Group, Match


def add_matches(app, count, same_start=False):
    """`count` more matches at the device's table (several starting in the same second)."""
    with app.test_request_context():
        group = db.session.execute(db.select(Group)).scalars().first()
        for i in range(count):
            creation.create_match(group, [f"P{i}", "Bob", "Cy", "Dee"], 1000)
        if same_start:
            with writes.writing():
                db.session.execute(update(Match).values(started_at=datetime(2026, 1, 1)))


def listed(page_html):
    return re.findall(r'</span> (P\d+|Ann) &amp;', page_html)


def link(page_html, rel):
    found = re.search(rf'rel="{rel}" href="([^"]+)"', page_html)
    return found.group(1).replace("&amp;", "&") if found else None


def walk(client, start):
    """Every page from `start` following the older links: the names listed on each."""
    pages, url = [], start
    while url:
        html = client.get(url).get_data(as_text=True)
        pages.append(listed(html))
        url = link(html, "next")
    return pages


def test_the_home_page_lists_twenty_matches_and_links_older_and_newer(app, client):
    new_match(client)
    add_matches(app, 44)
    pages = walk(client, "/")
    assert [len(p) for p in pages] == [20, 20, 5]
    names = [n for p in pages for n in p]
    assert names == [f"P{i}" for i in range(43, -1, -1)] + ["Ann"]  # newest first, once each
    second = client.get(link(client.get("/").get_data(as_text=True), "next")).get_data(
        as_text=True)
    newer = link(second, "prev")
    assert newer and listed(client.get(newer).get_data(as_text=True)) == pages[0]
    assert link(client.get("/").get_data(as_text=True), "prev") is None


def test_pages_are_stable_when_matches_start_in_the_same_second_or_arrive_meanwhile(
        app, client):
    new_match(client)
    add_matches(app, 29, same_start=True)
    first = client.get("/").get_data(as_text=True)
    older = link(first, "next")
    add_matches(app, 3)  # new matches go on the first page; the older page stays the same
    rest = walk(client, older)
    names = listed(first) + [n for p in rest for n in p]
    assert len(names) == len(set(names)) == 30


def test_a_table_page_lists_its_matches_a_page_at_a_time(app, client):
    new_match(client)
    add_matches(app, 24)
    with app.app_context():
        key = db.session.execute(db.select(Group.key)).scalar_one()
    pages = walk(client, f"/tables/{key}")
    assert [len(re.findall(r'class="match-item"', client.get(f"/tables/{key}").get_data(
        as_text=True)))] == [20]
    assert len(pages) == 2


def test_an_unknown_cursor_shows_the_first_page(app, client):
    new_match(client)
    assert "Ann" in client.get("/?older=nope").get_data(as_text=True)
    assert "Ann" in client.get("/?newer=" + "x" * 40).get_data(as_text=True)


def test_a_page_costs_the_same_queries_with_many_matches(app, client):
    new_match(client)
    add_matches(app, 5)
    few = len(queries_for(app, client, "/"))
    add_matches(app, 200)
    html = client.get("/").get_data(as_text=True)
    assert len(queries_for(app, client, "/")) == few
    assert len(queries_for(app, client, link(html, "next"))) <= few + 1  # the cursor's row
