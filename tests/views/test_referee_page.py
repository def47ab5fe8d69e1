"""The referee page through the test client: a GET form, so a verdict is a shareable link."""

import html
import json
import re

import pytest

from tests.conftest import new_match
from tichu_scorer.engine.cards import DECK, parse_card
from tichu_scorer.engine.questions import deck_of
from tichu_scorer.forms import PASS_WORDS


def test_empty_form(client):
    r = client.get("/referee")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "Check a play" in page and 'data-card="PH"' in page and 'data-card="10t"' in page
    assert page.count('class="pick ') == 56


@pytest.mark.parametrize("query, word, rule, extra", [
    ({"trick": "DR", "play": "PH"}, "✗ Not legal", "S4", "Phoenix"),
    ({"trick": "", "play": "3j 3s 3p 3t PH"}, "✗ Not legal", "S7", "full house"),
    ({"trick": "DOG", "play": "5j 5s 5p 5t", "out_of_turn": "y"}, "✗ Not legal", "B5", "Dog"),
    ({"trick": "4j", "play": "", "hand": "8s Kj", "wish": "8"}, "✗ Not legal", "W2",
     "Would have fulfilled the wish"),
    ({"trick": "3j 4s 5p 6t 7j", "play": "4j 5s PH 7t 8t"}, "✓ Legal", "C6",
     "straight 4–8, Phoenix as 6"),
    ({"trick": "8j\nPH", "play": "9s"}, "✓ Legal", "S4", "8½"),
    ({"trick": "Aj\npass\nPH", "play": "DR"}, "✓ Legal", "S5", "Dragon"),
])
def test_disputes(client, query, word, rule, extra):
    r = client.get("/referee", query_string=query)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert word in page and f'href="/rules#{rule}">Rule {rule}' in page and extra in page


@pytest.mark.parametrize("query, message", [
    ({"play": "5x"}, "not a card"),
    ({"trick": "5j\n4j", "play": "6j"}, "could not have been played"),
    ({"play": "5j", "trick": "5j"}, "both in the hand and on the table"),
    ({"play": "5j", "wish": "Z"}, "valid choice"),
    ({"play": "5j" * 300}, "Field cannot be longer"),
])
def test_impossible_questions_explained(client, query, message):
    r = client.get("/referee", query_string=query)
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "Can't judge that" in page and message in page


def test_linked_from_every_match(client):
    url = new_match(client)
    key = url.rsplit("/", 1)[1]
    page = client.get(url).get_data(as_text=True)
    assert f'href="/referee?match={key}">Check a play' in page
    back = client.get(f"/referee?match={key}").get_data(as_text=True)
    assert f'href="/matches/{key}">Back to match' in back
    # a stranger asking about that match gets the referee, not the match
    stranger = client.application.test_client().get(f"/referee?match={key}")
    assert stranger.status_code == 200 and "Back to match" not in stranger.get_data(as_text=True)


def _picker(client, query=None):
    page = client.get("/referee", query_string=query or {}).get_data(as_text=True)
    found = re.search(r"<div class=\"picker[^\"]*\"[^>]* data-picker='([^']*)'>", page)
    assert found, "the page gives the card picker its data"
    return json.loads(html.unescape(found.group(1)))


def test_the_picker_gets_its_deck_from_the_server(client):
    """[GS2]: the Dog is in no Grand Seigneur deck; the second deck doubles every card but
    the Mah Jong. The page's decks are the engine's, so the picker cannot offer a card the
    server refuses."""
    decks = _picker(client)["decks"]
    assert set(decks) == {"nanking-1", "nanking-2", "seigneur-1", "seigneur-2"}
    assert decks["nanking-2"] == {repr(c): 1 for c in DECK}
    for key in ("seigneur-1", "seigneur-2"):
        assert "DOG" not in decks[key] and decks[key]["MJ"] == 1
    assert decks["seigneur-2"]["5j"] == 2 and decks["seigneur-1"]["5j"] == 1
    for key, deck in decks.items():
        variant, count = key.split("-")
        assert deck == {repr(c): n for c, n in deck_of(variant, int(count)).items()}
    r = client.get("/referee", query_string={"play": "DOG", "variant": "seigneur"})
    assert r.status_code == 400 and "not in this game" in r.get_data(as_text=True)


def test_the_picker_gets_its_notation_from_the_server(client):
    """The picker's faces, spellings and pass words are the server's; a word it does not
    know stays as typed. "PaSs" is not a pass on either side (issue 13)."""
    data = _picker(client)
    assert set(data["cards"]) == {repr(c) for c in DECK}
    assert data["cards"]["10s"] == {"card": "10s", "label": "10", "suit": "s",
                                    "name": "Sword 10"}
    assert data["cards"]["PH"]["suit"] == "" and data["cards"]["PH"]["name"] == "Phoenix"
    for word, card in data["spellings"].items():
        assert repr(parse_card(word)) == card
    assert data["pass"] == list(PASS_WORDS) and "PaSs" not in data["pass"]
    r = client.get("/referee", query_string={"trick": "Aj\nPaSs", "play": "DR"})
    assert r.status_code == 400 and "not a card" in r.get_data(as_text=True)
    r = client.get("/referee", query_string={"trick": "Aj\nPass", "play": "DR"})
    assert r.status_code == 200 and "✓ Legal" in r.get_data(as_text=True)
