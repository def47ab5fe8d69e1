"""House rules per match (RULES.md §10.1): chosen when a match starts (a preset or the
match's own set), named on its page, its sheet and its export ([R1]), honoured when its
hands are scored and saved ([R2]–[R4], [R6]–[R8]), by the hand form, by the phone's copy of
the core, by a rematch and by an import."""

import html
import json
import re

import pytest

from tests.conftest import NAMES, hand_form, match_id, post_hand
from tests.views.test_transfer import upload
from tichu_scorer.core import answers
from tichu_scorer.extensions import db
from tichu_scorer.models import Match
from tichu_scorer.scoring import RULE_BOOK
from tichu_scorer.scoring.state import MatchState


def start(client, **fields):
    data = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000"} | fields
    response = client.post("/matches/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def stored(app, url):
    with app.app_context():
        return db.session.get(Match, match_id(url))


def text(response):
    return html.unescape(response.get_data(as_text=True))


def words(response):
    """The page's words, without its markup, each space one."""
    return " ".join(re.sub(r"<[^>]+>", " ", text(response)).split())


def test_the_tournament_preset_plays_four_hands_by_victory_points(app, client):
    url = start(client, house="tournament")
    match = stored(app, url)
    assert (match.target, match.hand_limit, match.lead_by) == (None, 4, None)
    assert match.house_rules["grand_tichu"] is False and match.victory == [0, 0]
    assert ("House rules: No Grand Tichu R2 · Double victory worth 100 R3 · "
            "Victory points 2 / 1 / 3 R4") in words(client.get(url))
    form = text(client.get(url + "/hands/new"))
    assert 'value="grand"' not in form and 'value="tichu"' in form  # [R2]
    # a double victory is worth 100 ([R3]) and 3 victory points; then Team B wins three
    # hands 55 : 45, 2 victory points each: more victory points, fewer points
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303
    assert stored(app, url).totals == [100, 0]
    for _ in range(3):
        assert post_hand(client, url, hand_form([1, 0], a=45)).status_code == 303
    match = stored(app, url)
    assert match.totals == [235, 165] and match.victory == [3, 6]
    assert match.finished and match.winner_team == 1  # [R7] with [R4]: by victory points
    assert "Team B wins!" in text(client.get(url))


def test_a_grand_tichu_under_r2_is_refused_naming_the_rule(app, client):
    url = start(client, house="tournament")
    r = post_hand(client, url, hand_form([0, 1], calls={0: "grand"}, a=50))
    assert r.status_code == 422 and "R2" in text(r)
    assert stored(app, url).hand_count == 0


def test_the_club_preset_scores_to_a_target_with_victory_points(app, client):
    url = start(client, house="club")
    assert stored(app, url).target == 1000 and stored(app, url).hand_limit is None
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    match = stored(app, url)
    assert match.victory == [1, 1] and match.totals == [50, 50]
    page = text(client.get(url))
    assert page.count("1 victory point") == 2


def test_an_own_set_ends_at_a_lead_and_charges_no_wish(app, client):
    url = start(client, house="own", lead_by="200", no_wish="y")
    match = stored(app, url)
    assert match.lead_by == 200 and match.house_rules["wish_penalty"] is False
    assert 'name="wish_offender"' not in text(client.get(url + "/hands/new"))  # [R8]
    r = post_hand(client, url, hand_form([0, 1], a=50, wish=1))
    assert r.status_code == 422 and "R8" in text(r)
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # 200 : 0
    match = stored(app, url)
    assert match.finished and match.winner_team == 0  # [R6]


@pytest.mark.parametrize(("fields", "rule", "words"), [
    ({"lead_by": "75"}, "R6", "steps of 50"),
    ({"lead_by": "20000"}, "R6", "steps of 50"),
    ({"fixed_hands": "0"}, "R7", "1 to 99 hands"),
    ({"house": "nonsense"}, "R1", "Not a valid choice")])
def test_an_own_set_out_of_bounds_is_refused_naming_the_field_and_rule(client, fields, rule,
                                                                        words):
    data = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000", "house": "own"}
    r = client.post("/matches/new", data=data | fields)
    assert r.status_code == 422
    body = text(r)
    assert words in body and rule in body


def test_a_preset_ignores_the_boxes_of_an_own_set(app, client):
    url = start(client, house="book", no_grand="y", lead_by="300")
    match = stored(app, url)
    assert match.house_rules is None and match.lead_by is None
    assert "data-house-rules" not in text(client.get(url))


def test_the_sheet_the_export_and_an_import_carry_them(app, client):
    url = start(client, house="own", lead_by="500", double_100="y")
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # 100 : 0
    sheet = words(client.get(url + "/sheet"))
    assert "House rules: Double victory worth 100 (R3) · Ends at a lead of 500 (R6)" in sheet
    data = client.get("/export.json").get_json()
    [exported] = data["matches"]
    assert exported["house_rules"]["double_victory_points"] == 100
    assert exported["lead_by"] == 500
    with app.app_context():
        db.session.query(Match).delete()
        db.session.commit()
    assert upload(client, json.dumps(data).encode()).status_code == 303
    with app.app_context():
        [match] = db.session.query(Match).all()
        assert match.house.double_victory_points == 100 and match.lead_by == 500
        assert match.totals == [100, 0]


@pytest.mark.parametrize(("change", "words"), [
    ({"house_rules": {"grand_tichu": "no"}}, "house_rules.grand_tichu: must be true or false"),
    ({"lead_by": 75}, "The lead that ends the match must be 50 to 10000")])
def test_an_import_with_house_rules_it_cannot_read_is_refused(app, client, change, words):
    start(client)
    data = client.get("/export.json").get_json()
    data["matches"][0] |= change
    r = upload(client, json.dumps(data).encode())
    assert r.status_code == 422 and words in text(r)


def test_a_rematch_keeps_the_house_rules(app, client):
    url = start(client, house="tournament")
    for _ in range(4):
        assert post_hand(client, url, hand_form([1, 0], a=45)).status_code == 303
    r = client.post(url + "/rematch")
    assert r.status_code == 303
    again = stored(app, r.headers["Location"])
    assert again.house == stored(app, url).house and again.hand_limit == 4
    form = text(client.get(f"/matches/new?again={r.headers['Location'].rsplit('/', 1)[1]}"))
    assert re.search(r'<input checked id="house-\d" name="house" type="radio" '
                     r'value="tournament">', form)


def test_the_phone_scores_with_the_house_rules_from_the_page(app, client):
    """The facts the match page hands the phone carry the house rules: the phone's core
    refuses and scores as the server does."""
    url = start(client, house="tournament")
    match = stored(app, url)
    with app.test_request_context():
        from tichu_scorer.matches.hand_entry import stored_state
        with app.app_context():
            listed = stored_state(db.session.get(Match, match.id)).as_list()
    phone = MatchState.from_dict(json.loads(json.dumps(listed)))
    answer, status = answers.preview(phone, {"out_order": [0, 1], "calls": {"0": "grand"},
                                             "card_points": [50, None]})
    assert status == 422 and answer["errors"][0]["rule"] == "R2"
    answer, status = answers.preview(phone, {"out_order": [0, 2]})
    assert status == 200 and answer["scores"] == [100, 0]
    # a page kept from before house rules (seven facts) still reads
    assert MatchState.from_dict(listed[:7]).settings.house == RULE_BOOK


def settings_post(client, url, **fields):
    data = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000",
                                                            "house_shown": "1"} | fields
    return client.post(url + "/settings", data=data)


def test_a_change_of_house_rules_scores_the_hands_again_and_is_logged(app, client):
    url = start(client)
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # 200 : 0
    page = text(client.get(url + "/settings"))
    assert 'name="double_100"' in page and 'name="house_shown"' in page
    r = settings_post(client, url, double_100="y", victory_points="y")
    assert r.status_code == 303
    match = stored(app, url)
    assert match.totals == [100, 0] and match.victory == [3, 0]
    log = words(client.get(url + "/log"))
    assert ("house rules rule book → Double victory worth 100, Victory points 2 / 1 / 3"
            in log)
    # and back: the rule book again, no victory points kept
    assert settings_post(client, url).status_code == 303
    match = stored(app, url)
    assert match.totals == [200, 0] and match.victory is None and match.house_rules is None


def test_house_rules_that_recorded_hands_break_are_refused(app, client):
    url = start(client)
    assert post_hand(client, url, hand_form([0, 1], calls={1: "grand"}, a=50)).status_code == 303
    r = settings_post(client, url, no_grand="y")
    assert r.status_code == 422
    body = text(r)
    assert "Hand 1 has a Grand Tichu call" in body and "R2" in body
    assert stored(app, url).house_rules is None


def test_a_lead_set_afterwards_that_the_match_already_passed_is_refused(app, client):
    url = start(client)
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # 200 : 0
    assert post_hand(client, url, hand_form([1, 0], a=50)).status_code == 303
    r = settings_post(client, url, lead_by="100")
    assert r.status_code == 422 and stored(app, url).lead_by is None


def test_a_settings_post_without_the_house_fields_keeps_the_house_rules(app, client):
    url = start(client, house="club")
    data = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1500"}
    assert client.post(url + "/settings", data=data).status_code == 303
    match = stored(app, url)
    assert match.target == 1500 and match.house.victory_points


def test_the_referee_of_a_match_with_r5_says_the_dragon_trick_is_kept(client):
    url = start(client, house="own", dragon_kept="y")
    page = text(client.get(url))
    link = re.search(r'href="(/referee\?[^"]*)"', page).group(1)
    assert "dragon_kept=y" in link
    asked = client.get(link + "&trick=Aj&play=DR")  # the rest of the hand not given
    assert asked.status_code == 200
    assert ("If the Dragon is the last card, its trick is kept (R5); otherwise it goes to an "
            "opponent (S6).") in text(asked)
    # the rule book's referee says nothing of it; with more cards left the trick is given
    assert "data-gift" not in text(client.get("/referee?trick=Aj&play=DR"))
    given = client.get(link + "&trick=Aj&play=DR&hand=3s")
    assert "The Dragon’s trick goes to an opponent (S6)." in text(given)


def test_the_history_shows_a_matchs_victory_points(app, client):
    url = start(client, house="club")
    assert post_hand(client, url, hand_form([0, 1], a=70)).status_code == 303
    listed = text(client.get("/"))
    assert "data-victory>VP 2 : 0</span>" in listed
