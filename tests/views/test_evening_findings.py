"""The evening's smaller findings (issue 36, item 8), each where it could come back: the
hand's preview gives the victory points of the hand, a tournament counts a table as played
from its first hand and states how it breaks ties, a phone named "Bob's phone" is not
"Bob's phone's phone", and German says Runde for a hand and never Werten or Geber."""

import html
import re
from pathlib import Path

from babel.messages.pofile import read_po

from tests.conftest import hand_form, new_match, post_hand
from tests.views.test_house_match import start
from tests.views.test_tournaments import play, tables
from tests.views.test_tournaments import start as start_tournament

PO = Path(__file__).resolve().parents[2] / "tichu_scorer/translations/de/LC_MESSAGES/messages.po"


def test_the_preview_gives_the_victory_points_of_the_hand(client):
    url = start(client, house="tournament")  # [R4]: 2 / 1 / 3 victory points
    assert post_hand(client, url, hand_form([1, 0], a=45)).status_code == 303
    double = client.post(url + "/hands/preview", json={"out_order": [0, 2], "calls": {},
                                                       "card_points": [None, None]})
    assert double.status_code == 200, double.get_json()
    body = double.get_json()
    assert body["victory_hand"] == [3, 0] and body["victory"] == [3, 2]
    form = html.unescape(client.get(url + "/hands/new").get_data(as_text=True))
    assert 'data-victory="{n} VP → {total}"' in form
    plain = new_match(client)
    preview = client.post(plain + "/hands/preview", json={
        "out_order": [0, 2], "calls": {}, "card_points": [None, None]}).get_json()
    assert "victory_hand" not in preview  # a match without victory points says none
    assert "data-victory" not in client.get(plain + "/hands/new").get_data(as_text=True)


def test_a_tournament_counts_a_table_from_its_first_hand_and_says_how_ties_fall(client):
    url = start_tournament(client, ["Ann", "Bob", "Cy", "Dee"], rounds=1, hands=2)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    played = re.findall(r'<tr data-name="[^"]+">.*?<td>(\d+)</td></tr>', page, re.S)
    assert played == ["0"] * 4  # drawn, not yet played
    assert "then the result between the players still equal (TN1)" in page
    play(client, tables(client, url, 1)[0], 1)
    page = client.get(url).get_data(as_text=True)
    assert re.findall(r'<tr data-name="[^"]+">.*?<td>(\d+)</td></tr>', page, re.S) == ["1"] * 4
    pairs = start_tournament(client, ["Ann & Bob", "Cy & Dee"], kind="pairs")
    assert "then points difference" in client.get(pairs).get_data(as_text=True)


def test_a_phone_named_as_a_phone_keeps_its_owner(client):
    client.post("/phone", data={"name": "Bob's phone"})
    assert client.get_cookie("phone").value == "Bob"
    page = html.unescape(client.get("/").get_data(as_text=True))
    assert "This phone is now Bob's phone." in page and "phone's phone" not in page


def test_german_says_runde_for_a_hand_and_neither_werten_nor_geber():
    with PO.open("rb") as po:
        catalog = read_po(po)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for said in strings:
            assert not re.search(r"\b[Ww]erten\b|\bGeber(in)?\b", said), (ids[0], said)
            if re.search(r"\bhands?\b", ids[0]) and not re.search(
                    r"in (the )?hand|the hand (holds|could)|hand (holds|can hold)|rest of "
                    r"the hand|given hand|Hand$|dummy hand|cards in hand", ids[0]):
                assert not re.search(r"\bHände|\bHänden\b", said), (ids[0], said)
