"""English and German: every translatable string has a German translation, and the page
language follows the browser or the switch."""

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.support import Translations

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "N_": None,
            "lazy_gettext": None}


def extracted() -> set[str]:
    """Every message id, the templates' `_partials` and `_macros` folders included (Babel
    skips folders that begin with "_" unless told otherwise)."""
    found = set()
    for folder, method in (("tichu_scorer", "python"), ("templates", "jinja2")):
        pattern = [("**.py", "python")] if method == "python" else [("**.html", "jinja2")]
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=pattern, keywords=KEYWORDS,
                directory_filter=lambda path: not Path(path).name.startswith(".")):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_every_string_has_a_german_translation():
    translations = Translations.load(str(ROOT / "tichu_scorer" / "translations"), ["de"])
    catalog = translations._catalog  # the compiled messages.mo
    keys = {k[0] if isinstance(k, tuple) else k for k in catalog}
    missing = sorted(m for m in extracted() if m not in keys)
    assert not missing, f"run tools/translations.py; untranslated: {missing[:10]}"
    assert len(keys) > 300


@pytest.mark.parametrize("header, word", [("de-DE,de;q=0.9,en;q=0.5", "Neue Partie"),
                                          ("en-GB,en;q=0.8", "New match"),
                                          ("fr-FR", "New match")])
def test_language_follows_the_browser(client, header, word):
    page = client.get("/matches/new", headers={"Accept-Language": header}).get_data(as_text=True)
    assert word in page


def test_language_switch(client):
    r = client.get("/lang/de", headers={"Referer": "http://localhost/referee"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/referee")
    page = client.get("/referee", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Spielzug prüfen" in page and '<html lang="de">' in page
    client.get("/lang/en")
    assert "Check a play" in client.get("/referee").get_data(as_text=True)
    assert client.get("/lang/xx").status_code == 303  # unknown: ignored


def test_core_messages_are_translated(client):
    r = client.post("/api/v1/score", json={"out_order": [0, 1], "card_points": [33, None]},
                    headers={"Accept-Language": "de"})
    assert "Vielfaches von 5" in r.get_json()["errors"][0]["message"]
    r = client.get("/referee", query_string={"trick": "DR", "play": "PH"},
                   headers={"Accept-Language": "de"})
    assert "Der Phönix kann nicht auf den Drachen gespielt werden." in r.get_data(as_text=True)


def test_offsite_referrer_is_not_followed(client):
    r = client.get("/lang/de", headers={"Referer": "http://evil.example/x"})
    assert r.headers["Location"].endswith("/")


def test_german_pages_show_no_english_template_string(client):
    """Every page a German table sees, partials included: no English sentence from any
    template shows (a string the same in both languages, or a name, is no finding)."""
    from tests.conftest import hand_form, new_match, post_hand

    translations = Translations.load(str(ROOT / "tichu_scorer" / "translations"), ["de"])
    english = {m for m in extracted() if len(m) >= 12 and " " in m and "%" not in m
               and "{" not in m and translations.gettext(m) != m}
    assert len(english) > 100
    de = {"Accept-Language": "de"}
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 1], {0: "tichu"}, a=65)).status_code == 303
    client.post(url + "/hands/1/edit", data=hand_form([1, 0], a=65) | {"version": "1"})
    pages = ["/", "/matches/new", url, url + "/hands/new", url + "/hands/1/edit", url + "/log",
             url + "/share", url + "/board", "/stats", "/referee", "/join",
             # the referee's verdicts, refusals and prompts, on the page and alone
             "/referee?trick=4j&play=&hand=8s+Kj&wish=8", "/referee?play=5x",
             "/referee?play=5j&wish=Z", "/referee?trick=5j%0A4j&play=6j",
             "/referee/verdict?trick=4j", "/referee/verdict?play=3j+3s+3p+3t+PH",
             "/referee/verdict?trick=4j&play=&hand=8s+Kj&wish=8"]
    seen_in_english = 0
    for path in pages:
        html = client.get(path, headers=de).get_data(as_text=True)
        shown = [m for m in english if m in html]
        assert not shown, f"{path} shows English: {shown[:5]}"
        plain = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
        seen_in_english += sum(m in plain for m in english)
    assert seen_in_english > 30  # the same check finds these sentences on English pages


def test_the_parts_of_every_page_follow_each_requests_language(client):
    """The top bar and footer are kept per language (`chrome`): alternating languages, each
    page carries its own."""
    for header, words, other in [("de", "Partien", "Matches"), ("en", "Matches", "Partien"),
                                 ("de", "Partien", "Matches"), ("en", "Matches", "Partien")]:
        page = client.get("/rules", headers={"Accept-Language": header}).get_data(as_text=True)
        nav = page[page.index('<nav aria-label'):page.index("</nav>")]
        assert words in nav and other not in nav, nav
        footer = page[page.index('<footer'):]
        assert f'lang="{header}" aria-current="true"' in footer
