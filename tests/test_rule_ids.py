"""Every rule id the code cites exists in the rule book (docs/RULES.md), so a player who
follows `/rules#W2` from an error finds the rule; and the rule book gives each an anchor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tichu_scorer.rulebook import rulebook_html

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
ID = r"([A-Z]{1,3}\d+(?:\.\d+)*)"  # W2, H6, P4, T3.3, GS5
# The forms a rule id is cited in: "[W2]" in messages, comments and templates; "(GS5)" in
# templates' and messages' text (not a call such as f(X1)); a quoted id ("W2", 'T3.3') as a
# Problem's, a Verdict's or a dict's rule; a link to /rules#W2.
CITED = [re.compile(r"\[" + ID + r"\]"), re.compile(r"(?<!\w)\(" + ID + r"\)"),
         re.compile(r"""(?<![\w.])["']""" + ID + r"""["']"""), re.compile(r"rules#" + ID + r"\b")]
DEFINED = set(re.findall(r"`\[" + ID + r"\]`", RULES))


def cited() -> dict[str, list[str]]:
    """Rule id -> where it is cited (file:line) in the package, the templates and the JS."""
    found: dict[str, list[str]] = {}
    files = [*ROOT.glob("tichu_scorer/**/*.py"), *ROOT.glob("templates/**/*.html"),
             *ROOT.glob("static/js/*.js")]
    for path in sorted(files):
        text = path.read_text(encoding="utf-8")
        for pattern in CITED:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.setdefault(m.group(1), []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


def test_the_rule_book_defines_the_ids():
    assert {"D1", "H6", "W2", "P4", "T3.3", "T6.6", "GS5"} <= DEFINED
    assert len(DEFINED) >= 60


def test_every_cited_rule_id_is_in_the_rule_book():
    found = cited()
    assert {"W2", "H6", "P1", "T3.3", "GS5", "E1"} <= set(found)  # the search finds them
    assert any(place.startswith("templates/") for place in found["GS2"])  # "(GS2)" there
    unknown = {rule: places for rule, places in found.items() if rule not in DEFINED}
    assert not unknown, f"rule ids cited but not in docs/RULES.md: {unknown}"


@pytest.mark.parametrize("text, ids", [
    ('Problem("out_order", "GS1", _("…"))', {"GS1"}),
    ("Verdict(True, 'T3.3', reason)", {"T3.3"}),
    ('the wish applies [W2]; see <a href="/rules#H6">', {"W2", "H6"}),
    ("<p>The last pushes his best cards to the first (GS5).</p>", {"GS5"}),
    ("the match ends (T3.5) or (E1)", {"T3.5", "E1"}),
    ("f(X1) calls a function, (ab1) and (G12a) are no ids", set()),
    ('ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"; h1 = "x1.py"', set()),
])
def test_the_search_reads_each_form_of_citation(text, ids):
    assert {m.group(1) for p in CITED for m in p.finditer(text)} == ids


def test_every_rule_id_is_an_anchor_of_the_rules_page():
    anchors = set(re.findall(r'<a class="rule-id" id="([^"]+)"', rulebook_html()))
    assert DEFINED <= anchors
    assert set(cited()) <= anchors


def test_the_german_rule_book_has_every_rule_id_and_anchor():
    german = (ROOT / "docs" / "RULES.de.md").read_text(encoding="utf-8")
    assert set(re.findall(r"`\[" + ID + r"\]`", german)) == DEFINED
    anchors = set(re.findall(r'<a class="rule-id" id="([^"]+)"', rulebook_html("de")))
    assert DEFINED <= anchors
    english = re.findall(r"^#{2,3} .*$", RULES, re.M)
    assert len(re.findall(r"^#{2,3} .*$", german, re.M)) == len(english)  # same sections


@pytest.mark.parametrize("language, words, not_words", [
    ("de", ["Großes Tichu", "Hund", "Phönix", "Drache", "Stich", "Wunsch", "Doppelsieg"],
     ["Grand Tichu", "Dragon", "trick", "The rule book is in English"]),
    ("en", ["Grand Tichu", "Dog", "Phoenix", "Dragon", "trick", "wish", "Double victory"],
     ["Großes Tichu", "Drache"]),
])
def test_the_rules_page_is_in_the_readers_language(client, language, words, not_words):
    client.set_cookie("lang", language)
    page = client.get("/rules").get_data(as_text=True)
    book = page[page.index('<article class="rulebook'):]
    assert f'<article class="rulebook card" lang="{language}">' in page
    assert 'id="W6" href="#W6"' in book
    for word in words:
        assert word in book
    for word in not_words:
        assert word not in page
