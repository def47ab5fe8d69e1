"""English and German: the German catalog is current with the source strings and every
string in it is translated, and the page language follows the browser or the switch."""

import re
import shlex
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import PYTHON_FORMAT, Catalog
from babel.messages.pofile import read_po
from babel.support import Translations

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tichu_scorer" / "translations"
POT = FOLDER / "messages.pot"
PO = FOLDER / "de" / "LC_MESSAGES" / "messages.po"
HOW = "run `make translations`, then translate (docs/TRANSLATING.md)"


def extract(pot: Path) -> None:
    """`pybabel extract` into `pot`, told what `make translations` tells it."""
    options = re.search(r"^EXTRACT_OPTIONS := (.+)$", (ROOT / "Makefile").read_text(), re.M)
    assert options, "the Makefile's EXTRACT_OPTIONS"
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run([str(pybabel), "-q", "extract", *shlex.split(options[1]), "-o", str(pot),
                    "."], cwd=ROOT, check=True)


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def keys(catalog: Catalog) -> set[tuple[object, object]]:
    return {(m.id, m.context) for m in catalog if m.id}


def placeholders(text: str, flags: set[str]) -> list[str]:
    """The names of a string's `%(name)s` or `{name}` placeholders."""
    if "python-format" in flags:
        return sorted(m[1] or m[3] for m in PYTHON_FORMAT.finditer(text) if m[3] != "%")
    if "python-brace-format" in flags:
        return sorted(name for _, name, _, _ in string.Formatter().parse(text)
                      if name is not None)
    return []


def problems(catalog: Catalog) -> dict[str, list[str]]:
    """Each German string that would show English or break a page, by what is wrong."""
    found: dict[str, list[str]] = {"untranslated": [], "fuzzy": [], "placeholders": []}
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found["fuzzy"].append(ids[0])
        if not all(texts) or len(texts) != (catalog.num_plurals if len(ids) > 1 else 1):
            found["untranslated"].append(ids[0])
        # each form against its English: the singular's, then the plural's
        if any(text and placeholders(ids[min(n, 1)], message.flags)
               != placeholders(text, message.flags) for n, text in enumerate(texts)):
            found["placeholders"].append(ids[0])
    found["placeholders"] += [f"{m.id!r}: {e}" for m, errors in catalog.check() for e in errors]
    return {what: ids for what, ids in found.items() if ids}


def test_the_german_catalog_is_current(tmp_path):
    """messages.pot holds exactly the strings of the code and templates, and messages.po
    exactly those of messages.pot."""
    extract(tmp_path / "messages.pot")
    source, template, catalog = read(tmp_path / "messages.pot"), read(POT), read(PO)
    assert len(keys(source)) > 300
    for name, kept in (("messages.pot", template), ("messages.po", catalog)):
        new = sorted(map(str, keys(source) - keys(kept)))
        gone = sorted(map(str, keys(kept) - keys(source)))
        assert not new and not gone, (
            f"{name} is out of date ({HOW}): new {new[:5]}, gone {gone[:5]}")
    assert (tmp_path / "messages.pot").read_bytes() == POT.read_bytes(), HOW


def test_every_string_has_a_german_translation():
    """No empty or fuzzy German (a fuzzy one is a guess from a changed English string, and
    shows English), and each keeps its English's placeholders."""
    catalog = read(PO)
    assert not catalog.fuzzy, "the header of messages.po is marked fuzzy: nothing compiles"
    found = problems(catalog)
    assert not found, f"{HOW}: {found}"


GOOD = [("Beggar", "Bettler"), ("%(n)s players", "%(n)s Spieler"), ("as {rank}", "als {rank}"),
        (("%(num)d hand", "%(num)d hands"), ("%(num)d Hand", "%(num)d Hände"))]


@pytest.mark.parametrize("english, german, flags", [
    ("Beggar", "Bettler", {"fuzzy"}),
    ("Beggar", "", set()),
    (("%(num)d hand", "%(num)d hands"), ("%(num)d Hand", ""), set()),
    (("%(num)d hand", "%(num)d hands"), ("%(num)d Hand",), set()),
    ("%(n)s players", "%(m)s Spieler", set()),
    ("%(n)s players", "Spieler", set()),
    ("%(n)s players", "%(n)d Spieler", set()),
    ("as {rank}", "als {Rang}", set()),
])
def test_the_check_finds_each_fault(english, german, flags):
    """The check above, shown a catalog with one faulty German string."""
    assert not problems(small_catalog({}))
    catalog = small_catalog({english: german})
    catalog[english].flags |= flags
    assert problems(catalog)


def small_catalog(changed: dict) -> Catalog:
    catalog = Catalog(locale="de")
    for english, german in (dict(GOOD) | changed).items():
        catalog.add(english, german)
    return catalog


def test_the_compiled_catalog_is_the_catalog():
    """The app reads messages.mo, which `make run` and `make test` compile from messages.po:
    run alone, pytest would otherwise test a stale one."""
    compiled = Translations.load(str(FOLDER), ["de"])
    for message in read(PO):
        if message.id and isinstance(message.id, str) and not message.fuzzy:
            assert compiled.gettext(message.id) == message.string, "run make test"


def english_strings() -> set[str]:
    """Every message id of the code and templates (messages.pot, checked current above)."""
    return {m.id[0] if isinstance(m.id, tuple) else m.id for m in read(POT) if m.id}


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
    english = {m for m in english_strings() if len(m) >= 12 and " " in m and "%" not in m
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
    """The top bar and its language switch are kept per language (`chrome`): alternating
    languages, each page carries its own, and the switch offers the other language."""
    for header, words, other in [("de", "Partien", "Matches"), ("en", "Matches", "Partien"),
                                 ("de", "Partien", "Matches"), ("en", "Matches", "Partien")]:
        page = client.get("/rules", headers={"Accept-Language": header}).get_data(as_text=True)
        nav = page[page.index('<nav aria-label'):page.index("</nav>")]
        assert words in nav and other not in nav, nav
        switch = page[page.index('class="lang"'):page.index("</header>")]
        offered = "en" if header == "de" else "de"
        assert f'/lang/{offered}"' in switch and f"/lang/{header}" not in switch, switch
