"""[R9] in a match: its own calls, chosen when it starts ("blind = 400"), offered beside
Tichu and Grand Tichu on the hand form, scored like Tichu by the match state (stored as
their names, worth what the match's rules say), named on the match page, changed in its
settings (refused while a hand calls one that would go), and bad input refused with R9."""

import pytest

from tests.conftest import hand_form, post_hand
from tests.views.test_house_match import start, stored, text, words
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand


def test_a_match_with_its_own_call_scores_it_like_tichu(app, client):
    url = start(client, house="own", custom_calls="blind = 400, Small: 50")
    match = stored(app, url)
    assert match.house.custom_calls == (("blind", 400), ("Small", 50))
    assert "blind" in words(client.get(url))  # the house rules line names it
    form = text(client.get(url + "/hands/new"))
    assert 'value="blind"' in form and 'value="Small"' in form
    made = post_hand(client, url, hand_form([0, 1], calls={0: "blind"}, a=50))
    assert made.status_code == 303
    failed = post_hand(client, url, hand_form([0, 1], calls={1: "Small"}, a=50))
    assert failed.status_code == 303
    assert stored(app, url).totals == [50 + 400 + 50, 50 + 50 - 50]
    with app.app_context():
        assert db.session.execute(db.select(Hand.calls).order_by(Hand.number)).scalars(
        ).all() == [{"0": "blind"}, {"1": "Small"}]
    page = words(client.get(url))
    assert "blind ✓ made" in page and "Small ✗ failed" in page
    # a call the match does not have is refused, naming the rule
    other = post_hand(client, url, hand_form([0, 1], calls={2: "huge"}, a=50))
    assert other.status_code == 422


def test_a_call_in_use_cannot_be_taken_out_of_the_rules(app, client):
    url = start(client, house="own", custom_calls="blind = 400")
    assert post_hand(client, url, hand_form([0, 1], calls={0: "blind"}, a=50)).status_code == 303
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    refused = client.post(url + "/settings", data=names | {
        "target": "1000", "house_shown": "1", "custom_calls": ""})
    assert refused.status_code == 422 and "R9" in text(refused)
    assert stored(app, url).house.custom_calls == (("blind", 400),)
    changed = client.post(url + "/settings", data=names | {
        "target": "1000", "house_shown": "1", "custom_calls": "blind = 500"})
    assert changed.status_code == 303
    assert stored(app, url).totals == [50 + 500, 50]  # re-scored by the new worth


@pytest.mark.parametrize("typed", ["blind", "blind = 401", "tichu = 300", "= 400",
                                   "blind = lots", "a = 100, b = 100, c = 100, d = 100, "
                                   "e = 100, f = 100, g = 100, h = 100, i = 100"])
def test_own_calls_that_cannot_be_played_are_refused_with_r9(client, typed):
    data = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    response = client.post("/matches/new", data=data | {
        "target": "1000", "house": "own", "custom_calls": typed})
    assert response.status_code == 422
    assert "R9" in text(response)

