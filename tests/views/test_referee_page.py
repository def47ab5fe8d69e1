"""The referee page through the test client: a GET form, so a verdict is a shareable link."""

import html
import json
import re
from pathlib import Path

import pytest

from tests.conftest import new_match
from tichu_scorer.core.answers import PASS_WORDS
from tichu_scorer.engine.cards import DECK, parse_card
from tichu_scorer.engine.questions import deck_of


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
    assert word in page and f'href="/rules#{rule}">Rule {rule}' in page
    assert extra in _text(page)


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
    strange = stranger.get_data(as_text=True)
    assert stranger.status_code == 200 and f'href="/matches/{key}"' not in strange


def _picker(client, query=None):
    page = client.get("/referee", query_string=query or {}).get_data(as_text=True)
    found = re.search(r"<form [^>]*id=\"ref-form\"[^>]* data-picker='([^']*)'", page)
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
                                    "name": "Sword 10", "rank": 10}
    assert data["suits"] == ["j", "s", "p", "t"] and data["cards"]["PH"]["rank"] == 0
    assert data["cards"]["PH"]["suit"] == "" and data["cards"]["PH"]["name"] == "Phoenix"
    for word, card in data["spellings"].items():
        assert repr(parse_card(word)) == card
    assert data["pass"] == list(PASS_WORDS) and "PaSs" not in data["pass"]
    r = client.get("/referee", query_string={"trick": "Aj\nPaSs", "play": "DR"})
    assert r.status_code == 400 and "not a card" in r.get_data(as_text=True)
    r = client.get("/referee", query_string={"trick": "Aj\nPass", "play": "DR"})
    assert r.status_code == 200 and "✓ Legal" in r.get_data(as_text=True)


def _text(html_page: str, selector_id: str = "verdict") -> str:
    """The words of the section with this id, without tags."""
    found = re.search(rf'<section [^>]*id="{selector_id}".*?</section>', html_page, re.S)
    assert found, f"no #{selector_id}"
    inline = re.sub(r"</?span[^>]*>", "", found.group(0))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", inline)).split())


# A card in notation; "8s" is also the plural of a rank ("pair of 8s", "four 5s", "the
# wish for 8s"), which a sentence may say.
NOTATION = re.compile(r"\b(?:[2-9]|10|[JQKA])[jpt]\b|\b(?:MJ|DOG|PH|DR)\b"
                      r"|(?<!of )(?<!four )(?<!for )(?<!over )\b(?:[2-9]|10|[JQKA])s\b")


@pytest.mark.parametrize("query, status, said", [
    ({"trick": "4j", "play": "", "hand": "8s Kj", "wish": "8"}, 200,
     "could fulfil the wish by playing Sword 8"),
    ({"trick": "4j", "play": "Kj", "hand": "8s 8t", "wish": "8"}, 200,
     "the hand could play Sword 8"),
    ({"play": "5j 5s 8p 8t"}, 200,
     "Jade 5, Sword 5, Pagoda 8 and Star 8 are not a combination"),
    ({"play": "3j 3s 3p 3t PH"}, 200, "Star 3 and Phoenix are not a full house"),
    ({"play": "DOG 5j"}, 200, "Dog and Jade 5 are not a combination"),
    ({"play": "2j", "out_of_turn": "y", "trick": "Aj"}, 200, "this play is a single 2"),
    ({"play": "5j", "trick": "5j"}, 400, "Jade 5 is both in the hand and on the table"),
    ({"trick": "5j\n4j", "play": "6j"}, 400,
     "Play 2 on the table (Jade 4) could not have been played on the single 5"),
    ({"trick": "5j 8s", "play": "6j"}, 400, "Play 1 on the table (Jade 5 and Sword 8) is not"),
    ({"play": "5j 5j", "variant": "seigneur", "decks": "1"}, 400,
     "Jade 5 appears twice; the deck has only one"),
    ({"play": "5j 5j 5j", "variant": "seigneur", "decks": "2"}, 400,
     "Jade 5 appears more often than the 2 decks hold it"),
    ({"play": "DOG", "variant": "seigneur"}, 400, "Dog is not in this game's deck"),
])
def test_sentences_name_cards_never_notation(client, query, status, said):
    """Issue 10: "could fulfil the wish by playing 8s" reads "… playing Sword 8"; the
    refusals name the cards the server read too."""
    r = client.get("/referee", query_string=query)
    assert r.status_code == status
    text = _text(r.get_data(as_text=True))
    assert said in text
    assert not NOTATION.search(text), text


def test_a_run_of_ranks_stays_on_one_line(client):
    page = client.get("/referee", query_string={"trick": "3j 4s 5p 6t 7j",
                                                "play": "4j 5s PH 7t 8t"}).get_data(as_text=True)
    assert '<span class="run">3–7</span>' in page and '<span class="run">4–8</span>' in page


def test_a_word_that_is_no_card_is_quoted_as_typed(client):
    r = client.get("/referee", query_string={"play": "5j 5x"})
    assert r.status_code == 400
    assert "'5x' is not a card: the suit letter must be j (Jade)" in _text(r.get_data(as_text=True))
    r = client.get("/referee", query_string={"play": "1j"})
    assert "'1j' is not a card: ranks are 2-10, J, Q, K, A." in _text(r.get_data(as_text=True))


def test_the_live_verdict_alone(client):
    """/referee/verdict: what the page shows as cards are tapped, judged once the play or the
    hand holds a card, else what to tap next; refusals are 400 naming the field."""
    r = client.get("/referee/verdict", query_string={"trick": "4j", "play": "",
                                                      "hand": "8s Kj", "wish": "8"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "<html" not in page and "<form" not in page
    assert "✗ Not legal" in page and 'href="/rules#W2"' in page
    assert 'class="chip suit-s" title="Sword 8"' in page  # the fulfilling play, drawn
    r = client.get("/referee/verdict", query_string={"trick": "4j", "play": ""})
    assert r.status_code == 200 and "Then the disputed play" in r.get_data(as_text=True)
    r = client.get("/referee/verdict")
    assert r.status_code == 200 and "Tap the cards on the table" in r.get_data(as_text=True)
    r = client.get("/referee/verdict", query_string={"trick": "5j\n4j", "play": "6j"})
    assert r.status_code == 400 and 'data-field="trick"' in r.get_data(as_text=True)
    r = client.get("/referee/verdict", query_string={"play": "5j", "wish": "Z"})
    assert r.status_code == 400 and 'data-field="wish"' in r.get_data(as_text=True)
    assert "Mah Jong wish in force: Not a valid choice" in _text(r.get_data(as_text=True))
    r = client.get("/referee/verdict", query_string={"play": "5j", "variant": "poker"})
    assert r.status_code == 400 and 'data-field="variant"' in r.get_data(as_text=True)
    assert r.headers["X-Referee-Verdict"] == "1"  # the page draws only this view's answers
    r = client.get("/referee/verdict?play=6j%00")
    assert r.status_code == 400 and "X-Referee-Verdict" not in r.headers


def test_the_page_draws_the_question_as_the_picker_shows_it(client):
    """The server draws the chips, the pressed keys with their slot's letter and the slot
    the picker fills, so that the script draws nothing at first paint."""
    page = client.get("/referee", query_string={"trick": "4j 5s\npass", "play": "PH Ts",
                                                "hand": "9s Kj"}).get_data(as_text=True)
    key = re.compile(r'<button type="button" class="pick[^"]*" data-card="([^"]+)"[^>]*'
                     r'aria-pressed="(true|false)"(?: data-at="([^"]*)")?')
    keys = {card: (pressed, at) for card, pressed, at in key.findall(page)}
    assert len(keys) == 56
    assert keys["4j"] == ("true", "T") and keys["PH"] == ("true", "P")
    assert keys["10s"] == ("true", "P")  # "Ts", read as the server reads it
    assert keys["Kj"] == ("true", "H") and keys["Aj"] == ("false", "")
    assert page.count('class="play-group"') == 2 and ">pass</span>" in page
    assert re.search(r'id="target-play" value="play" checked', page)
    empty = client.get("/referee").get_data(as_text=True)
    assert re.search(r'id="target-trick" value="trick" checked', empty)
    asked = client.get("/referee", query_string={"_target": "hand"}).get_data(as_text=True)
    assert re.search(r'id="target-hand" value="hand" checked', asked)
    seigneur = client.get("/referee", query_string={"variant": "seigneur"}).get_data(
        as_text=True)
    assert re.search(r'data-card="DOG"[^>]* hidden', seigneur)
    assert not re.search(r'data-card="DOG"[^>]* hidden', empty)


def test_two_copies_of_a_card_are_counted_on_its_key(client):
    page = client.get("/referee", query_string={"play": "5j 5j", "variant": "seigneur",
                                                "decks": "2"}).get_data(as_text=True)
    assert re.search(r'data-card="5j"[^>]*aria-pressed="true" data-at="P×2"', page)


def _english_pieces() -> set[str]:
    """The English words of every referee sentence: each message of the engine's referee,
    question, combination and card-name modules and of the referee's templates, cut at its
    placeholders; the pieces long enough to tell English from German, and not kept as they
    are by the German translation."""
    from babel.messages.extract import extract_from_file
    from babel.support import Translations

    root = Path(__file__).resolve().parents[2]
    german = Translations.load(str(root / "tichu_scorer" / "translations"), ["de"])
    files = [(root / "tichu_scorer" / "engine" / f"{name}.py", "python")
             for name in ("referee", "questions", "combos", "names")]
    files += [(path, "jinja2") for path in (root / "templates" / "referee").glob("*.html")]
    pieces = set()
    for path, method in files:
        for _line, message, _comments, _context in extract_from_file(method, str(path)):
            text = message[0] if isinstance(message, tuple) else message
            translated = german.gettext(text)
            if translated == text:  # no German at all: every piece of it would show
                translated = ""
            for piece in re.split(r"\{[^}]*\}|%\(\w+\)s", text):
                piece = piece.strip(" .,:;()–")
                if len(piece) >= 12 and " " in piece and piece not in translated:
                    pieces.add(piece)
    return pieces


def _questions():
    """Every dispute of the engine's tests as an API body, and questions it refuses."""
    from tests.engine.test_referee import DISPUTES

    for _rule, trick, play, hand, wish, options, _legal in DISPUTES:
        items = [{"cards": item[1], "seat": item[0]} if item and isinstance(item[0], int)
                 else {"cards": item} for item in trick]
        body = {"trick": items, "play": play, **options}
        if hand is not None:
            body["hand"] = hand
        if wish is not None:
            body["wish"] = wish
        yield body
    yield from ({"play": ["5j", "5j"]}, {"play": ["5x"]}, {"play": ["1j"]}, {"play": "5j"},
                {"play": ["5j"], "hand": ["6j"]}, {"play": ["5j"], "trick": [{"cards": ["5j"]}]},
                {"play": ["6j"], "trick": [{"cards": ["5j"]}, {"cards": ["4j"]}]},
                {"play": ["6j"], "trick": [{"cards": []}]},
                {"play": ["6j"], "trick": [{"cards": ["DOG"]}, {"cards": ["4j"]}]},
                {"play": ["6j"], "trick": [{"cards": ["5j", "8s"]}]},
                {"play": ["6j"], "trick": ["5j"]}, {"play": ["6j"], "trick": {"cards": []}},
                {"play": ["6j"], "trick": [{"cards": ["5j"], "seat": "x"}]},
                {"play": ["6j"], "wish": "Z"}, {"play": ["6j"], "out_of_turn": "yes"},
                {"play": ["6j"], "seat": "north"}, {"play": ["6j"], "seat": 40},
                {"play": ["6j"], "variant": "poker"}, {"play": ["6j"], "dummy": True},
                {"play": ["6j"], "variant": "seigneur", "decks": 3},
                {"play": ["6j"], "decks": 2}, {"play": ["DOG"], "variant": "seigneur"},
                {"play": ["5j"] * 3, "variant": "seigneur", "decks": 2},
                {"play": ["5j"], "trick": [{"cards": ["5j", "5j"]}], "variant": "seigneur",
                 "decks": 2},
                {"play": ["5j"] * 57}, {"trick": []},
                {"play": ["4j", "5s", "PH", "7t", "8t"], "phoenix_as": "9"}, [])


def _said(client, body, language: str) -> str:
    """What the API and the page say of `body` in `language`: reason, reading and error."""
    headers = {"Accept-Language": language}
    answer = client.post("/api/v1/referee/check", json=body, headers=headers).get_json()
    said = [answer.get(key) or "" for key in ("reason", "reading", "error")]
    if isinstance(body, dict) and isinstance(body.get("play"), list) and all(
            isinstance(t, dict) and "seat" not in t for t in body.get("trick", [])):
        query = {"play": " ".join(map(str, body["play"])),
                 "trick": "\n".join(" ".join(map(str, t["cards"])) or "pass"
                                    for t in body.get("trick", []) if isinstance(t, dict)),
                 "hand": " ".join(c for c in body.get("hand", []) if c not in body["play"]),
                 "wish": body.get("wish") or "", "variant": body.get("variant", "nanking")}
        for flag in ("out_of_turn", "strict_wish", "dummy"):
            if body.get(flag) is True:
                query[flag] = "y"
        for path in ("/referee", "/referee/verdict"):
            page = client.get(path, query_string=query, headers=headers).get_data(as_text=True)
            said.append(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split()))
    return " ".join(said)


def test_german_verdicts_and_errors_show_no_english(client):
    """Issue 10: every verdict of the engine's disputes and every refusal of a question,
    through the API and the page, in German: no piece of an English referee sentence shows.
    The same pieces do show in English (the check can fail)."""
    pieces = _english_pieces()
    assert len(pieces) > 60
    seen_in_english = set()
    for body in _questions():
        german = _said(client, body, "de")
        shown = [p for p in pieces if p in german]
        assert not shown, f"{body}: English in German: {shown[:3]}"
        english = _said(client, body, "en")
        seen_in_english.update(p for p in pieces if p in english)
    assert len(seen_in_english) > 40, len(seen_in_english)
