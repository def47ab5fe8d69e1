"""The referee page through the test client: a GET form, so a verdict is a shareable link."""

import pytest

from tests.conftest import new_match


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
