"""The ratings page: per variant, over the finished matches of the tables this phone joined."""

import re

from tests.conftest import hand_form, new_match, post_hand
from tests.players.links import unlinked
from tests.views.test_variants import start


def won_match(client, names=("Ann", "Bob", "Cy", "Dee")):
    """A Nanking match to 1000 won by seats 0 and 2 (four double victories with a Tichu)."""
    url = new_match(client, list(names))
    for _ in range(4):
        assert post_hand(client, url, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    return url


def ranked_names(page):
    page = unlinked(page)
    table = page[page.index('<table class="stat-table ratings">'):]
    table = table[:table.index("</table>")]
    return re.findall(r'<th scope="row"><span class="rank">\d+\.</span> ([^<]+)<', table)


def test_winners_rank_above_losers_and_the_page_explains(client):
    won_match(client)
    r = client.get("/stats/ratings")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    names = ranked_names(page)
    assert set(names[:2]) == {"Ann", "Cy"} and set(names[2:]) == {"Bob", "Dee"}
    assert "What the numbers mean" in page and "Everyone starts at 1,000" in page
    assert page.count('<svg class="spark"') == 4
    assert 'href="/stats/ratings"' in client.get("/stats").get_data(as_text=True)


def test_an_unfinished_match_is_not_rated(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
    page = client.get("/stats/ratings").get_data(as_text=True)
    assert "Finish a match to see ratings here." in page and "<table" not in page


def test_a_correction_changes_the_ratings(client):
    url = won_match(client)
    won_match(client)
    before = client.get("/stats/ratings").get_data(as_text=True)
    # the first match's last hand corrected: it now goes on, unfinished, and is not rated
    r = client.post(url + "/hands/4/edit", data=hand_form([1, 3], a=None) | {"version": "1"})
    assert r.status_code == 303, r.get_data(as_text=True)
    after = client.get("/stats/ratings").get_data(as_text=True)
    assert "2 matches" in before and "1 match<" in after and before != after


def test_only_the_tables_this_phone_joined(app, client):
    won_match(client)
    stranger = app.test_client()
    page = stranger.get("/stats/ratings").get_data(as_text=True)
    assert "Ann" not in page and "Finish a match" in page


def test_grand_seigneur_counts_its_hands_and_threechu_never_the_dummy(client):
    url = start(client, "seigneur", ["G1", "G2", "G3", "G4", "G5"])
    post_hand(client, url, {f"place_{i + 1}": str(s) for i, s in enumerate([4, 3, 2, 1])})
    page = client.get("/stats/ratings").get_data(as_text=True)
    assert ranked_names(page) == ["G5", "G4", "G3", "G2", "G1"]
    three = start(client, "threechu", ["Ann", "Bob", "Cy"], length="hands", hands="3")
    for _ in range(3):
        r = post_hand(client, three, hand_form([0, 1], a=60))
        assert r.status_code == 303, r.get_data(as_text=True)
    page = client.get("/stats/ratings").get_data(as_text=True)
    assert "Threechu" in page and "Dummy" not in page


def test_german(client):
    won_match(client)
    client.set_cookie("lang", "de")
    page = client.get("/stats/ratings").get_data(as_text=True)
    assert "Wertungen" in page and "Was die Zahlen bedeuten" in page and "4 Partien" not in page


def test_one_table_at_a_time_or_all_together(app, client):
    """Ratings over every table this phone joined (a name is one player across them), or
    over one of them, chosen at the top of the page."""
    from tichu_scorer.extensions import db
    from tichu_scorer.models import Group
    won_match(client)  # at Ann's table: Ann and Cy win
    assert client.post("/tables/new", data={"name": "Club"}).status_code == 303
    with app.app_context():
        club = db.session.query(Group).filter_by(name="Club").one().key
    data = {f"seat_{i}": n for i, n in enumerate(("Eve", "Ann", "Fay", "Gus"))}
    url = client.post("/matches/new", data=data | {"target": "1000", "table": club}
                      ).headers["Location"]
    for _ in range(4):  # Eve and Fay win; Ann loses at this table
        assert post_hand(client, url, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    everywhere = client.get("/stats/ratings").get_data(as_text=True)
    assert f'data-table="{club}"' in everywhere and "All tables" in everywhere
    assert len(ranked_names(everywhere)) == 7  # Ann once, over both tables
    at_club = client.get(f"/stats/ratings?table={club}").get_data(as_text=True)
    assert set(ranked_names(at_club)) == {"Eve", "Fay", "Ann", "Gus"}
    assert set(ranked_names(at_club)[2:]) == {"Ann", "Gus"}
    # a table this phone did not join is no choice: every table's ratings, as without one
    assert ranked_names(client.get("/stats/ratings?table=nope").get_data(as_text=True)) == \
        ranked_names(everywhere)


def ratings_of(page):
    """Each row's name, rating and change, as shown."""
    page = unlinked(page)
    return re.findall(r'<span class="rank">\d+\.</span> ([^<]+)<.*?<td class="rating">([^<]+)'
                      r'<span class="change[^"]*">([^<]+)</span>', page, re.S)


def test_a_scale_that_starts_where_the_page_says_with_one_minus_sign(client):
    """Losers fall below the stated start, not below 0; every minus is U+2212; the changes
    carry their sign; a rating of fewer than five matches says it is provisional."""
    won_match(client)
    page = client.get("/stats/ratings").get_data(as_text=True)
    rows = dict((name, (rating, change)) for name, rating, change in ratings_of(page))
    assert set(rows) == {"Ann", "Bob", "Cy", "Dee"}
    for name in ("Ann", "Cy"):
        rating, change = rows[name]
        assert int(rating.replace(",", "")) > 1000 and change.startswith("+")
    for name in ("Bob", "Dee"):
        rating, change = rows[name]
        assert 0 < int(rating.replace(",", "")) < 1000 and change.startswith("\u2212")
    assert "-" not in "".join(r + c for r, c in rows.values())
    assert "Everyone starts at a skill of 1,500 ± 167" in page
    assert page.count("data-provisional") == 4 and "fewer than 5 matches is provisional" in page


def test_german_numbers_group_with_a_point(client):
    won_match(client)
    for _ in range(5):
        won_match(client)
    client.set_cookie("lang", "de")
    page = client.get("/stats/ratings").get_data(as_text=True)
    rows = ratings_of(page)
    assert rows and all("." in rating and "," not in rating for _n, rating, _c in rows[:2])
    assert "data-provisional" not in page  # six matches each
    assert "1.500 ± 167" in page and "vorläufig" in page


def test_the_ratings_kept_outlive_a_match_begun_and_its_hands(client, monkeypatch):
    """The checksum counts only rated matches: a new match and its hands before its end
    leave the kept ratings (which its page's chances read); its end rates afresh."""
    from tichu_scorer.views import ratings as view

    read = []
    original = view.outcomes
    monkeypatch.setattr(view, "outcomes", lambda groups: read.append(1) or original(groups))
    won_match(client)
    client.get("/stats/ratings")
    assert len(read) == 1
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    client.get("/stats/ratings")
    assert len(read) == 1
    for _ in range(3):
        assert post_hand(client, url, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    assert "2 matches" in client.get("/stats/ratings").get_data(as_text=True)
    assert len(read) == 2
