"""The score sheet to print: the table, the date, the players, the hands in playing order."""

import re

from tests.conftest import hand_form, new_match, post_hand


def test_the_sheet_names_the_table_date_and_players_with_hands_in_order(client):
    url = new_match(client)
    for out, a in (([0, 1], 60), ([1, 0], 30), ([2, 3], 45)):
        assert post_hand(client, url, hand_form(out, a=a)).status_code == 303
    match = client.get(url).get_data(as_text=True)
    assert url + "/sheet" in match  # in the match page's More menu
    page = client.get(url + "/sheet").get_data(as_text=True)
    table = re.search(r'href="/tables/[^"]+">([^<]+)</a>', client.get("/").get_data(
        as_text=True)).group(1)
    assert f"<h1>{table}</h1>" in page
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', page)
    assert "Ann, Bob, Cy, Dee" in page
    assert re.findall(r'<tr><th scope="row">(\d+)</th>', page) == ["1", "2", "3"]
    assert re.findall(r'class="running">(-?\d+)<', page)[::2] == ["60", "90", "135"]
    assert 'src="/static/js/print.js' in page and "data-print hidden" in page


def test_a_stranger_sees_no_sheet(client, app):
    url = new_match(client)
    assert app.test_client().get(url + "/sheet").status_code == 404


def test_a_threechu_and_a_grand_seigneur_sheet(client):
    t3 = client.post("/matches/new", data={"variant": "threechu", "seat_0": "Tom",
                                          "seat_1": "Uma", "seat_2": "Vic",
                                          "length": "hands", "hands": "3"}).headers["Location"]
    post_hand(client, t3, hand_form([3, 1], {"3": "tichu"}, a=50))
    page = client.get(t3 + "/sheet").get_data(as_text=True)
    assert "Tom, Uma, Vic" in page and "Dummy" in page and "wide" in page
    gs = client.post("/matches/new", data={"variant": "seigneur", **{
        f"seat_{i}": f"G{i}" for i in range(5)}}).headers["Location"]
    post_hand(client, gs, {"place_1": "4", "place_2": "2", "place_3": "0", "place_4": "1"})
    page = client.get(gs + "/sheet").get_data(as_text=True)
    assert "G4 &gt; G2 &gt; G0 &gt; G1" in page
