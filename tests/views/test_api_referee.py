"""POST /api/v1/referee/check exactly as docs/API.md."""

import pytest

URL = "/api/v1/referee/check"


def check(client, body):
    return client.post(URL, json=body)


def test_phoenix_on_dragon(client):
    r = check(client, {"trick": [{"cards": ["DR"]}], "play": ["PH"]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["legal"] is False and body["rule"] == "S4"
    assert body["combination"] == {"kind": "single", "rank": "1.5", "length": 1}
    assert "fulfilling_play" not in body


def test_missed_wish_names_the_fulfilling_play(client):
    r = check(client, {"trick": [{"cards": ["4j"], "seat": 1}], "play": [],
                       "hand": ["8s", "Kj", "2p"], "wish": "8", "seat": 2})
    body = r.get_json()
    assert (body["legal"], body["rule"], body["fulfilling_play"]) == (False, "W2", ["8s"])
    assert body["combination"]["kind"] == "pass"


def test_phoenix_reading_reported(client):
    r = check(client, {"trick": [{"cards": ["3j", "4s", "5p", "6t", "7j"]}],
                       "play": ["4j", "5s", "PH", "7t", "8t"]})
    assert r.get_json()["combination"] == {"kind": "straight", "rank": "8", "length": 5,
                                           "phoenix_as": "6"}


def test_phoenix_single_value_on_the_table(client):
    r = check(client, {"trick": [{"cards": ["8j"]}], "play": ["PH"]})
    assert r.get_json()["combination"]["rank"] == "8.5"


def test_notation_is_forgiving(client):
    r = check(client, {"trick": [{"cards": ["ts"]}], "play": [" j t "], "wish": "q"})
    assert r.status_code == 200 and r.get_json()["legal"] is True


def test_seigneur_second_dragon_beats_the_first(client):
    r = check(client, {"variant": "seigneur", "decks": 2, "trick": [{"cards": ["DR"]}],
                       "play": ["DR"]})
    assert r.get_json()["legal"] is True
    r = check(client, {"variant": "seigneur", "decks": 2,
                       "play": ["5j", "5j", "5s", "5p"]})
    assert r.get_json()["legal"] is False  # four of a kind needs four different suits


@pytest.mark.parametrize("body, field", [
    # one the engine refuses, one answers.judge refuses itself; every question that cannot
    # be judged: tests/core/test_answers.py
    ({"play": ["5x"]}, "play"),
    ({"play": [], "trick": {}}, "trick"),
])
def test_bad_questions_are_400_naming_the_field(client, body, field):
    r = check(client, body)
    assert r.status_code == 400
    assert r.get_json()["field"] == field and r.get_json()["error"]


@pytest.mark.parametrize("raw", [b"nope"])  # every one: tests/views/test_jsonbody.py
def test_malformed_json_is_400(client, raw):
    r = client.post(URL, data=raw, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["field"] == "body"


@pytest.mark.parametrize("body, legal, rule", [
    ({"variant": "seigneur", "trick": [{"cards": ["DR"]}], "play": ["DR"]}, True, "S5"),  # GS3
    ({"trick": [{"cards": ["DR"]}], "play": ["DR"]}, None, None),  # one deck: one Dragon
    ({"variant": "seigneur", "play": ["9j", "9s", "9p", "9t"]}, True, "B4"),
    ({"variant": "seigneur", "play": ["9j", "9j", "9p", "9t"]}, False, "C7"),  # GS3
    ({"variant": "seigneur", "decks": 2, "play": ["5j", "5j"]}, True, "C2"),  # GS2
    ({"variant": "seigneur", "decks": 1, "play": ["5j", "5j"]}, None, None),
])
def test_seigneur_decks(client, body, legal, rule):
    r = check(client, body)
    if legal is None:
        assert r.status_code == 400
    else:
        assert (r.get_json()["legal"], r.get_json()["rule"]) == (legal, rule)


def test_threechu_dummy_owes_no_wish(client):
    body = {"variant": "threechu", "dummy": True, "trick": [{"cards": ["4j"]}], "play": [],
            "hand": ["8s", "Kj"], "wish": "8"}
    assert check(client, body).get_json()["rule"] == "T3.3"
    body["variant"] = "nanking"
    assert check(client, body).status_code == 400


def test_the_reason_names_cards_the_card_lists_keep_notation(client):
    """docs/API.md: `reason` is sentences a player reads at the table (cards by name, in the
    reader's language); card lists such as `fulfilling_play` stay in notation."""
    body = {"trick": [{"cards": ["4j"]}], "play": [], "hand": ["8s", "Kj"], "wish": "8"}
    answer = check(client, body).get_json()
    assert "could fulfil the wish by playing Sword 8." in answer["reason"]
    assert "8s" not in answer["reason"] and answer["fulfilling_play"] == ["8s"]
    german = client.post(URL, json=body, headers={"Accept-Language": "de"}).get_json()
    assert "mit Schwert 8 erfüllen" in german["reason"] and german["fulfilling_play"] == ["8s"]


@pytest.mark.parametrize("body, english, german", [
    ({"play": ["5x"]}, "'5x' is not a card", "'5x' ist keine Karte"),
    ({"play": ["5j"], "trick": [{"cards": ["5j"]}]}, "Jade 5 is both in the hand",
     "Jade 5 ist in der Hand und auf dem Tisch"),
    ({"play": ["6j"], "variant": "poker"}, "variant must be one of", "variant muss eines von"),
    ([], "The body must be a JSON object.", "Der Inhalt muss ein JSON-Objekt sein."),
    ({"play": [], "trick": {}}, 'trick must be a list of {"cards": [...]} items',
     'trick muss eine Liste von {"cards": [...]}-Einträgen sein'),
    ({"play": [], "decks": True}, "decks must be 1 or 2.", "decks muss 1 oder 2 sein."),
])
def test_refusals_in_the_readers_language(client, body, english, german):
    r = check(client, body)
    assert r.status_code == 400 and english in r.get_json()["error"]
    r = client.post(URL, json=body, headers={"Accept-Language": "de"})
    assert r.status_code == 400 and german in r.get_json()["error"]
