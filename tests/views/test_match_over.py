"""What a viewer and a finished match are told: a viewer is not asked to tap a button it
does not have; a finished match's hand page says once that the match is over and offers a
rematch, new seats or the match's hands instead of a form no hand can be saved from."""

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.views.test_variants import start
from tichu_scorer.extensions import db
from tichu_scorer.models import Match

OVER = "This match is over"


def viewer_of(app, url):
    with app.app_context():
        code = db.session.get(Match, match_id(url)).code
    viewer = app.test_client()
    assert viewer.get(f"/v/{code}").status_code == 200
    return viewer


@pytest.mark.parametrize("variant, names", [
    ("nanking", ["Ann", "Bob", "Cy", "Dee"]), ("threechu", ["Tom", "Uma", "Vic"]),
    ("seigneur", ["P1", "P2", "P3", "P4", "P5"]),
])
def test_a_viewer_of_a_match_without_hands_is_told_what_it_will_see(app, client, variant,
                                                                    names):
    url = start(client, variant, names)
    viewer = viewer_of(app, url)
    for phone, told, not_told in (
            (viewer, "they show here as soon as the first one is entered", "Add hand"),
            (client, "Add hand 1", "they show here")):
        page = phone.get(url).get_data(as_text=True)
        assert told in page and not_told not in page, phone


@pytest.fixture()
def over(client):
    url = new_match(client, target="custom", custom="100")
    assert post_hand(client, url, hand_form([0, 1], a=100)).status_code == 303
    assert "Team A wins!" in client.get(url).get_data(as_text=True)
    return url


def test_the_hand_page_of_a_finished_match_says_so_once_and_shows_no_form(client, over):
    r = client.get(over + "/hands/new")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and page.count(OVER) == 2  # the title and the heading
    assert "<h1>This match is over</h1>" in page and 'class="problem"' not in page
    assert 'id="hand-form"' not in page and 'name="place_1"' not in page
    assert f'action="{over}/rematch"' in page and f'href="/matches/new?again={over[9:]}"' in page
    assert "E1" in page and f'href="{over}"' in page


def test_a_hand_sent_to_a_finished_match_is_refused_once_without_a_form(app, client, over):
    r = post_hand(client, over, hand_form([1, 0], a=40) | {"number": "2"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and page.count(OVER) == 2
    assert "Your hand was not saved" in page and page.count("after the end of a match") == 1
    assert 'id="hand-form"' not in page and f'action="{over}/rematch"' in page
    with app.app_context():
        assert db.session.get(Match, match_id(over)).hand_count == 1


def test_a_script_still_gets_the_rule_as_data(client, over):
    r = post_hand(client, over, hand_form([1, 0], a=40) | {"number": "2"},
                  headers={"Accept": "application/json"})
    assert r.status_code == 422
    assert [(e["rule"], e["group"]) for e in r.get_json()["errors"]] == [("E1", "match")]


def test_the_rematch_offered_starts_the_next_match(client, over):
    r = client.post(over + "/rematch")
    assert r.status_code == 303 and r.headers["Location"] != over
    assert "Add hand 1" in client.get(r.headers["Location"]).get_data(as_text=True)


def test_a_viewer_gets_no_hand_page_of_a_finished_match(app, over):
    assert viewer_of(app, over).get(over + "/hands/new").status_code == 403
