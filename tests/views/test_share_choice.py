"""A match's Share page is one choice, watch or score, each one code, one link and one QR
code, and both land on the match they were shared from; the older links keep working."""

import re

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match
from tichu_scorer.tables import codes

QR = '<svg xmlns="http://www.w3.org/2000/svg"'


@pytest.fixture()
def url(client):
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 1], a=60)).status_code == 303
    return url


def stored(app, url):
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        return m.code, m.scorer_key, m.group.scorer_key


def shared(page):
    """What one choice of the Share page gives: its code, its link and how many QR codes."""
    code = re.search(r'data-code="([^"]+)"', page).group(1)
    link = re.search(r'<a href="([^"]+)"[^>]* data-share-link', page).group(1).replace("&amp;", "&")
    return code, link, page.count(QR)


def choices(page):
    nav = re.search(r'<nav class="share-choice".*?</nav>', page, re.S)
    return re.findall(r'data-choice="(\w+)"', nav.group(0)) if nav else []


def test_a_scorer_has_exactly_two_choices_each_one_code_one_link_one_qr(app, client, url):
    watch, score, _table_key = stored(app, url)
    page = client.get(url + "/share").get_data(as_text=True)
    assert choices(page) == ["watch", "score"]
    assert re.search(r'aria-current="page" data-choice="watch"', page)
    assert shared(page) == (watch, f"http://localhost/v/{watch}", 1)
    assert f">{codes.shown(watch)}<" in page and score not in page
    page = client.get(url + "/share?to=score").get_data(as_text=True)
    assert choices(page) == ["watch", "score"]
    assert re.search(r'aria-current="page" data-choice="score"', page)
    assert shared(page) == (score, f"http://localhost/join?code={score}", 1)
    assert len(score) == codes.SCORE_LENGTH and f">{codes.shown(score)}<" in page
    assert watch not in page and "/v/" not in page


def test_the_score_link_and_code_join_the_table_and_land_on_the_match(app, client, url):
    _watch, score, _table_key = stored(app, url)
    link = shared(client.get(url + "/share?to=score").get_data(as_text=True))[1]
    phone = app.test_client()
    assert phone.get(url).status_code == 404
    r = phone.get(link.removeprefix("http://localhost"))
    assert r.status_code == 303 and r.headers["Location"] == url
    page = phone.get(url).get_data(as_text=True)
    assert "This phone can now enter hands at" in page and "Add hand 2" in page
    assert post_hand(phone, url, hand_form([1, 0], a=40)).status_code == 303
    other = new_match(client, ["Eve", "Fay", "Gus", "Hal"])  # every match of the table
    assert post_hand(phone, other, hand_form([0, 1], a=50)).status_code == 303
    typed = app.test_client()  # the code as it is shown, typed in small letters
    r = typed.get("/join", query_string={"code": codes.shown(score).lower()})
    assert r.status_code == 303 and r.headers["Location"] == url
    assert "Add hand 3" in typed.get(url).get_data(as_text=True)


def test_the_watch_link_and_code_land_on_the_match_read_only(app, client, url):
    watch, _score, _table_key = stored(app, url)
    link = shared(client.get(url + "/share").get_data(as_text=True))[1]
    phone = app.test_client()
    page = phone.get(link.removeprefix("http://localhost")).get_data(as_text=True)
    assert "Viewing only" in page and "Add hand" not in page and ">60<" in page
    assert post_hand(phone, url, hand_form([1, 0], a=40)).status_code == 403
    r = app.test_client().get("/join", query_string={"code": f"{watch[:4]}-{watch[4:]}"})
    assert r.status_code == 303 and r.headers["Location"] == f"/v/{watch}"


def test_a_viewer_shares_only_the_watch_choice(app, client, url):
    watch, score, _table_key = stored(app, url)
    viewer = app.test_client()
    assert viewer.get(f"/v/{watch}").status_code == 200
    assert f'href="{url}/share"' in viewer.get(url).get_data(as_text=True)
    for path in ("/share", "/share?to=score"):
        page = viewer.get(url + path).get_data(as_text=True)
        assert choices(page) == [] and score not in page and "/join?code" not in page
        assert shared(page) == (watch, f"http://localhost/v/{watch}", 1)
    assert app.test_client().get(url + "/share").status_code == 404  # a stranger


def test_the_old_links_keep_working(app, client, url):
    watch, _score, table_key = stored(app, url)
    scorer = app.test_client()  # the table's scorer link, as shared before: the table
    r = scorer.get("/join", query_string={"key": table_key})
    assert r.status_code == 303 and "/tables/" in r.headers["Location"]
    assert post_hand(scorer, url, hand_form([1, 0], a=40)).status_code == 303
    assert app.test_client().get(f"/v/{watch}").status_code == 200


def test_new_codes_end_the_score_codes(app, client, url):
    _watch, score, _table_key = stored(app, url)
    with app.app_context():
        group_key = db.session.execute(db.select(Group.key)).scalar_one()
    assert client.post(f"/tables/{group_key}/rotate").status_code == 303
    assert app.test_client().get("/join", query_string={"code": score}).status_code == 404
    renewed = stored(app, url)[1]
    assert renewed != score and codes.is_code(renewed, codes.SCORE_LENGTH)
    assert app.test_client().get("/join", query_string={"code": renewed}).status_code == 303


def test_a_score_code_opens_no_viewer_link(app, url):
    _watch, score, _table_key = stored(app, url)
    assert app.test_client().get(f"/v/{score}").status_code == 404
